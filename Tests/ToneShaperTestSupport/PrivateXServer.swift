import Foundation
import Synchronization

extension Process {
    /// Starts the process from a thread of its own that blocks no signal. A child inherits
    /// the signals its spawning thread blocks, and the test runner's threads block most
    /// (SIGTERM and SIGUSR1 among them): a server that does not unblock them itself (Xvfb,
    /// Qtractor) would never see the SIGTERM that stops it cleanly, and, killed instead,
    /// would leave its lock and socket files (or its session unsaved) behind.
    public func runWithNoSignalBlocked() throws {
        final class Start: @unchecked Sendable {
            let process: Process
            var failure: (any Error)?
            let done = DispatchSemaphore(value: 0)
            init(_ process: Process) { self.process = process }
        }
        let start = Start(self)
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            do { try start.process.run() } catch { start.failure = error }
            start.done.signal()
        }
        thread.start()
        start.done.wait()
        if let failure = start.failure { throw failure }
    }
}

/// A private X server (Xvfb) for a test, stopped with it. Tests that run at once each get
/// their own number, taken in turn within the process; a number whose lock file names a live
/// process is another server's and is passed over, a stale one's files (its process gone)
/// are removed first. Ready once a client gets an answer: the socket is there before the server
/// takes connections.
public final class PrivateXServer {
    private static let turns = Atomic<Int>(0)
    public private(set) var number = 0
    private var process = Process()
    public var name: String { ":\(number)" }

    /// Whether another live X server holds display `number` (its lock file names a process
    /// that is there).
    static func isHeld(_ number: Int) -> Bool {
        guard let text = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    public init(width: Int, height: Int) throws {
        for _ in 0..<40 {
            let turn = PrivateXServer.turns.add(1, ordering: .relaxed).newValue
            let candidate = 300 + (Int(getpid()) * 7 + turn * 13) % 650
            if PrivateXServer.isHeld(candidate) { continue }
            // What a server killed before it could clean up left: removed here, so that the
            // new server starts on a clean number.
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(candidate)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(candidate)")
            let xvfb = Process()
            xvfb.executableURL = URL(fileURLWithPath: TestTools.path(of: "Xvfb") ?? "/usr/bin/Xvfb")
            // -noreset: an X server resets when its last client leaves (the readiness probe,
            // say), and a client that connects meanwhile is refused.
            xvfb.arguments = [":\(candidate)", "-nolisten", "tcp", "-noreset", "-screen", "0", "\(width)x\(height)x24"]
            xvfb.standardOutput = FileHandle.nullDevice
            xvfb.standardError = FileHandle.nullDevice
            try xvfb.runWithNoSignalBlocked()
            // A server still starting is waited for (a loaded machine can take seconds to
            // run its xkbcomp); one that exited found its number taken: the next is tried.
            let deadline = Date().addingTimeInterval(60)
            while xvfb.isRunning && Date() < deadline {
                if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(candidate)") && PrivateXServer.answers(candidate) {
                    number = candidate
                    process = xvfb
                    return
                }
                usleep(50_000)
            }
            if xvfb.isRunning { kill(xvfb.processIdentifier, SIGTERM) }
            xvfb.waitUntilExit()
        }
        throw XServerError("no X display number could be had for Xvfb")
    }

    /// Whether a client on display `number` is answered: xdotool asks for the screen's size
    /// where it is installed; without it, the socket being there and a moment's wait.
    static func answers(_ number: Int) -> Bool {
        guard let xdotool = TestTools.path(of: "xdotool") else {
            usleep(200_000)
            return true
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: xdotool)
        probe.arguments = ["getdisplaygeometry"]
        probe.environment = ["DISPLAY": ":\(number)"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        let deadline = Date().addingTimeInterval(5)
        while probe.isRunning && Date() < deadline { usleep(10_000) }
        if probe.isRunning {
            kill(probe.processIdentifier, SIGKILL)
            probe.waitUntilExit()
            return false
        }
        return probe.terminationStatus == 0
    }

    deinit {
        guard number != 0, process.processIdentifier > 0 else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Killed, it could not remove its files: they would hold the number for good.
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }
        process.waitUntilExit()
    }
}

public struct XServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
