import Synchronization

/// A bounded single-producer, single-consumer queue of plain values, lock-free and
/// wait-free on both sides: the way commands reach the audio thread and retired plans
/// come back from it (in the manner of SuperCollider's server FIFOs).
///
/// Exactly one thread may push and exactly one may pop. `T` should be trivial (no
/// references), so that neither side ever retains, releases or frees on the audio thread.
public final class SPSCQueue<T>: @unchecked Sendable {
    // Inlinable, so that the audio thread gets code specialised for its element type
    // rather than generic code reached through type metadata.
    @usableFromInline let storage: UnsafeMutablePointer<T>
    public let capacity: Int
    @usableFromInline let head = Atomic<Int>(0)   // next slot to read; written by the consumer
    @usableFromInline let tail = Atomic<Int>(0)   // next slot to write; written by the producer

    public init(capacity: Int) {
        precondition(capacity >= 2)
        self.capacity = capacity
        storage = UnsafeMutablePointer<T>.allocate(capacity: capacity)
    }

    deinit {
        while pop() != nil {}
        storage.deallocate()
    }

    /// Producer side. False when full: the value was not queued.
    @inlinable @discardableResult
    public func push(_ value: T) -> Bool {
        let t = tail.load(ordering: .relaxed)
        let next = (t + 1) % capacity
        if next == head.load(ordering: .acquiring) { return false }
        (storage + t).initialize(to: value)
        tail.store(next, ordering: .releasing)
        return true
    }

    /// Consumer side: the oldest value without removing it.
    @inlinable
    public func peek() -> T? {
        let h = head.load(ordering: .relaxed)
        if h == tail.load(ordering: .acquiring) { return nil }
        return storage[h]
    }

    /// Consumer side: removes and returns the oldest value.
    @inlinable
    public func pop() -> T? {
        let h = head.load(ordering: .relaxed)
        if h == tail.load(ordering: .acquiring) { return nil }
        let value = (storage + h).move()
        head.store((h + 1) % capacity, ordering: .releasing)
        return value
    }

    /// Either side: a snapshot of how many values wait.
    @inlinable
    public var count: Int {
        let t = tail.load(ordering: .acquiring), h = head.load(ordering: .acquiring)
        return (t - h + capacity) % capacity
    }
}
