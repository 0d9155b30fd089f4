import Dispatch
import Foundation
import ToneShaperJack

#if canImport(Glibc)
    import Glibc
#endif

/// Closing the node on SIGINT or SIGTERM, within a bound. While connected, a clean close
/// (deactivate, close the client) takes a few milliseconds and is waited for. While the
/// server is away there is nothing in the graph to tidy, but the control thread may be in
/// the middle of a reconnection attempt or a timed-out close: the process then waits at
/// most `awayBound` for it and exits anyway (the bound is 100 ms).
enum NodeShutdown {
    static let awayBound = 0.05

    /// False when the node's thread was left running: end the process with
    /// `exitLeavingNode()` once the rest (saving) is done.
    @discardableResult
    static func stop(_ node: JackNode) -> Bool {
        if node.isConnected {
            node.stop()
            return true
        }
        let done = DispatchSemaphore(value: 0)
        let handOff = NodeHandOff(node: node)
        Thread.detachNewThread {
            handOff.node.stop()
            done.signal()
        }
        return done.wait(timeout: .now() + awayBound) == .success
    }

    /// Exits at once, without the process's exit handlers: libjack's would wait for the
    /// thread still inside it. Everything worth keeping is written by now.
    static func exitLeavingNode() -> Never {
        _exit(0)
    }
}

private struct NodeHandOff: @unchecked Sendable {
    let node: JackNode
}
