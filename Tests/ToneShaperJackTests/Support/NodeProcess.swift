import Foundation
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `toneshaper run ...` as a child process, talking to a private JACK server.
final class NodeProcess: @unchecked Sendable {
    let process = Process()
    let stdout = OutputCollector()
    let stderr = OutputCollector()

    init(_ arguments: [String], server: PrivateJackServer, environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: ExternalTools.toneshaperBinary)
        process.arguments = ["run"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }.merging(extra) { $1 }
        process.standardOutput = stdout.pipe
        process.standardError = stderr.pipe
        try process.run()
        stdout.start()
        stderr.start()
    }

    deinit { terminate() }

    /// Waits for the ready lines ("JACK: ..." and, with OSC, "OSC: ...").
    func waitUntilReady(osc: Bool = true, timeout: Double = 10) async throws {
        let ready = await eventually(timeout: timeout) {
            !process.isRunning || (jackLine != nil && (!osc || oscLine != nil))
        }
        guard ready, process.isRunning else {
            throw JackTestError("toneshaper run did not get ready; stdout: \(stdout.text) stderr: \(stderr.text)")
        }
    }

    var jackLine: String? { line(startingWith: "JACK: ") }
    var oscLine: String? { line(startingWith: "OSC: ") }

    /// The ports printed on the JACK line.
    var ports: [String] { (jackLine ?? "").split(separator: " ").map(String.init) }

    /// The UDP port of the printed OSC URL ("osc.udp://127.0.0.1:9000/").
    var oscPort: Int? {
        guard let url = oscLine else { return nil }
        return Int(url.split(separator: ":").last?.filter(\.isNumber) ?? "")
    }

    private func line(startingWith prefix: String) -> String? {
        stdout.text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Sends `signal` and waits for the exit; the exit status, or nil if it did not exit.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Double = 5) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        _ = await eventually(timeout: timeout) { !process.isRunning }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        stdout.finish()
        stderr.finish()
        return process.terminationStatus
    }

    func terminate() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A scratch directory for one test, removed afterwards.
final class ScratchDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("toneshaper-jack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a constant-frequency document (no amplitude scaling, no echo offset) and
    /// returns its path.
    func constantTone(frequency: Double, amplitude: Double, wave: String = "Sine") throws -> String {
        let path = url.appendingPathComponent("constant-\(Int(frequency)).toneshaper").path
        let json = """
            {"points": [[0, \(frequency)]], "duration": 1, "minFrequency": 20, "maxFrequency": 2000,
             "componentType": "\(wave)", "scaleType": "None", "amplitude": \(amplitude)}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
