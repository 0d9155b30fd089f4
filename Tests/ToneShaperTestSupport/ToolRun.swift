import Foundation

/// What a tool run to completion left: its status, whether a signal ended it (a crash), and
/// its output. The project's C test hosts report "key: value" lines on standard output.
public struct ToolResult: Sendable {
    public var status: Int32
    /// True when the process ended by a signal, not an exit.
    public var signalled: Bool
    public var stdout: String
    public var stderr: String
    public var output: String { stdout + stderr }

    /// The report: "key: value" lines of standard output.
    public var report: [String: String] {
        var values: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    public func number(_ key: String) -> Double? { report[key].flatMap(Double.init) }

    public init(status: Int32, signalled: Bool, stdout: String, stderr: String) {
        self.status = status
        self.signalled = signalled
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Runs `executable` to completion (killed after `timeout` seconds), its output collected
    /// in files (a pipe left unread would stall a chatty tool), with `environment` added to
    /// this process's, in `directory` when given.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, timeout: Double = 60
    ) throws -> ToolResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ToolResult(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "", stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Raw float32 samples a C test host wrote with --out.
    public static func samples(_ url: URL) throws -> [Float] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
