import Dispatch
import Synchronization
import ToneShaperModel
import ToneShaperParameters

/// What the node's state is: the shape and whether it plays. `revision` grows with every
/// change that lands, whoever made it.
public struct ControlState: Sendable, Equatable {
    public var shape: ToneShape
    public var playing: Bool
    public var revision: UInt64
}

/// One part of the state, as observers are told it changed.
public enum StateKey: Hashable, Sendable {
    case parameter(ParameterID)
    case points
    case playing
    /// The MIDI controller map.
    case midiMap
    /// The name, the description, the tuning or the keys this project does not know.
    case document
}

/// A change an observer is told of: the state as it is now, and what changed since the
/// observer was last told (several changes in between arrive as one).
public struct StateUpdate: Sendable {
    public var state: ControlState
    public var changed: Set<StateKey>
}

/// Publishes every change that lands to any number of observers, on the control side only
/// (never the audio thread). Each observer gets its updates in order on its own serial
/// queue; changes that arrive while it is still busy are coalesced into one update, so a
/// slow observer (a network client) never holds up the controller or other observers.
public final class StateFeed: Sendable {
    private let observers = Mutex<[Int: Observer]>([:])
    private let nextID = Atomic<Int>(1)
    /// Where the state comes from at delivery time (set once by the controller).
    private let source = Mutex<(@Sendable () -> ControlState?)?>(nil)

    init() {}

    func connect(_ current: @escaping @Sendable () -> ControlState?) { source.withLock { $0 = current } }

    private func current() -> ControlState? { source.withLock { $0 }?() }

    /// Calls `handler` with every change from now on, until the subscription is cancelled
    /// (or released). Handlers run on `queue` (default: a serial queue of their own).
    public func subscribe(on queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (StateUpdate) -> Void) -> StateSubscription {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let observer = Observer(
            queue: queue ?? DispatchQueue(label: "toneshaper.state-observer.\(id)"), handler: handler,
            current: { [weak self] in self?.current() })
        observers.withLock { $0[id] = observer }
        return StateSubscription { [weak self] in self?.observers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    public var observerCount: Int { observers.withLock { $0.count } }

    func publish(_ changed: Set<StateKey>) {
        guard !changed.isEmpty else { return }
        for observer in observers.withLock({ Array($0.values) }) { observer.tell(changed) }
    }

    private final class Observer: Sendable {
        let queue: DispatchQueue
        let handler: @Sendable (StateUpdate) -> Void
        let current: @Sendable () -> ControlState?
        /// Keys changed since the last delivery, and whether a delivery is on its way.
        let pending = Mutex<(keys: Set<StateKey>, scheduled: Bool)>(([], false))

        init(queue: DispatchQueue, handler: @escaping @Sendable (StateUpdate) -> Void, current: @escaping @Sendable () -> ControlState?) {
            self.queue = queue
            self.handler = handler
            self.current = current
        }

        func tell(_ changed: Set<StateKey>) {
            let schedule = pending.withLock { p in
                p.keys.formUnion(changed)
                defer { p.scheduled = true }
                return !p.scheduled
            }
            if schedule { queue.async { self.deliver() } }
        }

        private func deliver() {
            let keys = pending.withLock { p in
                defer { p = ([], false) }
                return p.keys
            }
            guard let state = current() else { return }
            handler(StateUpdate(state: state, changed: keys))
        }
    }
}

/// Keeps an observer subscribed while it lives; `cancel()` (or releasing it) ends it.
public final class StateSubscription: Sendable {
    private let end: Mutex<(@Sendable () -> Void)?>
    init(end: @escaping @Sendable () -> Void) { self.end = Mutex(end) }
    public func cancel() {
        end.withLock { f in
            f?()
            f = nil
        }
    }
    deinit { cancel() }
}

extension ControlState {
    /// The parts of the state that differ between two states.
    static func changes(from a: ControlState, to b: ControlState) -> Set<StateKey> {
        var keys: Set<StateKey> = []
        for spec in ParameterTable.all where spec.value(in: a.shape) != spec.value(in: b.shape) {
            keys.insert(.parameter(spec.id))
        }
        if a.shape.points != b.shape.points { keys.insert(.points) }
        if a.playing != b.playing { keys.insert(.playing) }
        if a.shape.midiMap != b.shape.midiMap { keys.insert(.midiMap) }
        if a.shape.name != b.shape.name || a.shape.description != b.shape.description || a.shape.extraKeys != b.shape.extraKeys
            || a.shape.tuning != b.shape.tuning
        {
            keys.insert(.document)
        }
        return keys
    }
}
