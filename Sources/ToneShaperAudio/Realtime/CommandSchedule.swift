/// Commands waiting for their frame, sorted by it, in a fixed number of slots allocated up
/// front, so that holding a future command never allocates on the audio thread. Equal
/// frames keep their arrival order (insertion is stable), so a batch the controller sent
/// together applies in the order it was sent.
///
/// The controller never lets more than `scheduledCapacity` scheduled commands be
/// outstanding (`EngineController.maximumScheduled`), and the rest of the slots take the
/// commands due now, which leave the schedule in the period they arrive: a full schedule
/// never holds an immediate change back.
public struct CommandSchedule: ~Copyable {
    public static let scheduledCapacity = 64
    static let capacity = 2 * scheduledCapacity

    struct Entry: BitwiseCopyable {
        /// The frame (counted by the renderer from its first period) the command sounds at.
        var frame: Int64
        var command: EngineCommand
        /// True for a command sent with a time: it counts against the controller's bound.
        var scheduled: Bool
    }

    private let slots: UnsafeMutablePointer<Entry>
    private(set) var count = 0

    /// Allocates the slots: off the audio thread.
    init() {
        slots = UnsafeMutablePointer<Entry>.allocate(capacity: CommandSchedule.capacity)
    }

    deinit { slots.deallocate() }

    var isFull: Bool { count == CommandSchedule.capacity }
    var first: Entry? { count > 0 ? slots[0] : nil }

    /// Inserts after every entry due at or before `entry`. False (nothing stored) when full.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @discardableResult
    mutating func insert(_ entry: Entry) -> Bool {
        guard count < CommandSchedule.capacity else { return false }
        var i = count
        while i > 0 && slots[i - 1].frame > entry.frame {
            slots[i] = slots[i - 1]
            i -= 1
        }
        slots[i] = entry
        count += 1
        return true
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func removeFirst() {
        guard count > 0 else { return }
        var i = 1
        while i < count {
            slots[i - 1] = slots[i]
            i += 1
        }
        count -= 1
    }

    /// Removes the scheduled entries, keeping the ones due now in order.
    mutating func removeScheduled() {
        var kept = 0
        var i = 0
        while i < count {
            if !slots[i].scheduled {
                slots[kept] = slots[i]
                kept += 1
            }
            i += 1
        }
        count = kept
    }

    /// The entry at `index` (0 is the next due), for index in 0..<count.
    func entry(at index: Int) -> Entry { slots[index] }

    func forEachEntry(_ body: (Entry) -> Void) {
        for i in 0..<count { body(slots[i]) }
    }
}
