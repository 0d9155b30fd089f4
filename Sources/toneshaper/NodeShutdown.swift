import Dispatch
import Foundation
import ToneShaperJack

/// Closing the node on SIGINT or SIGTERM, within a bound. While connected, a clean close
/// (deactivate, close the client) takes a few milliseconds and is waited for. While the
/// server is away there is nothing in the graph to tidy, but the control thread may be in
/// the middle of a reconnection attempt or a timed-out close: the process then waits at
/// most `awayBound` for it and exits anyway (the bound is 100 ms).
enum NodeShutdown {
    static let awayBound = 0.05

    static func stop(_ node: JackNode) {
        if node.isConnected {
            node.stop()
            return
        }
        let done = DispatchSemaphore(value: 0)
        let handOff = NodeHandOff(node: node)
        Thread.detachNewThread {
            handOff.node.stop()
            done.signal()
        }
        _ = done.wait(timeout: .now() + awayBound)
    }
}

private struct NodeHandOff: @unchecked Sendable {
    let node: JackNode
}
