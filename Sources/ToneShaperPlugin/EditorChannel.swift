import Synchronization
import ToneShaperModel

/// What the editor window (on the main thread) and the plugin's other threads share, in
/// memory allocated with the instance; no side waits for another here:
///
/// - the window's parameter edits go to process() (or params.flush) on `edits`, a
///   ``MessageRing`` the main thread pushes and the audio side pops, which applies them as
///   the host's values and reports them to the host as output events;
/// - `counts` tells the main thread when the audio side has taken every edit pushed, so it
///   does not show a value the audio side has not reached yet as the host's;
/// - `playhead` holds where the cycle was at the last block's end (a Double's bits);
/// - the window's points reach the engine through `inbox` (``PointsMailbox``), taken on the
///   main thread as a state is, and the curve as it plays comes back through `outbox`,
///   filled off the audio thread whenever a document, program, duration or range changes it;
/// - the tuning playing reaches the window through `tuning` (``TuningNotice``).
public struct EditorChannel {
    public let edits: MessageRing
    /// [0]: edits pushed (the main thread), [1]: edits taken (the audio side).
    public let counts: UnsafeMutablePointer<Atomic<Int>>
    public let playhead: UnsafeMutablePointer<Atomic<UInt64>>
    public let inbox: UnsafeMutablePointer<PointsMailbox>
    public let outbox: UnsafeMutablePointer<PointsMailbox>
    /// The tuning playing, for the window to show (``TuningNotice``).
    public let tuning: UnsafeMutablePointer<TuningNotice>

    /// The kinds of message on `edits`.
    public enum Kind: UInt32 {
        case begin = 1
        case value = 2
        case end = 3
    }

    /// An edit's payload: the parameter's id (the table's stable number) and, for a value, the value.
    public struct Edit {
        public var id: UInt32
        public var value: Double
    }

    public static func make() -> EditorChannel {
        let counts = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
        counts.initialize(to: Atomic(0))
        (counts + 1).initialize(to: Atomic(0))
        let playhead = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: 1)
        playhead.initialize(to: Atomic(Double.nan.bitPattern))
        return EditorChannel(
            edits: MessageRing(slots: 64), counts: counts, playhead: playhead, inbox: PointsMailbox.make(), outbox: PointsMailbox.make(),
            tuning: TuningNotice.make())
    }

    public func free() {
        edits.free()
        counts.deinitialize(count: 2)
        counts.deallocate()
        playhead.deinitialize(count: 1)
        playhead.deallocate()
        PointsMailbox.destroy(inbox)
        PointsMailbox.destroy(outbox)
        TuningNotice.destroy(tuning)
    }

    /// On the main thread: one edit for the audio side; false when the queue is full.
    public func push(_ kind: Kind, id: UInt32, value: Double) -> Bool {
        var edit = Edit(id: id, value: value)
        guard withUnsafeBytes(of: &edit, { edits.push(kind.rawValue, $0) }) else { return false }
        counts[0].add(1, ordering: .releasing)
        return true
    }

    /// Whether the audio side has taken every edit pushed.
    public var settled: Bool { counts[1].load(ordering: .acquiring) == counts[0].load(ordering: .acquiring) }
}
