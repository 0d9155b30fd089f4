import Synchronization

/// A single-producer, single-consumer queue of messages (a kind and up to
/// ``payloadCapacity`` bytes, copied in), in memory allocated when it is made: pushing and
/// popping neither allocate, lock nor wait. One thread pushes, one pops, at any one time.
public struct MessageRing {
    public static var slotSize: Int { 2048 }
    public static var payloadCapacity: Int { slotSize - 8 }

    public let slots: Int
    let storage: UnsafeMutableRawPointer
    /// [0]: the next slot to read, [1]: the next slot to write.
    let indices: UnsafeMutablePointer<Atomic<Int>>

    public init(slots: Int) {
        self.slots = slots
        storage = .allocate(byteCount: slots * MessageRing.slotSize, alignment: 16)
        indices = .allocate(capacity: 2)
        indices.initialize(to: Atomic(0))
        (indices + 1).initialize(to: Atomic(0))
    }

    public func free() {
        indices.deinitialize(count: 2)
        indices.deallocate()
        storage.deallocate()
    }

    /// Copies the message in; false when the queue is full or the payload too large.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func push(_ kind: UInt32, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count <= MessageRing.payloadCapacity else { return false }
        let write = indices[1].load(ordering: .relaxed)
        let next = write + 1 == slots ? 0 : write + 1
        guard next != indices[0].load(ordering: .acquiring) else { return false }
        let slot = storage + write * MessageRing.slotSize
        slot.storeBytes(of: UInt32(payload.count), as: UInt32.self)
        slot.storeBytes(of: kind, toByteOffset: 4, as: UInt32.self)
        if let base = payload.baseAddress, payload.count > 0 { (slot + 8).copyMemory(from: base, byteCount: payload.count) }
        indices[1].store(next, ordering: .releasing)
        return true
    }

    /// Whether no message waits (the popping side's cheap look before it pops: most blocks
    /// find nothing).
    @inline(__always)
    public var isEmpty: Bool { indices[0].load(ordering: .relaxed) == indices[1].load(ordering: .acquiring) }

    /// Hands the oldest message to `body` and frees its slot; false when there is none.
    /// (The real-time proof covers `body` too: the audio thread's.)
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func pop(_ body: (UInt32, UnsafeRawBufferPointer) -> Void) -> Bool { take(body) }

    /// ``pop(_:)`` for a thread that may allocate and wait in `body` (the work thread).
    public func take(_ body: (UInt32, UnsafeRawBufferPointer) -> Void) -> Bool {
        let read = indices[0].load(ordering: .relaxed)
        guard read != indices[1].load(ordering: .acquiring) else { return false }
        let slot = storage + read * MessageRing.slotSize
        let size = Int(slot.load(as: UInt32.self))
        body(slot.load(fromByteOffset: 4, as: UInt32.self), UnsafeRawBufferPointer(start: slot + 8, count: size))
        indices[0].store(read + 1 == slots ? 0 : read + 1, ordering: .releasing)
        return true
    }

    /// Drops every message (no thread pushes or pops meanwhile).
    public func clear() {
        indices[0].store(indices[1].load(ordering: .acquiring), ordering: .releasing)
    }
}
