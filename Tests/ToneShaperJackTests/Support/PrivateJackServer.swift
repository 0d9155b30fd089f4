import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A JACK server of the test's own: the dummy driver (no sound card), not real-time, under
/// a name no other test or person uses, killed when the test is done.
final class PrivateJackServer: @unchecked Sendable {
    private static let counter = Atomic<Int>(0)

    let name: String
    let rate: Int
    let period: Int
    private var process: Process?

    init(rate: Int = 48_000, period: Int = 64) throws {
        name = "ts-test-\(getpid())-\(PrivateJackServer.counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        self.rate = rate
        self.period = period
        log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log")
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// What jackd printed (its xruns, clients it dropped), for a failure to show.
    let log: URL

    /// The last lines jackd printed.
    func logTail(lines: Int = 12) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// For child processes: talk to this server.
    var environment: [String: String] { ["JACK_DEFAULT_SERVER": name] }

    /// Starts jackd and waits until `jack_lsp` answers.
    func start(rate newRate: Int? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTools.path(of: "jackd") ?? "/usr/bin/jackd")
        process.arguments = ["--no-realtime", "-d", "dummy", "-r", String(newRate ?? rate), "-p", String(period)]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try? output.close()
        self.process = process
        let deadline = monotonicSeconds() + 10
        while monotonicSeconds() < deadline {
            if !process.isRunning { break }
            if (try? ExternalTools.run("jack_lsp", [], environment: environment, timeout: 3))?.status == 0 { return }
            usleep(50_000)
        }
        stop()
        throw JackTestError("jackd \(name) did not come up")
    }

    /// Kills the server the hard way (a crash, for the node), and reaps it.
    func kill9() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    func stop() {
        guard let process else { return }
        self.process = nil
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = monotonicSeconds() + 3
        while process.isRunning && monotonicSeconds() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// `jack_lsp -c`: every port and what it is connected to (nil if the server is away).
    func connections() -> [String: [String]]? {
        guard let result = try? ExternalTools.run("jack_lsp", ["-c"], environment: environment, timeout: 3),
            result.status == 0
        else { return nil }
        var ports: [String: [String]] = [:]
        var current: String?
        for line in result.output.split(separator: "\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if let current { ports[current, default: []].append(line.trimmingCharacters(in: .whitespaces)) }
            } else {
                current = String(line)
                ports[String(line)] = ports[String(line)] ?? []
            }
        }
        return ports
    }

    /// Starts recording `port` with jack_capture (``record(_:seconds:into:)``) and returns
    /// once the recorder is connected to it: the recording has begun, so anything sent from
    /// now on lands inside it, however slowly the busy host started the recorder.
    func startRecording(_ port: String, seconds: Double, into directory: URL) async throws -> Task<(samples: [Float], sampleRate: Double), any Error>
    {
        let recording = Task.detached { try self.record(port, seconds: seconds, into: directory) }
        let connected = await eventually(timeout: 10) {
            connections()?[port]?.contains { $0.hasPrefix("jack_capture") } == true
        }
        guard connected else {
            recording.cancel()
            throw JackTestError("jack_capture did not connect to \(port) within 10 s")
        }
        return recording
    }

    /// Records `port` with jack_capture for `seconds` and returns the samples (mono).
    func record(_ port: String, seconds: Double, into directory: URL) throws -> (samples: [Float], sampleRate: Double) {
        let file = directory.appendingPathComponent("capture-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ExternalTools.run(
            "jack_capture",
            [
                "--channels", "1", "--port", port, "--recording-time", String(seconds), "--daemon", file.path,
            ], environment: environment, timeout: seconds + 10)
        guard result.status == 0, FileManager.default.fileExists(atPath: file.path) else {
            throw JackTestError("jack_capture failed (status \(result.status))")
        }
        let wave = try WaveFile(contentsOf: file)
        return (wave.channel(0), wave.sampleRate)
    }
}

struct JackTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
