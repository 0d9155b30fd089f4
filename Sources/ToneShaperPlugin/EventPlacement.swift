/// Where a sequence's events land in a block (LV2's atom:Sequence, whose times a host gives
/// in frames or in beats): each at a frame inside the block, never before the event ahead of
/// it. An event outside the block or out of order is moved to the nearest frame allowed,
/// and said to be (the shell counts it); an event at the block's length, one past its last
/// frame, is played at the last frame, quietly: hosts write their UI's events there (jalv,
/// at every block a UI sends something), meaning "in this block, after the rest".
/// (A format whose events a host must order itself, CLAP's or VST 3's, refuses them
/// instead: ``PluginSession/inOrder(_:frames:after:)``.)
public struct EventPlacement {
    let frames: Int
    var lastFrame = 0
    /// An event in beats came while no tempo was known: it was played at the block's start.
    public private(set) var placedWithoutTempo = false

    /// For a block of `frames` frames.
    public init(frames: Int) { self.frames = frames }

    /// An event timed in frames from the block's start: its frame, and whether it was moved.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func place(frames time: Int64) -> (frame: Int, moved: Bool) {
        let frame = time < 0 ? 0 : (time > Int64(frames) ? frames : Int(time))
        return settle(frame, inBlock: frame == Int(truncatingIfNeeded: time))
    }

    /// An event timed in beats from the block's start at `framesPerBeat` (the tempo of the
    /// host's last position; 0 when none came yet: such an event plays at the block's start).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func place(beats: Double, framesPerBeat: Double) -> (frame: Int, moved: Bool) {
        // Beat 0 is the block's start at any tempo (a host's time:Position comes there).
        guard framesPerBeat > 0 || beats.bitPattern == 0 else {
            placedWithoutTempo = true
            return settle(0, inBlock: true)
        }
        // Rounded: a beat time converted from a whole frame lands on that frame again.
        let exact = (beats * framesPerBeat).rounded()
        let frame = exact >= 0 ? (exact <= Double(frames) ? Int(exact) : frames) : 0  // (NaN: 0)
        return settle(frame, inBlock: exact >= 0 && exact <= Double(frames))
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func settle(_ placed: Int, inBlock: Bool) -> (frame: Int, moved: Bool) {
        var frame = placed
        if inBlock && frame == frames { frame = max(frames - 1, 0) }
        let moved = !inBlock || frame < lastFrame
        if moved { frame = max(lastFrame, min(frame, max(frames - 1, 0))) }
        lastFrame = frame
        return (frame, moved)
    }
}
