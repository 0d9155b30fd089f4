import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A JACK server of the test's own: the dummy driver (no sound card), not real-time, under
/// a name no other test or person uses, stopped when the test is done. The one server
/// starter of every suite (the node's, the LV2 plugin's in jalv, the CLAP plugin's in
/// Qtractor).
///
/// It is started with no signal blocked, so SIGTERM stops it cleanly and its shared memory
/// goes with it. Clients the test starts through it (``startClient(_:_:environment:output:)``:
/// jalv, jack_midiseq) are stopped before it; what a killed client left in /dev/shm under
/// this server's name is removed after it.
public final class PrivateJackServer: @unchecked Sendable {
    private static let counter = Atomic<Int>(0)

    /// jackd, jack_lsp and jack_capture: what every JACK test needs.
    public static var available: Bool { TestTools.have("jackd", "jack_lsp", "jack_capture") }

    public let name: String
    public let rate: Int
    public let period: Int
    /// What jackd printed (its xruns, clients it dropped), for a failure to show.
    public let log: URL
    private let lock = Mutex(State())

    private struct State {
        var server: Process?
        var children: [(process: Process, input: FileHandle)] = []
    }

    /// Starts a server named `prefix-PID-N` and waits until `jack_lsp` answers (a loaded
    /// machine gets up to 30 s).
    public init(prefix: String = "ts-test", rate: Int = 48_000, period: Int = 64) throws {
        name = "\(prefix)-\(getpid())-\(PrivateJackServer.counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        self.rate = rate
        self.period = period
        log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log")
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// For child processes: talk to this server, and never start one of their own.
    public var environment: [String: String] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"] }

    /// The last lines jackd printed.
    public func logTail(lines: Int = 12) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Starts jackd (again, after ``stop()`` or ``kill9()``, at `newRate` when given) and
    /// waits until it answers.
    public func start(rate newRate: Int? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestTools.require("jackd"))
        process.arguments = ["-n", name, "--no-realtime", "-d", "dummy", "-r", String(newRate ?? rate), "-p", String(period)]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        try process.runWithNoSignalBlocked()
        try? output.close()
        lock.withLock { $0.server = process }
        let deadline = TestTools.monotonicSeconds() + 30
        while TestTools.monotonicSeconds() < deadline && process.isRunning {
            if ports() != nil { return }
            usleep(50_000)
        }
        stop()
        throw TestToolError("jackd \(name) did not come up:\n\(logTail())")
    }

    /// Kills the server the hard way (a crash, for the node), and reaps it.
    public func kill9() {
        guard
            let process = lock.withLock({ state -> Process? in
                defer { state.server = nil }
                return state.server
            })
        else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Stops the clients it started (their input closed, then SIGTERM, then SIGKILL), then
    /// the server, then removes what a killed client left in /dev/shm under this name.
    public func stop() {
        let (server, children) = lock.withLock { state in
            defer {
                state.server = nil
                state.children = []
            }
            return (state.server, state.children)
        }
        for (child, input) in children {
            try? input.close()
            Self.end(child, grace: 3)
        }
        guard let server else { return }
        Self.end(server, grace: 5)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [] where file.contains("_\(name)_") {
            try? FileManager.default.removeItem(atPath: "/dev/shm/" + file)
        }
    }

    /// SIGTERM, `grace` seconds to end, then SIGKILL; reaped.
    public static func end(_ process: Process, grace: Double) {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = TestTools.monotonicSeconds() + grace
            while process.isRunning && TestTools.monotonicSeconds() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    /// Runs a JACK tool against this server (killed after `timeout` seconds).
    public func run(_ tool: String, _ arguments: [String], timeout: Double = 10) throws -> ToolResult {
        try ToolResult.run(try TestTools.require(tool), arguments, environment: environment, timeout: timeout)
    }

    /// `jack_lsp`: every port, or nil when the server does not answer.
    public func ports() -> [String]? {
        guard let result = try? run("jack_lsp", [], timeout: 5), result.status == 0 else { return nil }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `jack_lsp -c`: every port and what it is connected to (nil if the server is away).
    public func connections() -> [String: [String]]? {
        guard let result = try? run("jack_lsp", ["-c"], timeout: 5), result.status == 0 else { return nil }
        var ports: [String: [String]] = [:]
        var current: String?
        for line in result.stdout.split(separator: "\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if let current { ports[current, default: []].append(line.trimmingCharacters(in: .whitespaces)) }
            } else {
                current = String(line)
                ports[String(line)] = ports[String(line)] ?? []
            }
        }
        return ports
    }

    public func connect(_ from: String, _ to: String) throws {
        let result = try run("jack_connect", [from, to], timeout: 10)
        guard result.status == 0 else { throw TestToolError("jack_connect \(from) \(to): \(result.output)") }
    }

    /// Starts a client (jalv, jack_midiseq) against this server, with a standard input the
    /// test can write to; it is stopped with the server. Its output goes to `output`, when given.
    @discardableResult
    public func startClient(_ tool: String, _ arguments: [String], environment extra: [String: String] = [:], output: URL? = nil) throws -> (
        process: Process, input: FileHandle
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestTools.require(tool))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(extra) { $1 }) { $1 }
        let input = Pipe()
        process.standardInput = input
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.runWithNoSignalBlocked()
        lock.withLock { $0.children.append((process, input.fileHandleForWriting)) }
        return (process, input.fileHandleForWriting)
    }

    /// Records `port` for `seconds` with jack_capture; the first channel and the rate.
    public func record(_ port: String, seconds: Double) throws -> (samples: [Float], sampleRate: Double) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(
            "jack_capture", ["--channels", "1", "--port", port, "--recording-time", String(seconds), "--daemon", file.path], timeout: seconds + 30)
        guard result.status == 0, FileManager.default.fileExists(atPath: file.path) else {
            throw TestToolError("jack_capture failed (status \(result.status)): \(result.output)")
        }
        let wave = try WaveFile(contentsOf: file)
        return (wave.channel(0), wave.sampleRate)
    }

    /// Polls `condition` until it holds (true) or `seconds` pass (false).
    public func waitFor(_ condition: () -> Bool, seconds: Double) -> Bool {
        let deadline = TestTools.monotonicSeconds() + seconds
        while TestTools.monotonicSeconds() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
