/// The audio thread's side of the curve shared with an editor that lives in another
/// process or thread and speaks through messages (LV2's UI): the editor's points as they
/// come, handed to the work thread through `inbox`; the curve for the editor from the work
/// thread through `outbox`; the playhead about 30 times a second while an editor listens;
/// and the tuning playing (``TuningSummary``) from the work thread through `tuningOutbox`.
///
/// The audio thread never waits and never allocates here: points go into `staging` as they
/// come, then into the inbox when the work thread is not reading it, with a ``Work/take``
/// message; what cannot go in one block goes at a later one.
public struct CurveRelay {
    /// What the work thread is asked to do (the shell turns it into its own message).
    public enum Work {
        /// Take the inbox's points into the engine (``PluginEngine/takePoints(from:answer:)``).
        case take
        /// Put the curve as it plays into the outbox (``PluginEngine/sendPoints(into:)``).
        case send
    }

    public let inbox: UnsafeMutablePointer<PointsMailbox>
    public let outbox: UnsafeMutablePointer<PointsMailbox>
    public let tuningOutbox: UnsafeMutablePointer<TextMailbox>
    private let staging: UnsafeMutablePointer<Double>
    private var stagingCount = 0
    /// `staging` holds points the inbox has not taken yet.
    private var stagingFull = false
    private var takeOwed = false
    private var sendOwed = false
    private var framesSincePlayhead = 0

    public init() {
        inbox = PointsMailbox.make()
        outbox = PointsMailbox.make()
        tuningOutbox = TextMailbox.make()
        staging = .allocate(capacity: PointsMailbox.capacity)
    }

    public func free() {
        PointsMailbox.destroy(inbox)
        PointsMailbox.destroy(outbox)
        TextMailbox.destroy(tuningOutbox)
        staging.deallocate()
    }

    /// The editor's points as numbers (t0, f0, t1, f1, ...: seconds and Hz as heard, then
    /// the curvatures after a NaN, ``PluginPoints/flat(_:curvatures:)``), copied; false
    /// (nothing kept) for fewer than one point or more than the mailbox holds. The work
    /// thread checks the rest (``PluginPoints/curve(flat:duration:)``).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func receive(_ numbers: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 2, count <= PointsMailbox.capacity else { return false }
        UnsafeMutableRawPointer(staging).copyMemory(from: numbers, byteCount: count * 8)
        stagingCount = count
        stagingFull = true
        return true
    }

    /// The editor asked for the curve: it is sent now, and from now on after every
    /// document, program or state.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func request() {
        outbox.pointee.listen()
        sendOwed = true
    }

    /// At the block's end: the newest points into the inbox, and the work owed asked of
    /// `schedule` (false: the queue is full, asked again at the next block).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func forward(_ schedule: (Work) -> Bool) {
        if stagingFull, inbox.pointee.beginFill() {
            UnsafeMutableRawPointer(inbox.pointee.numbers).copyMemory(from: staging, byteCount: stagingCount * 8)
            inbox.pointee.endFill(count: stagingCount)
            stagingFull = false
            takeOwed = true
        }
        if takeOwed, schedule(.take) { takeOwed = false }
        if sendOwed, schedule(.send) { sendOwed = false }
    }

    /// Points wait for the inbox, or work is owed: ``forward(_:)`` has something to do.
    @inline(__always)
    public var owesWork: Bool { stagingFull || takeOwed || sendOwed }

    /// Whether the playhead is due this block (an editor listens and about 1/30 s passed);
    /// the shell then sends it, or, with no room, calls again at the next block.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func playheadDue(frames: Int, sampleRate: Double) -> Bool {
        framesSincePlayhead += frames
        return outbox.pointee.isListening && Double(framesSincePlayhead) * 30 >= sampleRate
    }

    /// The playhead went out.
    public mutating func playheadSent() { framesSincePlayhead = 0 }

    /// The curve the work thread left in the outbox, handed to `write` (numbers, count);
    /// kept for a later block when `write` returns false (no room).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func sendCurve(_ write: (UnsafePointer<Double>, Int) -> Bool) {
        guard outbox.pointee.beginRead() else { return }
        outbox.pointee.endRead(taken: write(UnsafePointer(outbox.pointee.numbers), outbox.pointee.count))
    }
}
