import Foundation

/// Why the node could not join a JACK graph.
public enum JackNodeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No server answered (the node never starts one itself).
    case noServer(serverName: String)
    /// `jack_client_open` failed for another reason; `status` holds JACK's status bits.
    case openFailed(serverName: String, status: UInt32)
    case portRegistrationFailed(port: String)
    case activationFailed
    case alreadyStarted

    public var description: String {
        switch self {
        case .noServer(let name):
            return "no JACK server is running (server name \"\(name)\"); start one with `jackd -d dummy` "
                + "(no sound card needed) or `jackd -d alsa`, or set JACK_DEFAULT_SERVER to the name of a running server"
        case .openFailed(let name, let status):
            return "could not open a JACK client on server \"\(name)\" (\(JackNodeError.describe(status: status)))"
        case .portRegistrationFailed(let port):
            return "JACK refused to register the port \"\(port)\""
        case .activationFailed:
            return "JACK refused to activate the client"
        case .alreadyStarted:
            return "the JACK node is already running"
        }
    }

    /// The server this process talks to: libjack reads JACK_DEFAULT_SERVER itself.
    public static var serverName: String {
        ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }

    /// JACK's status bits in words (jack/types.h, enum JackStatus).
    static func describe(status: UInt32) -> String {
        let names: [(UInt32, String)] = [
            (0x01, "failure"), (0x02, "invalid option"), (0x04, "name not unique"), (0x08, "server started"),
            (0x10, "server failed"), (0x20, "server error"), (0x40, "no such client"), (0x80, "load failure"),
            (0x100, "init failure"), (0x200, "shared memory failure"), (0x400, "version error"),
            (0x800, "backend error"), (0x1000, "client zombie"),
        ]
        let words = names.filter { status & $0.0 != 0 }.map(\.1)
        return words.isEmpty ? String(format: "status 0x%x", status) : words.joined(separator: ", ")
    }
}
