import ArgumentParser
import ToneShaperOSC

/// `toneshaper send`: one OSC message to a running node, and its reply.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one OSC message to a running node and print its reply.",
        discussion: """
            ADDRESS may be given with or without the prefix: `/state`, `state` and \
            `/toneshaper/state` are the same. Arguments are typed by their look: an integer \
            (440, -3) is sent as int32, a number with a point or exponent or inf/nan (0.5, 1e3) \
            as float, anything else as a string. A suffix forces the type: 3:f float, 3:d double, \
            3:i int32, 3:h int64, 7:s string.

            Each reply is printed on one line: its address, then its values (strings with \
            spaces in quotes). The node answers a change with <prefix>/ok <address> and a \
            refusal with <prefix>/error <address> <reason>.

            Exit status: 0 on success; 1 if the node answered with an error; 69 if nothing \
            answered within --wait seconds (is the node running, on that port?); 64 for a bad \
            option or argument. With --wait 0 nothing is awaited and a sent change exits 0.

            Examples:
              toneshaper send /state
              toneshaper send frequency/range 110 880
              toneshaper send /wave "Square Fourier"
              toneshaper send /wave 3
              toneshaper send /amplitude/db -12
              toneshaper send /fidelity 100:i
              toneshaper send /points 0 220 1 440 2 220
              toneshaper send /load siren
              toneshaper send /stop --delay 2        (a bundle time-tagged 2 s from now)
              toneshaper send /stats --port 9001 --wait 0.2

            Addresses (below the prefix):
            \(SendCommand.addressList)
            """)

    @Argument(help: "The OSC address, with or without the prefix (for example /frequency/min).")
    var address: String

    @Argument(
        parsing: .allUnrecognized,
        help: "Arguments, typed by their look (see above); suffix :i :h :f :d :s to force a type.")
    var arguments: [String] = []

    @Option(help: "The node's OSC port.")
    var port: Int = 9000

    @Option(help: "The node's host: a numeric IPv4 or IPv6 address (127.0.0.1, ::1), or localhost.")
    var host: String = "127.0.0.1"

    @Flag(help: "Send over TCP (the node listens on the same port number) instead of UDP.")
    var tcp = false

    @Option(help: "Seconds to wait for the reply; 0 sends without waiting.")
    var wait: Double = 1

    @Option(help: "The node's OSC prefix.")
    var prefix: String = "/toneshaper"

    @Option(help: "Send inside a bundle time-tagged this many seconds from now (the node schedules it sample-accurately).")
    var delay: Double?

    /// Derived from the server's own address space and the addresses it answers itself
    /// (about replies and pushed changes), so the help cannot fall behind either.
    static var addressList: String {
        let entries =
            OSCAddressSpace(prefix: "").entries.map { ($0.address, $0.arguments, $0.help) }
            + OSCServerAddress.all.map { ("/" + $0.path, $0.arguments, $0.help) }
        return entries.map { address, arguments, help in
            "  \(address)\(arguments.isEmpty ? "" : " " + arguments)\n      \(help)"
        }.joined(separator: "\n")
    }

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1...65535") }
        guard wait.isFinite, wait >= 0, wait <= 3600 else { throw ValidationError("--wait must be 0...3600 seconds") }
        if let delay { guard delay.isFinite, delay >= 0 else { throw ValidationError("--delay must be 0 or more seconds") } }
        // .allUnrecognized also collects mistyped options; a word starting with "--" is
        // never a value this command means to send.
        if let option = arguments.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
            throw ValidationError("unknown option \(option) (to send it as a string, write \(option):s)")
        }
    }

    func run() throws {
        let path = SendCommand.fullAddress(address, prefix: prefix)
        let values: [OSCValue]
        do { values = try arguments.map { word throws(OSCArgumentError) in try OSCValue(commandLine: word) } } catch {
            throw ValidationError(error.description)
        }

        let client: OSCClient
        do {
            client = try OSCClient(host: host, port: port, overTCP: tcp)
            try client.send(path, values, at: delay.map { OSCTimeTag(unixSeconds: OSCTimeTag.wallClock() + $0) })
        } catch {
            // A host that does not parse is the user's; a connection refused is the node's absence.
            throw CommandFailure(error.description.contains("not a numeric") ? .usage : .unavailable, error.description)
        }

        let isQuery = ["/state", "/stats"].contains { path.hasSuffix($0) }
        guard wait > 0 else {
            if isQuery { throw ValidationError("--wait 0 does not wait for the reply to \(path)") }
            return
        }
        let replies = client.receive(timeout: wait) { !$0.isEmpty }
        for reply in replies { print(reply) }
        let errorPath = SendCommand.fullAddress("/error", prefix: prefix)
        if replies.contains(where: { $0.path == errorPath }) { throw ExitCode(ExitStatus.failure.rawValue) }
        if replies.isEmpty {
            // Scripts must notice: a change nobody acknowledged may never have landed.
            let target = SocketAddressText.hostPort(host, port)
            throw CommandFailure(.unavailable, "no reply from \(target) within \(wait) s (is the node running, with OSC on that port?)")
        }
    }

    /// "/state", "state" and "/toneshaper/state" all become "/toneshaper/state".
    static func fullAddress(_ address: String, prefix rawPrefix: String) -> String {
        var prefix = rawPrefix
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty, !prefix.hasPrefix("/") { prefix = "/" + prefix }
        let path = address.hasPrefix("/") ? address : "/" + address
        if prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/") { return path }
        return prefix + path
    }

    /// "127.0.0.1:9000", "[::1]:9000".
    enum SocketAddressText {
        static func hostPort(_ host: String, _ port: Int) -> String {
            host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
