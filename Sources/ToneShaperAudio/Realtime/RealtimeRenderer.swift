import ToneShaperDSP
import ToneShaperParameters

/// The audio-thread half of the node, without JACK: one period at a time it takes the
/// controller's commands, applies each at its frame (SPEC 8, 12), renders, and hands back
/// retired plans, finished schedule entries and the changes it made itself. The JACK
/// process callback calls it with the port's buffer; tests with their own buffers and clocks.
///
/// It owns its engine and the audio ends of its channels (`~Copyable`: one owner, one
/// thread). Made by `EngineController.makeRenderer`; when it is destroyed (off the audio
/// thread) it hands every plan it still holds back, so the controller can free them.
///
/// Plans cannot be lost on the way back. The controller sends a renderer a new plan only
/// while fewer than `PlanKeeper.maximumLive` are live, so a renderer never holds
/// more than that many (`heldPlans` counts them and checks it); the channel back keeps that
/// many slots for plans (`AudioReport` leaves them free), so handing one back always finds
/// room; and every push of a plan checks that it did. A broken bound stops the program where
/// it broke rather than leaking a plan's memory silently.
public struct RealtimeRenderer: ~Copyable {
    /// Slots of the channel back that only plans may take: one for every plan a renderer
    /// can hold.
    static let handbackSlotsForPlans = PlanKeeper.maximumLive

    public internal(set) var engine: ToneEngine
    /// The parameter table as the audio side reads it.
    let parameters: AudioParameters
    private var schedule = CommandSchedule()
    private let commands: SPSCConsumer<TimedCommand>
    private let handback: SPSCProducer<AudioHandback>
    /// Plans this renderer has taken and not handed back: the engine's (playing, fading
    /// out, retired) and those in the schedule. At most `PlanKeeper.maximumLive`.
    private var heldPlans = 1
    /// Frames rendered since this renderer's first period: the schedule's clock.
    public private(set) var frame: Int64 = 0
    /// Commands taken off the channel so far (a host's probe tells from it that a period
    /// took commands, however late in the period they arrived).
    public private(set) var commandsTaken = 0
    /// What the audio side changed itself and has not yet reported (a full channel defers it).
    var report: AudioReport
    /// MIDI: notes, controllers, instrument mode's voices.
    public internal(set) var performer: MIDIPerformer
    /// JACK transport: the output's gain (0 while stopped), and what the last period saw.
    var transportGain = Ramp(1)
    var transportWasRolling = false
    /// Where the transport should be next period if it just rolls on, and whether a jump
    /// from there is being faded over.
    var expectedTransportFrame = 0
    var relocating = false
    /// The duration last asked of the control side for the transport's tempo (0: none).
    var requestedDuration = 0.0
    /// An MTS-ESP master's tuning, when its library is there: read every period.
    let mtsESP = MTSESPClient()

    public init(
        engine: consuming ToneEngine, performer: consuming MIDIPerformer, commands: consuming SPSCConsumer<TimedCommand>,
        handback: consuming SPSCProducer<AudioHandback>, parameters: AudioParameters
    ) {
        precondition(
            handback.space > RealtimeRenderer.handbackSlotsForPlans,
            "the channel back must hold the plans a renderer may hold, and more")
        self.engine = engine
        self.parameters = parameters
        report = AudioReport(parameters: parameters)
        self.performer = performer
        self.performer.keyTuning = self.engine.plan.tuning
        if self.performer.settings.transport { transportGain = Ramp(0) }
        self.commands = commands
        self.handback = handback
    }

    deinit {
        // Every plan this side still holds goes back, so none is lost with it: the one
        // playing, one fading out, retired ones not yet reported, those in the schedule and
        // any still in the channel of commands. All of them are live plans of this
        // renderer's, so the slots kept for plans have room for each (checked).
        RealtimeRenderer.handBack(plan: engine.plan.storageID, into: handback)
        engine.forEachHeldPlan { RealtimeRenderer.handBack(plan: $0, into: handback) }
        schedule.forEachEntry { entry in
            if case .replacePlan(let plan) = entry.command { RealtimeRenderer.handBack(plan: plan.storageID, into: handback) }
        }
        while let queued = commands.pop() {
            if case .replacePlan(let plan) = queued.command { RealtimeRenderer.handBack(plan: plan.storageID, into: handback) }
        }
    }

    /// Queues a plan's storage id on the channel back, which always has room for it (the
    /// slots kept for plans); a push that failed would lose the plan's memory for good.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private static func handBack(plan storageID: Int, into handback: borrowing SPSCProducer<AudioHandback>) {
        let queued = handback.push(.retiredPlan(storageID: storageID))
        precondition(queued, "a plan found no room on the channel back: more plans live than the slots kept for them")
    }

    /// Hands a plan back and counts it out of `heldPlans`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func handBack(plan storageID: Int) {
        RealtimeRenderer.handBack(plan: storageID, into: handback)
        heldPlans -= 1
    }

    /// Takes the commands waiting in the channel without applying them, for inspection
    /// (tests, diagnostics). Allocates: never on the audio thread.
    public func drainCommands() -> [TimedCommand] {
        var taken: [TimedCommand] = []
        while let command = commands.pop() { taken.append(command) }
        return taken
    }

    /// Commands held for a later period.
    public var pendingCount: Int { schedule.count }

    /// Commands the controller sent that the next period will take (a snapshot).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func queuedCommandCount() -> Int { commands.count }

    /// What this side handed back and the control side has not taken yet (a snapshot): the
    /// host wakes the control side while there is any.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func handbackCount() -> Int { handback.count }

    /// Renders one period of `frames` samples into `out`.
    ///
    /// Every command waiting in the channel moves into the schedule, keyed by its frame
    /// (this period's start for commands without a time or already past); then the
    /// commands due inside this period are applied at their exact frame, rendering up to
    /// each one. A new plan while the engine cannot take one (a cross-fade still running)
    /// waits, and so does everything after it, to keep the controller's order.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func renderPeriod(into out: UnsafeMutablePointer<Float>, frames: Int, clock: PeriodClock) {
        renderPeriod(into: out, frames: frames, clock: clock, midi: UnsafeBufferPointer(start: nil, count: 0), transport: nil)
    }

    /// MIDI events to apply at their frames inside the period, handled in frame order
    /// together with the scheduled commands; at most `maximumMIDIEvents` a period are
    /// read (the host drops the rest), which bounds the work a flood can cause.
    public static let maximumMIDIEvents = 256

    /// Renders one period, applying `midi` (sorted by frame, as JACK gives them) and
    /// following `transport` when the `transport` setting is on (nil: no transport).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func renderPeriod(
        into out: UnsafeMutablePointer<Float>, frames: Int, clock: PeriodClock,
        midi: UnsafeBufferPointer<MIDIEvent>, transport: TransportState?
    ) {
        // Continuous changes ramp across one period (SPEC 8), whatever the period is now.
        if engine.rampLength != frames { engine.rampLength = frames }
        takeQueuedCommands(clock: clock)
        if performer.sampleRate != engine.plan.sampleRate { performer.setSampleRate(engine.plan.sampleRate) }
        if mtsESP.isRegistered { apply(performer.takeExternalTuning(mtsESP.tuningTable())) }
        followTransport(transport, frames: frames)

        var position = 0
        var nextEvent = 0
        let events = min(midi.count, RealtimeRenderer.maximumMIDIEvents)
        var scheduleBlocked = false
        // Each split of the period renders every voice once more: a flood of events at
        // distinct frames would cost the kernel's per-call overhead that many times over.
        // Up to one split per 16 frames (4 in a 64-frame period) events land on their frame;
        // beyond that budget they apply where the rendering stands (a little early).
        var splitsLeft = max(4, frames / 16)
        while true {
            // The next thing due: a MIDI event or a scheduled command, the earlier first
            // (the command first at the same frame: a command sent before the period, MIDI
            // learn say, is in force for the period's events).
            var scheduledAt = Int.max
            if !scheduleBlocked, let next = schedule.first {
                let offset = next.frame - frame
                if offset < Int64(frames) { scheduledAt = offset > Int64(position) ? Int(offset) : position }
            }
            var eventAt = Int.max
            if nextEvent < events, let base = midi.baseAddress {
                eventAt = max(position, min(frames - 1, base[nextEvent].frame))
            }
            if scheduledAt == Int.max && eventAt == Int.max { break }
            if eventAt < scheduledAt, let base = midi.baseAddress {
                if eventAt > position && splitsLeft > 0 {
                    renderSegment(into: out + position, count: eventAt - position)
                    position = eventAt
                    splitsLeft -= 1
                }
                handle(base[nextEvent])
                nextEvent += 1
                continue
            }
            if scheduledAt > position {
                renderSegment(into: out + position, count: scheduledAt - position)
                position = scheduledAt
            }
            guard let next = schedule.first else { break }
            if next.command.replacesPlan && !engine.canAcceptPlan {
                scheduleBlocked = true
                continue
            }
            schedule.removeFirst()
            apply(next)
            if frame == 0 && position == 0 {
                // Before the first sample: the values are the starting point, not a change.
                engine.settleRamps()
                performer.settleRamps()
                transportGain.settle()
            }
        }
        if position < frames { renderSegment(into: out + position, count: frames - position) }
        applyTransportGain(out, frames: frames)
        frame += Int64(frames)

        // Hand back plans the engine no longer reads (the channel back keeps room for them).
        while let id = engine.takeRetiredPlan() { handBack(plan: id) }
        report.flush(into: handback)
    }

    /// A change made on the audio thread itself (a MIDI event at `offset` frames into the
    /// coming period, say): applied now, and reported back to the control side.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func applyAudioSideChange(_ change: AudioSideChange) {
        switch change {
        case .parameter(let id, let value):
            let taken = take(id, value)
            report.note(.parameter(id, taken))
        case .playing(let on):
            engine.apply(on ? .play : .stop)
            report.note(change)
        }
    }

    /// A `.ramp` parameter's new value, from the control side or the audio side's own: kept
    /// within its range (the audio side's one clamp), then to the performer or the engine.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func take(_ id: ParameterID, _ value: Double) -> Double {
        let number = parameters.clamped(id, value)
        if parameters.row(id).performer {
            setPerformance(id, number)
        } else {
            engine.apply(.ramp(id, number))
        }
        return number
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func apply(_ entry: CommandSchedule.Entry) {
        if entry.scheduled { report.scheduledFinished += 1 }
        switch entry.command {
        case .clearSchedule: dropSchedule()
        case .ramp(let id, let value): _ = take(id, value)
        case .mapController(let controller, let id): performer.map(controller: controller, to: id)
        case .learnController(let id): performer.learn(id)
        case .replacePlan:
            // `renderPeriod` applies a plan only when the engine can take it: a refused
            // plan here would be in no list that hands it back.
            let taken = engine.apply(entry.command)
            precondition(taken, "a plan was applied while the engine could not take it")
            // Notes from now on take the new plan's tuning (voices sounding keep their pitch);
            // a drone's held key moves to its pitch in it.
            let tuned = performer.keyTuning != nil || engine.plan.tuning != nil
            // A new tuning (not a new plan of the same one) drops the keys MTS retuned.
            if !KeyTuningPlan.same(performer.keyTuning, engine.plan.tuning) { performer.resetTunedKeys() }
            performer.keyTuning = engine.plan.tuning
            if tuned { engine.transpose(to: performer.engineRatio, over: performer.retuneSamples) }
        case .resetTunedKeys:
            performer.resetTunedKeys()
            apply(performer.retuneSounding())
        default: engine.apply(entry.command)
        }
    }

    /// Drops every scheduled entry, handing back the plans they carry; changes due now stay.
    private mutating func dropSchedule() {
        var dropped = 0
        var index = 0
        while index < schedule.count {
            let entry = schedule.entry(at: index)
            if entry.scheduled {
                dropped += 1
                if case .replacePlan(let plan) = entry.command { handBack(plan: plan.storageID) }
            }
            index += 1
        }
        schedule.removeScheduled()
        report.scheduledFinished += dropped
    }

    /// Moves queued commands into the schedule. The controller bounds the scheduled ones,
    /// so the schedule has room for them; a command without a time goes to the front.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func takeQueuedCommands(clock: PeriodClock) {
        while let queued = commands.peek() {
            var due = frame
            var scheduled = false
            if case .wallClock(let micros) = queued.time {
                scheduled = true
                // An offset that is not a number, or one in the past, counts as "now".
                let offset = clock.frameOffset(ofMicros: micros)
                if offset > 0 && offset < 9e15 { due = frame + Int64(offset) }
            }
            if case .clearSchedule = queued.command, !scheduled {
                dropSchedule()
                _ = commands.pop()
                commandsTaken &+= 1
                continue
            }
            // Untimed commands wait behind the schedule's due entries only if one is a
            // plan that cannot be taken yet; otherwise they are due this period.
            if !schedule.insert(CommandSchedule.Entry(frame: due, command: queued.command, scheduled: scheduled)) {
                return  // cannot happen while the controller keeps its bound; stays queued
            }
            _ = commands.pop()
            commandsTaken &+= 1
            if queued.command.replacesPlan {
                heldPlans += 1
                precondition(
                    heldPlans <= PlanKeeper.maximumLive,
                    "a renderer was sent more plans than PlanKeeper.maximumLive")
            }
        }
    }
}

/// The audio side's own changes, its requests and finished schedule entries, gathered
/// between reports: one value per parameter (the last), so a flood of MIDI events becomes
/// one report.
struct AudioReport {
    /// Where each parameter's slot is.
    private let parameters: AudioParameters
    private var values = FixedSlots<Double>(0)
    private var dirty: UInt32 = 0
    /// Controllers that moved parameters the control side must change (raw 0...127).
    private var controllers = FixedSlots<UInt8>(0)
    private var controllersDirty: UInt32 = 0
    private var playing: Bool?
    private var program: UInt8?
    private var learned: (UInt8, ParameterID)?
    private var duration: Double?
    var scheduledFinished = 0

    init(parameters: AudioParameters) {
        precondition(parameters.count <= 32, "a report has 32 slots, one per parameter")
        self.parameters = parameters
    }

    mutating func note(_ change: AudioSideChange) {
        switch change {
        case .parameter(let id, let value):
            let index = parameters.index(of: id)
            values[index] = value
            dirty |= 1 << UInt32(index)
        case .playing(let on):
            playing = on
        }
    }

    mutating func note(_ request: AudioRequest) {
        switch request {
        case .controller(let id, let value):
            let index = parameters.index(of: id)
            controllers[index] = value
            controllersDirty |= 1 << UInt32(index)
        case .program(let n): program = n
        case .learned(let controller, let id): learned = (controller, id)
        case .duration(let seconds): duration = seconds
        }
    }

    /// Sends what it can, leaving the slots kept for plans free (what does not fit waits for
    /// the next period): a report can never crowd out a plan on its way back.
    mutating func flush(into handback: borrowing SPSCProducer<AudioHandback>) {
        let keep = RealtimeRenderer.handbackSlotsForPlans
        if scheduledFinished > 0, handback.space > keep {
            handback.push(.scheduledFinished(scheduledFinished))
            scheduledFinished = 0
        }
        if let on = playing, handback.space > keep {
            handback.push(.change(.playing(on)))
            playing = nil
        }
        var index = 0
        while (dirty | controllersDirty) != 0 && index < parameters.count && handback.space > keep {
            let bit: UInt32 = 1 << UInt32(index)
            if dirty & bit != 0 {
                handback.push(.change(.parameter(parameters[index].id, values[index])))
                dirty &= ~bit
            }
            if controllersDirty & bit != 0 && handback.space > keep {
                handback.push(.request(.controller(parameters[index].id, value: controllers[index])))
                controllersDirty &= ~bit
            }
            index += 1
        }
        if let (controller, id) = learned, handback.space > keep {
            handback.push(.request(.learned(controller: controller, id)))
            learned = nil
        }
        if let n = program, handback.space > keep {
            handback.push(.request(.program(n)))
            program = nil
        }
        if let seconds = duration, handback.space > keep {
            handback.push(.request(.duration(seconds)))
            duration = nil
        }
    }
}

/// 32 values in place (no heap), indexed like an array.
struct FixedSlots<Element: BitwiseCopyable> {
    private var storage:
        (
            Element, Element, Element, Element, Element, Element, Element, Element,
            Element, Element, Element, Element, Element, Element, Element, Element,
            Element, Element, Element, Element, Element, Element, Element, Element,
            Element, Element, Element, Element, Element, Element, Element, Element
        )
    init(_ value: Element) {
        storage = (
            value, value, value, value, value, value, value, value, value, value, value, value, value, value, value, value,
            value, value, value, value, value, value, value, value, value, value, value, value, value, value, value, value
        )
    }
    subscript(index: Int) -> Element {
        get { withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index * MemoryLayout<Element>.stride, as: Element.self) } }
        set {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Element>.stride, as: Element.self) }
        }
    }
}
