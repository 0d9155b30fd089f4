import ToneShaperAudio
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// The audio-thread half of a plugin: the node's own renderer (engine, voices, MIDI
/// performance, the command schedule), fed by the plugin's control ports and by the
/// plans its builder makes on another thread. Everything is allocated when it is made;
/// its methods allocate nothing, take no lock and never wait: proved in release builds,
/// `control` and `render` where a format's shell calls them with its request sink (the
/// LV2 shell's run() carries the proof down through the core into these).
///
/// It keeps the node's order of things: a control port moved is a `.ramp` command for a
/// parameter that ramps, or a request for a new plan for one that does not; a plan, once
/// built, is a `.replacePlan` command, cross-faded; a plan the engine no longer reads goes
/// back to the builder to be freed there.
public struct InstrumentPlayer: ~Copyable {
    public private(set) var renderer: RealtimeRenderer
    private let commands: SPSCProducer<TimedCommand>
    private let handback: SPSCConsumer<AudioHandback>
    private let parameters: AudioParameters
    /// The value each control port had when last read (NaN: never read): a port counts as
    /// moved when it differs, so a document loaded in between is not undone by ports that
    /// merely stayed where they were.
    private var lastPort: InlineArray<32, Double>
    /// The two range values the shape has now (its ports', or a loaded document's): the
    /// engine plays ``InstrumentShape/playedRange(_:_:)`` of them.
    private var rangeEnds: (Double, Double)
    private let microsPerFrame: Double

    /// Commands and reports in flight between the player and its renderer (it is both
    /// ends' only user, on one thread, so a period's worth is plenty).
    static let channelCapacity = 256

    /// A player of `shape`, starting with `plan` (built from `shape.curve`).
    public init(shape: InstrumentShape, plan: RenderPlan) {
        parameters = shape.parameters
        let commandChannel = SPSCChannel<TimedCommand>.make(capacity: InstrumentPlayer.channelCapacity)
        let handbackChannel = SPSCChannel<AudioHandback>.make(capacity: InstrumentPlayer.channelCapacity)
        commands = commandChannel.takeProducer()
        handback = handbackChannel.takeConsumer()
        renderer = RealtimeRenderer(
            plan: plan, values: shape.playedValues, controllers: shape.controllers, rampLength: 64, commands: commandChannel.takeConsumer(),
            handback: handbackChannel.takeProducer(), parameters: shape.parameters)
        lastPort = InlineArray(repeating: .nan)
        rangeEnds = (shape.value(.minFrequency), shape.value(.maxFrequency))
        microsPerFrame = 1_000_000 / plan.sampleRate
    }

    /// The control port of the table's row `index` reads `value` this period, taken by the
    /// row's rule (``AudioParameters/Row/portValue(_:)``). Unmoved, it costs nothing; moved, a ramped parameter is sent to the renderer (and `request`ed
    /// of the builder, whose copy of the shape follows), any other is `request`ed of the
    /// builder, which makes a new plan. NaN and infinities are ignored.
    public mutating func control(row index: Int, _ value: Double, request: (InstrumentRequest) -> Void) {
        guard index >= 0 && index < parameters.count, value.isFinite else { return }
        let row = parameters[index]
        let taken = row.portValue(value)
        guard taken != lastPort[index] else { return }
        lastPort[index] = taken
        switch row.id {
        case .minFrequency, .maxFrequency:
            if row.id == .minFrequency { rangeEnds.0 = taken } else { rangeEnds.1 = taken }
            pushRange()
        default:
            if row.ramps { _ = commands.push(TimedCommand(.ramp(row.id, taken))) }
        }
        request(.set(row.id, taken))
    }

    /// Both ends of the range played (``InstrumentShape/playedRange(_:_:)``) to the engine.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func pushRange() {
        let played = InstrumentShape.playedRange(rangeEnds.0, rangeEnds.1)
        _ = commands.push(TimedCommand(.ramp(.minFrequency, played.low)))
        _ = commands.push(TimedCommand(.ramp(.maxFrequency, played.high)))
    }

    /// What the builder answered.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func take(_ response: InstrumentResponse) {
        switch response {
        case .plan(let plan):
            _ = commands.push(TimedCommand(.replacePlan(plan)))
        case .shape(let plan, let values):
            for i in 0..<parameters.count where parameters[i].ramps {
                switch parameters[i].id {
                case .minFrequency: rangeEnds.0 = values[i]
                case .maxFrequency: rangeEnds.1 = values[i]
                default: _ = commands.push(TimedCommand(.ramp(parameters[i].id, values[i])))
                }
            }
            pushRange()
            _ = commands.push(TimedCommand(.replacePlan(plan)))
        }
    }

    /// Ends the notes of `key` on `channel` (nil: any) now: let go, or choked
    /// (``RealtimeRenderer/endNotes(key:channel:choke:)``).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func endNotes(key: UInt8?, channel: UInt8?, choke: Bool) {
        renderer.endNotes(key: key, channel: channel, choke: choke)
    }

    /// Renders `frames` samples into `out`, applying `midi` (sorted by frame) at its
    /// frames and following the host's `transport` when the transport setting is on (nil:
    /// the host has none); then passes on what the renderer handed back: plans to free, and
    /// the changes MIDI made that the builder must know of or act on.
    public mutating func render(
        into out: UnsafeMutablePointer<Float>, frames: Int, midi: UnsafeBufferPointer<MIDIEvent>, transport: TransportState? = nil,
        request: (InstrumentRequest) -> Void
    ) {
        // A plugin has no wall clock for time-tagged commands: it sends none.
        let clock = PeriodClock(startMicros: 0, microsPerFrame: microsPerFrame)
        renderer.renderPeriod(into: out, frames: frames, clock: clock, midi: midi, transport: transport)
        while let item = handback.pop() {
            switch item {
            case .retiredPlan(let id): request(.release(storageID: id))
            case .change(.parameter(let id, let value)): request(.set(id, value))
            case .request(.controller(let id, let value)): request(.controller(id, value))
            case .request(.learned(let controller, let id)): request(.learned(controller: controller, id))
            case .request(.duration(let seconds)): request(.set(.duration, seconds))
            case .request(.program(let program)): request(.program(program))
            case .change(.playing), .scheduledFinished: break
            }
        }
    }
}
