import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A test host (or any tool) that runs until the test tells it to end, and reports the
/// states it reaches as "key: value" lines on standard output.
///
/// The test writes commands on the tool's standard input (``send(_:)``), waits for the
/// reports it is told of (``waitFor(_:timeout:)``, ``waitForReport(_:count:timeout:)``),
/// and ends it by closing that input (``finish(timeout:)``). Nothing here waits for a fixed
/// time: each wait ends when its report comes, and fails only when the tool ended first or
/// when a generous deadline passed, saying what was awaited and what the tool printed.
public final class RunningTool: @unchecked Sendable {
    public let process: Process
    private let input: Pipe
    private let scratch: URL
    private let out: URL
    private let err: URL
    private let what: String

    /// Starts `executable` with `arguments`, `environment` added to this process's, in
    /// `directory` when given; started with no signal blocked (so SIGTERM reaches it).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        what = URL(fileURLWithPath: executable).lastPathComponent
        scratch = try TestTools.temporaryDirectory("running-\(what)")
        out = scratch.appendingPathComponent("stdout")
        err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: TestTools.path(of: executable) ?? executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.runWithNoSignalBlocked()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    public var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }
    public var output: String { stdout + stderr }
    public var isRunning: Bool { process.isRunning }

    /// Writes `line` (and a newline) to the tool's standard input.
    public func send(_ line: String) throws {
        do {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            throw TestToolError("\(what) took no more input (\(error)); it printed:\n\(output.suffix(3000))")
        }
    }

    /// The values of every "key: value" line of standard output with this key, in order.
    public func reports(_ key: String) -> [String] {
        let prefix = key + ":"
        return stdout.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map {
            $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Waits until the tool has reported `key` at least `count` times, and returns the value
    /// of that report.
    @discardableResult
    public func waitForReport(_ key: String, count: Int = 1, timeout: Double = 120) throws -> String {
        var value = ""
        try waitFor("\(count) report\(count == 1 ? "" : "s") '\(key)'", timeout: timeout) {
            let found = reports(key)
            guard found.count >= count else { return false }
            value = found[count - 1]
            return true
        }
        return value
    }

    /// Waits until `condition` holds (polled as the tool runs). Fails when the tool ended
    /// first or after `timeout` seconds, with what it printed.
    public func waitFor(_ description: String, timeout: Double = 120, _ condition: () throws -> Bool) throws {
        let deadline = TestTools.monotonicSeconds() + timeout
        while true {
            if try condition() { return }
            if !process.isRunning {
                if try condition() { return }
                throw TestToolError("\(what) ended (status \(process.terminationStatus)) before \(description):\n\(output.suffix(4000))")
            }
            if TestTools.monotonicSeconds() > deadline {
                throw TestToolError("no \(description) from \(what) within \(Int(timeout)) s:\n\(output.suffix(4000))")
            }
            usleep(10_000)
        }
    }

    /// Ends the tool: its standard input is closed (the test hosts end on that, as on a
    /// "quit" line), then it is waited for; after `timeout` seconds it is killed. What it
    /// printed is returned.
    public func finish(timeout: Double = 120) throws -> ToolResult {
        try? input.fileHandleForWriting.close()
        let deadline = TestTools.monotonicSeconds() + timeout
        while process.isRunning && TestTools.monotonicSeconds() < deadline { usleep(10_000) }
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let result = ToolResult(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal, stdout: stdout, stderr: stderr)
        if killed { throw TestToolError("\(what) did not end within \(Int(timeout)) s of its input's end; killed:\n\(result.output.suffix(4000))") }
        return result
    }
}
