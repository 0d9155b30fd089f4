import Synchronization

/// A bounded single-producer, single-consumer queue of plain values, lock-free and
/// wait-free on both sides: the way commands reach the audio thread and retired plans and
/// audio-side changes come back from it (in the manner of SuperCollider's server FIFOs).
///
/// The element type is `BitwiseCopyable`, so neither side ever retains, releases or frees
/// anything by moving a value; and the two ends are separate `~Copyable` handles, so the
/// compiler sees to it that exactly one owner pushes and exactly one pops.
public final class SPSCChannel<Element: BitwiseCopyable>: Sendable {
    // Inlinable, so that the audio thread gets code specialised for its element type
    // rather than generic code reached through type metadata.
    @usableFromInline nonisolated(unsafe) let storage: UnsafeMutablePointer<Element>
    public let capacity: Int
    @usableFromInline let head = Atomic<Int>(0)  // next slot to read; written by the consumer
    @usableFromInline let tail = Atomic<Int>(0)  // next slot to write; written by the producer
    /// False once the consumer's handle is gone: nobody will ever pop again.
    let consumerAlive = Atomic<Bool>(true)
    /// False once the producer's handle is gone: nothing more will arrive.
    let producerAlive = Atomic<Bool>(true)

    private init(capacity: Int) {
        precondition(capacity >= 2)
        self.capacity = capacity
        storage = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    private let producerTaken = Atomic<Bool>(false)
    private let consumerTaken = Atomic<Bool>(false)

    /// A new channel. Allocates: never on the audio thread. Take each end once.
    public static func make(capacity: Int) -> SPSCChannel { SPSCChannel(capacity: capacity) }

    /// The pushing end; a second call traps (there is one producer).
    public func takeProducer() -> SPSCProducer<Element> {
        precondition(!producerTaken.exchange(true, ordering: .relaxed), "an SPSC channel has one producer")
        return SPSCProducer(self)
    }

    /// The popping end; a second call traps (there is one consumer).
    public func takeConsumer() -> SPSCConsumer<Element> {
        precondition(!consumerTaken.exchange(true, ordering: .relaxed), "an SPSC channel has one consumer")
        return SPSCConsumer(self)
    }

    /// A snapshot of how many values wait (either side may ask).
    @inlinable
    public var count: Int {
        let t = tail.load(ordering: .acquiring)
        let h = head.load(ordering: .acquiring)
        return (t - h + capacity) % capacity
    }
}

/// The pushing end of an `SPSCChannel`.
public struct SPSCProducer<Element: BitwiseCopyable>: ~Copyable, Sendable {
    @usableFromInline let channel: SPSCChannel<Element>

    init(_ channel: SPSCChannel<Element>) { self.channel = channel }

    deinit { channel.producerAlive.store(false, ordering: .releasing) }

    /// False when full: the value was not queued.
    @inlinable @discardableResult
    public func push(_ value: Element) -> Bool {
        let t = channel.tail.load(ordering: .relaxed)
        let next = (t + 1) % channel.capacity
        if next == channel.head.load(ordering: .acquiring) { return false }
        (channel.storage + t).initialize(to: value)
        channel.tail.store(next, ordering: .releasing)
        return true
    }

    @inlinable public var count: Int { channel.count }
    /// Values that can still be pushed before the channel is full.
    @inlinable public var space: Int { channel.capacity - 1 - channel.count }
    /// False once the consuming end is gone: pushing would only fill the channel.
    public var consumerIsAlive: Bool { channel.consumerAlive.load(ordering: .acquiring) }
}

/// The popping end of an `SPSCChannel`.
public struct SPSCConsumer<Element: BitwiseCopyable>: ~Copyable, Sendable {
    @usableFromInline let channel: SPSCChannel<Element>

    init(_ channel: SPSCChannel<Element>) { self.channel = channel }

    deinit { channel.consumerAlive.store(false, ordering: .releasing) }

    /// The oldest value without removing it.
    @inlinable
    public func peek() -> Element? {
        let h = channel.head.load(ordering: .relaxed)
        if h == channel.tail.load(ordering: .acquiring) { return nil }
        return channel.storage[h]
    }

    /// Removes and returns the oldest value.
    @inlinable
    public func pop() -> Element? {
        let h = channel.head.load(ordering: .relaxed)
        if h == channel.tail.load(ordering: .acquiring) { return nil }
        let value = channel.storage[h]
        channel.head.store((h + 1) % channel.capacity, ordering: .releasing)
        return value
    }

    @inlinable public var count: Int { channel.count }
    /// False once the producing end is gone and nothing waits: the channel is finished.
    public var isFinished: Bool { !channel.producerAlive.load(ordering: .acquiring) && channel.count == 0 }
}
