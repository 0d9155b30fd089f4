import Foundation
import Synchronization
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Finding and running the command-line tools the JACK tests drive (jackd, jack_lsp,
/// jack_capture) and the `toneshaper` binary under test.
enum ExternalTools {
    /// The full path of `name` (``TestTools/path(of:)``, the one lookup of every suite).
    static func path(of name: String) -> String? { TestTools.path(of: name) }

    /// The `toneshaper` executable built next to this test bundle.
    static var toneshaperBinary: String { TestTools.builtProduct("toneshaper") }

    /// Runs a tool to completion (killed after `timeout` seconds) and returns its exit status
    /// and standard output.
    @discardableResult
    static func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: Double = 10
    ) throws -> (status: Int32, output: String) {
        let result = try ToolResult.run(path(of: tool) ?? tool, arguments, environment: environment, timeout: timeout)
        return (result.status, result.stdout)
    }
}

/// Collects what a child process writes to a pipe, on a thread of its own, so the child
/// never blocks on a full pipe and the test can look at the text at any time.
final class OutputCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    func start() {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.withLock { $0.append(chunk) }
            }
            done.signal()
        }
    }

    /// Waits (briefly) for the writer's end to close and everything to be read.
    func finish(timeout: Double = 2) {
        try? pipe.fileHandleForWriting.close()
        _ = done.wait(timeout: .now() + timeout)
    }

    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

func monotonicSeconds() -> Double { TestTools.monotonicSeconds() }

func wallClockSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Polls `condition` every 10 ms until it holds (true) or `timeout` seconds pass (false).
func eventually(timeout: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = monotonicSeconds() + timeout
    while true {
        if try condition() { return true }
        if monotonicSeconds() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
}
