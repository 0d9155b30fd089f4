import ToneShaperCore

/// Commands waiting for their sample, sorted by due time, in a fixed number of slots
/// allocated up front, so that holding a future-dated command never allocates on the
/// audio thread. Equal due times keep their arrival order (insertion is stable), so a
/// batch the controller sent together applies in the order it was sent.
struct PendingCommands {
    static let capacity = 64

    struct Entry {
        /// Wall-clock microseconds since 1970 at which the command should sound.
        var dueMicros: Double
        var command: EngineCommand
    }

    private let slots: UnsafeMutablePointer<Entry>
    private(set) var count = 0

    /// Allocates the slots: call off the audio thread.
    init() {
        slots = UnsafeMutablePointer<Entry>.allocate(capacity: PendingCommands.capacity)
        // EngineCommand is plain data, so filler entries make later stores plain copies.
        slots.initialize(repeating: Entry(dueMicros: 0, command: .play), count: PendingCommands.capacity)
    }

    func deallocate() {
        slots.deinitialize(count: PendingCommands.capacity)
        slots.deallocate()
    }

    var isFull: Bool { count == PendingCommands.capacity }
    var first: Entry? { count > 0 ? slots[0] : nil }

    /// Inserts after every entry due at or before `entry`. False (nothing stored) when full.
    @discardableResult
    mutating func insert(_ entry: Entry) -> Bool {
        guard count < PendingCommands.capacity else { return false }
        var i = count
        while i > 0 && slots[i - 1].dueMicros > entry.dueMicros {
            slots[i] = slots[i - 1]
            i -= 1
        }
        slots[i] = entry
        count += 1
        return true
    }

    mutating func removeFirst() {
        guard count > 0 else { return }
        var i = 1
        while i < count {
            slots[i - 1] = slots[i]
            i += 1
        }
        count -= 1
    }
}
