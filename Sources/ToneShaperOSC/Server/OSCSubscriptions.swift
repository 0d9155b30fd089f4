import Dispatch
import Synchronization
import ToneShaperControl
import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#endif

/// Controllers that asked to be told of every change (`<prefix>/subscribe [port] [host]`):
/// TouchOSC, Open Stage Control or a phone app send from one port and listen on another,
/// so a change made by anyone (OSC, the command line's `send`, MIDI, a web page) is pushed
/// to each of them as the parameter's own address and value(s), `/toneshaper/amplitude 0.2`.
///
/// Pushes are coalesced: at most about 30 a second per parameter, and the last value is
/// always delivered. They go by UDP from the node's port. A subscriber whose address the
/// kernel refuses to send to (unreachable) is dropped; UDP says nothing of a peer that is
/// merely gone, so controllers subscribe again when they start (a repeated subscribe is
/// harmless) and unsubscribe when they stop.
final class OSCSubscriptions: Sendable {
    static let maximum = 32
    static let minimumInterval = 1.0 / 30

    private struct State {
        var subscribers: [String: SocketAddress] = [:]
        var pending: Set<StateKey> = []
        var flushScheduled = false
        var lastFlush = 0.0
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "toneshaper.osc-subscriptions")
    private let feed = Mutex<StateSubscription?>(nil)
    private let send: @Sendable ([UInt8], SocketAddress) -> Bool
    private let messages: @Sendable (Set<StateKey>) -> [OSCMessage]

    /// - Parameters:
    ///   - send: sends one packet to an address (by UDP; any thread).
    ///   - messages: the messages that say the current value of each changed key.
    init(
        send: @escaping @Sendable ([UInt8], SocketAddress) -> Bool,
        messages: @escaping @Sendable (Set<StateKey>) -> [OSCMessage]
    ) {
        self.send = send
        self.messages = messages
    }

    /// Starts listening to the controller's changes.
    func start(watching controller: EngineController) {
        let subscription = controller.changes.subscribe(on: queue) { [weak self] update in self?.changed(update.changed) }
        feed.withLock { $0 = subscription }
    }

    /// Stops listening, and waits for a push under way.
    func stop() {
        feed.withLock {
            $0?.cancel()
            $0 = nil
        }
        queue.sync {}
    }

    var count: Int { state.withLock { $0.subscribers.count } }

    /// Adds a subscriber; false when the table is full (and it is not in it already).
    func add(_ address: SocketAddress) -> Bool {
        state.withLock { s in
            let key = address.description
            if s.subscribers[key] == nil && s.subscribers.count >= OSCSubscriptions.maximum { return false }
            s.subscribers[key] = address
            return true
        }
    }

    /// Removes a subscriber; false if it was not subscribed.
    func remove(_ address: SocketAddress) -> Bool {
        state.withLock { $0.subscribers.removeValue(forKey: address.description) != nil }
    }

    /// Sends `packet` to one address now (the whole state, on subscribing).
    func push(_ packet: [UInt8], to address: SocketAddress) { _ = send(packet, address) }

    private func changed(_ keys: Set<StateKey>) {
        let delay: Double? = state.withLock { s in
            s.pending.formUnion(keys)
            guard !s.flushScheduled, !s.subscribers.isEmpty else {
                if s.subscribers.isEmpty { s.pending.removeAll() }
                return nil
            }
            s.flushScheduled = true
            return max(0, s.lastFlush + OSCSubscriptions.minimumInterval - OSCSubscriptions.now())
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.flush() }
    }

    private func flush() {
        let (keys, subscribers) = state.withLock { s in
            defer {
                s.pending.removeAll()
                s.flushScheduled = false
                s.lastFlush = OSCSubscriptions.now()
            }
            return (s.pending, Array(s.subscribers.values))
        }
        let packets = messages(keys).compactMap(OSCPacket.encode)
        var unreachable: [String] = []
        for subscriber in subscribers {
            for packet in packets where !send(packet, subscriber) {
                if errno == EHOSTUNREACH || errno == ENETUNREACH || errno == ECONNREFUSED || errno == EADDRNOTAVAIL {
                    unreachable.append(subscriber.description)
                }
                break
            }
        }
        if !unreachable.isEmpty {
            state.withLock { s in for key in unreachable { s.subscribers[key] = nil } }
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
