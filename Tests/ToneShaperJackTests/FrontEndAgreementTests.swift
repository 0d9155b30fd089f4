import FlyingFox
import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperWire

@testable import ToneShaperOSC
@testable import ToneShaperWeb

/// The parameter table is the one source of every check: for every parameter the same
/// out-of-range value is refused by a document, by the command line and over OSC, each
/// naming the parameter in its own words (document key, `--option`, OSC address).
@Suite struct FrontEndAgreement {
    /// A value outside each parameter's range, as a document, a command line and OSC say it.
    static func outOfRange(_ spec: ParameterSpec) -> (json: String, text: String, osc: OSCValue) {
        switch spec.kind {
        case .real(let range):
            let v = range.upperBound * 2 + 1
            return (String(v), String(v), .double(v))
        case .integer(let range): return (String(range.upperBound + 1), String(range.upperBound + 1), .int32(Int32(range.upperBound + 1)))
        case .choice: return ("\"Wobble\"", "Wobble", .string("Wobble"))
        case .terms: return ("0", "0", .int32(0))
        case .flag: return ("2", "2", .int32(2))
        }
    }

    @Test(arguments: ParameterTable.all.map(\.id))
    func everyFrontEndRefusesTheSameValueInItsOwnWords(_ id: ParameterID) throws {
        let spec = ParameterTable.spec(id)
        let bad = Self.outOfRange(spec)

        // A document.
        var object = #"{"points":[[0,200],[1,300]],"duration":1,"minFrequency":100,"maxFrequency":400"#
        object = object.replacingOccurrences(of: #""\#(spec.documentKey)":[0-9.]+,?"#, with: "", options: .regularExpression)
        if object.hasSuffix(",") { object.removeLast() }
        object += #","\#(spec.documentKey)":\#(bad.json)}"#
        var documentError: DocumentError?
        do { _ = try ToneShapeDocument.decode(object, source: "doc") } catch { documentError = error }
        let refusal = try #require(documentError, "the document accepted \(spec.documentKey) = \(bad.json)")
        #expect(refusal.key == spec.documentKey, "\(refusal)")

        // The command line, through the real executable.
        let cli = try Self.runToneshaper(["render", "siren", "-o", "/dev/null", "--set", "\(spec.flag)=\(bad.text)"])
        #expect(cli.status != 0)
        #expect(cli.stderr.contains("--\(spec.flag):"), "\(cli.stderr)")

        // OSC, through the router.
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let router = OSCCommandRouter(
            space: OSCAddressSpace(prefix: "/toneshaper"), controller: controller,
            services: OSCHostServices(), maximumStringLength: 1024)
        let address = "/toneshaper/" + spec.oscPath
        guard case .refused(_, let reason) = router.handle(path: address, arguments: [bad.osc], timeTag: .immediate) else {
            Issue.record("OSC accepted \(address) \(bad.osc)")
            return
        }
        #expect(reason.hasPrefix(address + ":"), "\(reason)")
        #expect(controller.shape == ToneShape.defaultShape)
    }

    // MARK: Every address, every front end that speaks addresses

    /// What a front end made of one message: accepted, or refused with a reason.
    enum Outcome: Equatable, CustomStringConvertible {
        case accepted
        case refused(String)
        var description: String {
            switch self {
            case .accepted: return "accepted"
            case .refused(let reason): return "refused: \(reason)"
            }
        }
    }

    /// Messages derived from each address's signature: every argument at the ends of its
    /// range and beyond, choices by name and by an index too far, one argument too many.
    /// Whole numbers stay integers and every real is exact in a float, so each wire carries
    /// the same value.
    static func messages(for address: ControlAddress) -> [[ParameterValue]] {
        func samples(_ argument: ControlArgument) -> [ParameterValue] {
            switch argument.type {
            case .real, .integer:
                guard let span = argument.numericRange else { return [.integer(0)] }
                return [span.lowerBound, span.upperBound, span.upperBound + 1].map { $0 == $0.rounded() ? .integer(Int($0)) : .real($0) }
            case .choice(let names): return [.text(names.last!), .integer(names.count), .text("Wobble")]
            case .countOrNyquist: return [.text("nyquist"), .integer(8), .integer(0)]
            case .flag: return [.integer(1), .integer(0), .integer(2)]
            case .text: return [.text("frequency/max"), .text("none"), .text("../etc/passwd")]
            }
        }
        let arguments = address.signature.arguments
        let columns = arguments.map(samples)
        var messages: [[ParameterValue]] = (0..<3).map { row in columns.map { $0[row] } }
        messages.append(messages[0] + [.integer(1)])  // one too many
        if address.signature.arity != .exact { messages.append([]) }
        return messages
    }

    /// The words of `toneshaper send` that carry a value with its type.
    static func sendWord(_ value: ParameterValue) -> String {
        switch value {
        case .integer(let i): return "\(i):i"
        case .real(let d): return "\(d):d"
        case .text(let s): return s + ":s"
        case .flag(let b): return b ? "1:i" : "0:i"
        }
    }

    static func oscValue(_ value: ParameterValue) -> OSCValue {
        switch value {
        case .integer(let i): return .int32(Int32(i))
        case .real(let d): return .double(d)
        case .text(let s): return .string(s)
        case .flag(let b): return .bool(b)
        }
    }

    static func json(_ value: ParameterValue) -> String {
        switch value {
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let s): return "\"" + s + "\""
        case .flag(let b): return String(b)
        }
    }

    /// OSC (the router), the web (HTTP `/control` and the WebSocket session) and the command
    /// line (`toneshaper send` to an OSC server in this process) each get every message of
    /// every address of `ControlAddress.all`, each in front of a controller of its own: all
    /// accept the same messages, refuse the same ones with the same reason, and leave the
    /// same state.
    @Test func oscWebAndTheCommandLineAgreeOnEveryAddress() async throws {
        let prefix = "/toneshaper"
        func makeController() -> EngineController { EngineController(shape: .defaultShape, sampleRate: 48_000) }

        let oscController = makeController()
        let router = OSCCommandRouter(
            space: OSCAddressSpace(prefix: prefix), controller: oscController, services: OSCHostServices(), maximumStringLength: 1024)

        let httpController = makeController()
        let web = try WebControlServer(
            controller: httpController, configuration: WebConfiguration(port: 0, searchFreePort: false), services: WebHostServices())
        try await web.start()
        defer { web.stop() }
        let http = WebClient(base: "http://127.0.0.1:\(web.port)")

        let socketController = makeController()
        let socket = try await WebSocketProbe(controller: socketController, prefix: prefix)
        defer { socket.close() }

        let sendController = makeController()
        let server = try OSCControlServer(controller: sendController, configuration: .init(port: 0, prefix: prefix))
        try server.start()
        defer { server.stop() }

        var seen: [Outcome] = []
        for address in ControlAddress.all {
            for message in Self.messages(for: address) {
                let full = prefix + "/" + address.path
                let shown = "\(full) \(message.map(\.description).joined(separator: " "))"

                let osc: Outcome
                switch router.handle(path: full, arguments: message.map(Self.oscValue), timeTag: .immediate) {
                case .applied, .reply: osc = .accepted
                case .refused(_, let reason): osc = .refused(reason)
                }

                let posted = try await http.post("/control/" + address.path, "[" + message.map(Self.json).joined(separator: ",") + "]")
                let overHTTP: Outcome = posted.status == 200 ? .accepted : .refused(posted.json["error"] as? String ?? "status \(posted.status)")

                let overSocket = await socket.send(address.path, message.map(Self.json))

                let sent = try Self.runToneshaper(["send", "--port", String(server.port), full] + message.map(Self.sendWord), output: true)
                let overCLI: Outcome
                let errorLine = "\(prefix)/error \(full) "
                if let line = sent.stdout.split(separator: "\n").first(where: { $0.hasPrefix(errorLine) }) {
                    overCLI = .refused(Self.unquoted(String(line.dropFirst(errorLine.count))))
                } else {
                    overCLI = sent.status == 0 ? .accepted : .refused("exit \(sent.status): \(sent.stderr)")
                }

                seen.append(osc)
                #expect(overHTTP == osc, "HTTP and OSC differ on \(shown)")
                #expect(overSocket == osc, "the WebSocket and OSC differ on \(shown)")
                #expect(overCLI == osc, "toneshaper send and OSC differ on \(shown)")
                let states = [httpController, socketController, sendController].map { ($0.shape, $0.isPlaying) }
                #expect(states.allSatisfy { $0 == (oscController.shape, oscController.isPlaying) }, "the states differ after \(shown)")
            }
        }
        // Both kinds, plenty of each: the messages reach the meaning, not only the wire.
        #expect(seen.filter { $0 == .accepted }.count > 30 && seen.filter { $0 != .accepted }.count > 60, "\(seen)")
    }

    /// A string as `toneshaper send` prints it (quoted when it holds spaces or quotes).
    static func unquoted(_ text: String) -> String {
        guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return text }
        return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\n", with: "\n")
    }

    static func runToneshaper(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let result = try runToneshaper(arguments, output: false)
        return (result.status, result.stderr)
    }

    static func runToneshaper(_ arguments: [String], output: Bool) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTools.toneshaperBinary)
        process.arguments = arguments
        let errors = Pipe()
        let out = Pipe()
        process.standardError = errors
        process.standardOutput = output ? out : FileHandle.nullDevice
        try process.run()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        let outData = output ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}
