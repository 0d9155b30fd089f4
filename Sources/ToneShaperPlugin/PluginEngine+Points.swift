import Synchronization
import ToneShaperAudio
import ToneShaperModel
import ToneShaperParameters

/// A hand-over of one list of numbers (a curve's points, t0, f0, t1, f1, ...) between two
/// threads, one writing and one reading, without a lock on the side that must not wait: a
/// buffer of ``capacity`` numbers allocated once, and a state word. The writer fills it
/// (replacing a list not read yet), the reader takes it; each side's turn is a
/// compare-and-exchange, so a side that finds the other at work never waits for it: the
/// audio thread tries again at its next block, a worker may spin, as the audio thread's
/// turn is a bounded copy.
///
/// Used twice by a plugin with an editor window: the editor's points go from the audio
/// thread (which reads the host's events) to the worker, and the curve the plugin plays
/// goes from the worker to the audio thread (which writes the host's output events). It
/// lives at a fixed address (``make()``), as its atomic state must.
public struct PointsMailbox: ~Copyable {
    /// The most numbers it holds: ``PluginPoints/maximumSent`` points.
    public static var capacity: Int { PluginPoints.maximumSent * 2 }

    public let numbers: UnsafeMutablePointer<Double>
    /// How many numbers the last fill left (valid between `beginRead` and `endRead`).
    public private(set) var count = 0
    /// 0 empty, 1 being filled, 2 full, 3 being read.
    private let state = Atomic<UInt32>(0)
    /// Whether an editor window asked for the curve since the plugin started: only then is
    /// the curve sent to it after a document, program or state replaced it.
    private let listening = Atomic<Bool>(false)

    private init() { numbers = .allocate(capacity: PointsMailbox.capacity) }

    public static func make() -> UnsafeMutablePointer<PointsMailbox> {
        let box = UnsafeMutablePointer<PointsMailbox>.allocate(capacity: 1)
        box.initialize(to: PointsMailbox())
        return box
    }

    public static func destroy(_ box: UnsafeMutablePointer<PointsMailbox>) {
        box.pointee.numbers.deallocate()
        box.deinitialize(count: 1)
        box.deallocate()
    }

    /// The writer's turn: true when it may write `numbers` (a list not read yet is
    /// replaced); false while the reader reads.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func beginFill() -> Bool {
        state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            || state.compareExchange(expected: 2, desired: 1, ordering: .acquiring).exchanged
    }

    /// The writer wrote `count` numbers (0: nothing to read).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func endFill(count: Int) {
        self.count = min(max(count, 0), PointsMailbox.capacity)
        state.store(self.count > 0 ? 2 : 0, ordering: .releasing)
    }

    /// Off the audio thread, the writer's whole turn: `points` (at most
    /// ``PluginPoints/maximumSent`` of them) as t0, f0, t1, f1, ...; false while the reader
    /// reads (nothing written).
    /// With `curvatures` (one a segment), a curved curve of at most
    /// ``PluginPoints/maximumCurvedSent`` points carries them too (``PluginPoints/flat(_:curvatures:)``).
    public mutating func fill(with points: [CurvePoint], curvatures: [Double] = []) -> Bool {
        guard beginFill() else { return false }
        let flat = PluginPoints.flat(
            Array(points.prefix(PluginPoints.maximumSent)), curvatures: points.count <= PluginPoints.maximumSent ? curvatures : [])
        for (k, number) in flat.prefix(PointsMailbox.capacity).enumerated() { numbers[k] = number }
        endFill(count: min(flat.count, PointsMailbox.capacity))
        return true
    }

    /// The reader's turn: true when a list is there to read (`numbers`, `count`).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func beginRead() -> Bool { state.compareExchange(expected: 2, desired: 3, ordering: .acquiring).exchanged }

    /// The reader is done: `taken` empties the box; otherwise the list stays for a later try
    /// (the host's buffer had no room this time).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func endRead(taken: Bool) { state.store(taken ? 0 : 2, ordering: .releasing) }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func listen() { listening.store(true, ordering: .relaxed) }

    public var isListening: Bool { listening.load(ordering: .relaxed) }
}

extension PluginEngine {
    /// On the audio thread: where the cycle is now, 0..<1 (an editor window's playhead).
    public var cyclePosition: Double { player.pointee.renderer.engine.cyclePosition }

    /// On the work thread: the points an editor window sent (`count` numbers t0, f0, ...
    /// in `box`, taken from it here), checked as a document's points are against the
    /// cycle played; a plan of the new curve goes to the audio side. False (logged, the
    /// sound unchanged) when they are refused.
    public func takePoints(from box: UnsafeMutablePointer<PointsMailbox>, answer: some PluginAnswer) -> Bool {
        guard box.pointee.beginRead() else { return true }  // a later message took them already
        let numbers = Array(UnsafeBufferPointer(start: box.pointee.numbers, count: box.pointee.count))
        box.pointee.endRead(taken: true)
        let response: InstrumentResponse?? = BuilderSide.with(side) { side in
            let duration = side.builder.shape.value(.duration)
            let curve = numbers.withUnsafeBufferPointer { PluginPoints.curve(flat: $0, duration: duration) }
            guard let curve else { return nil }
            return .some(side.builder.setPoints(curve.points, curvatures: curve.curvatures))
        }
        guard let response else {
            host.log(
                .error,
                "the editor's points were refused (not pairs of a time within the cycle and a frequency, in time order, or not one curvature in -1...1 a segment); the sound is unchanged"
            )
            return false
        }
        if let response { respond(response, answer) }
        return true
    }

    /// Off the audio thread (the worker, or the host's state call): the curve as it plays
    /// (``InstrumentShape/playedPoints``, at most ``PluginPoints/maximumSent`` of them,
    /// ``PluginPoints/reduced(_:to:)``) into `box`, for the audio thread to send to an
    /// editor window. Waits while the audio thread is reading the box (a bounded copy).
    public func sendPoints(into box: UnsafeMutablePointer<PointsMailbox>) {
        let (points, curvatures) = BuilderSide.with(side) { side in
            let played = side.builder.shape.playedPoints
            let reduced = PluginPoints.reduced(played)
            // A curve sent as its outline goes straight: its segments are not the curve's.
            return (reduced, reduced.count == played.count ? side.builder.shape.curvatures : [])
        }
        while !box.pointee.fill(with: points, curvatures: curvatures) {}
    }
}
