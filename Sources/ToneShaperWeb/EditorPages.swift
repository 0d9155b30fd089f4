import FlyingFox
import Synchronization
import ToneShaperJSON

/// The editor pages open now: connections that watch the state, which OSCQuery
/// controllers never do. A session manager hears from this whether the node's optional
/// GUI is shown (a page opened or the last one closed), and can hide every page at once.
public final class EditorPages: Sendable {
    private struct Registry {
        var nextID = 0
        var pages: [Int: AsyncStream<WSMessage>.Continuation] = [:]
        var observer: (@Sendable (Bool) -> Void)?
    }
    private let registry = Mutex(Registry())

    public init() {}

    /// How many editor pages are open.
    public var count: Int { registry.withLock { $0.pages.count } }

    /// Calls `observer` with true when the first page opens and false when the last one
    /// closes (on the web server's threads).
    public func observe(_ observer: @escaping @Sendable (Bool) -> Void) {
        registry.withLock { $0.observer = observer }
    }

    /// Asks every open page to hide (the page closes its window, or covers itself and
    /// closes its connection). Returns how many pages were asked.
    @discardableResult
    public func hideAll(reason: String) -> Int {
        let pages = registry.withLock { Array($0.pages.values) }
        let message = JSONValue.object(["hide": .string(reason)]).text
        for page in pages { page.yield(.text(message)) }
        return pages.count
    }

    /// A connection began watching the state: it is an editor page from now on.
    func opened(_ output: AsyncStream<WSMessage>.Continuation) -> Int {
        let (id, observer) = registry.withLock { r -> (Int, (@Sendable (Bool) -> Void)?) in
            let id = r.nextID
            r.nextID += 1
            r.pages[id] = output
            return (id, r.pages.count == 1 ? r.observer : nil)
        }
        observer?(true)
        return id
    }

    /// The page's connection ended.
    func closed(_ id: Int) {
        let observer = registry.withLock { r -> (@Sendable (Bool) -> Void)? in
            guard r.pages.removeValue(forKey: id) != nil else { return nil }
            return r.pages.isEmpty ? r.observer : nil
        }
        observer?(false)
    }
}
