import Synchronization
import ToneShaperModel

/// The tuning playing, told to the editor window (main thread) by whichever thread changed
/// it (the work thread, a state's or the window's call), never the audio thread. The writer
/// and the reader take turns through a spin flag, held only to copy the tuning (its texts
/// are shared, not copied); the reader checks ``revision`` first, so it takes the flag only
/// when the tuning changed. It lives at a fixed address, as its atomics must.
public struct TuningNotice: ~Copyable {
    private let busy = Atomic<Bool>(false)
    private let changes = Atomic<Int>(0)
    private var tuning: Tuning?

    public static func make() -> UnsafeMutablePointer<TuningNotice> {
        let notice = UnsafeMutablePointer<TuningNotice>.allocate(capacity: 1)
        notice.initialize(to: TuningNotice())
        return notice
    }

    public static func destroy(_ notice: UnsafeMutablePointer<TuningNotice>) {
        notice.deinitialize(count: 1)
        notice.deallocate()
    }

    /// Counts the changes published: a reader that saw this count has seen the tuning.
    public var revision: Int { changes.load(ordering: .acquiring) }

    /// `new` is the tuning playing now; the revision moves when it differs from the last.
    public mutating func publish(_ new: Tuning?) {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        if new != tuning {
            tuning = new
            changes.add(1, ordering: .releasing)
        }
        busy.store(false, ordering: .releasing)
    }

    /// The tuning last published (nil: 12-TET).
    public mutating func read() -> Tuning? {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        let current = tuning
        busy.store(false, ordering: .releasing)
        return current
    }
}
