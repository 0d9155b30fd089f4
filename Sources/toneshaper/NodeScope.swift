import Dispatch
import ToneShaperJack
import ToneShaperWeb

extension ScopeFeed {
    /// The page's scope listens to the node's output through a JACK client of its own,
    /// opened while a page watches. `node` is asked each time: under a session manager the
    /// node playing changes when the session switches.
    static func listening(server: String?, to node: @escaping @Sendable () -> JackNode?) -> ScopeFeed {
        ScopeFeed {
            guard let node = node(),
                let tap = try? ScopeTap(
                    serverName: server, clientName: node.clientName + "-scope",
                    sources: node.portNames.prefix(1).map { $0 })
            else { return nil }
            // Closed off the caller's thread: closing a client whose server has gone can
            // block, and the caller is a web session.
            return (read: { tap.latest($0) }, sampleRate: tap.sampleRate, close: { DispatchQueue.global().async { tap.close() } })
        }
    }
}
