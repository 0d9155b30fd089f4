import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One test of this bundle run in a process of its own: the test binary again, filtered to
/// that test, with `TONESHAPER_CHILD_TEST` naming it so that it runs there and is skipped
/// everywhere else. For a measurement no other test may disturb (resident memory) and for a
/// program that must stop (a failed precondition).
///
/// Swift Testing's exit tests do the same, but on Linux an exit test was seen to hang for
/// good, its child a zombie never waited for, while other tests started processes of their
/// own; Foundation's `Process`, which the JACK tests use throughout, has not.
public enum ChildTest {
    public static let variable = "TONESHAPER_CHILD_TEST"
    /// Why the test is skipped in every other process (a `Comment` for `.enabled(if:_:)`;
    /// this target is built outside the tests too, where Testing is not available).
    public static let skipReason = "runs only in a process of its own, started by the test that needs it"

    /// Whether this process was started to run the test `name`.
    public static func isRunning(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[variable] == name
    }

    public struct Result {
        public var status: Int32
        public var exitedNormally: Bool
        public var output: String
    }

    /// Runs the test `name` (a function of this bundle) in a child process and waits for
    /// it, at most `timeout` seconds (then kills it: a hang is a failure, not a wait).
    public static func run(_ name: String, timeout: Double = 300) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", name]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: name]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read on a thread of its own, so a full pipe never blocks the child.
        let collected = CollectedOutput()
        let reader = Thread {
            collected.append(output.fileHandleForReading.readDataToEndOfFile())
        }
        reader.start()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? output.fileHandleForWriting.close()
        while !collected.done && Date() < deadline.addingTimeInterval(5) { usleep(10_000) }
        return Result(
            status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
            output: collected.text)
    }
}

/// What the child wrote, filled by the reader thread.
private final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false

    func append(_ chunk: Data) {
        lock.withLock {
            data.append(chunk)
            finished = true
        }
    }

    var done: Bool { lock.withLock { finished } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
