/// The audio-thread half of the node, without JACK: one period at a time it takes the
/// controller's commands, applies each at its frame (SPEC 8, 12), renders, and hands back
/// retired plans, finished schedule entries and the changes it made itself. The JACK
/// process callback calls it with the port's buffer; tests with their own buffers and clocks.
///
/// It owns its engine and the audio ends of its channels (`~Copyable`: one owner, one
/// thread). Made by `EngineController.makeRenderer`; when it is destroyed (off the audio
/// thread) it hands every plan it still holds back, so the controller can free them.
public struct RealtimeRenderer: ~Copyable {
    public private(set) var engine: ToneEngine
    private var schedule = CommandSchedule()
    private let commands: SPSCConsumer<TimedCommand>
    private let handback: SPSCProducer<AudioHandback>
    /// Frames rendered since this renderer's first period: the schedule's clock.
    public private(set) var frame: Int64 = 0
    /// What the audio side changed itself and has not yet reported (a full channel defers it).
    private var report = AudioReport()

    init(engine: consuming ToneEngine, commands: consuming SPSCConsumer<TimedCommand>,
         handback: consuming SPSCProducer<AudioHandback>) {
        self.engine = engine
        self.commands = commands
        self.handback = handback
    }

    deinit {
        // Every plan this side still holds goes back, so none is lost with it: the one
        // playing, one fading out, retired ones not yet reported, and any in commands.
        handback.push(.retiredPlan(storageID: engine.plan.storageID))
        engine.forEachHeldPlan { handback.push(.retiredPlan(storageID: $0)) }
        schedule.forEach { entry in
            if case .replacePlan(let plan) = entry.command { handback.push(.retiredPlan(storageID: plan.storageID)) }
        }
        while let queued = commands.pop() {
            if case .replacePlan(let plan) = queued.command { handback.push(.retiredPlan(storageID: plan.storageID)) }
        }
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
        // Continuous changes ramp across one period (SPEC 8), whatever the period is now.
        if engine.rampLength != frames { engine.rampLength = frames }
        takeQueuedCommands(clock: clock)

        var position = 0
        while let next = schedule.first {
            let offset = next.frame - frame
            if offset >= Int64(frames) { break }                    // a later period
            let at = offset > Int64(position) ? Int(offset) : position
            if at > position {
                engine.render(into: out + position, count: at - position)
                position = at
            }
            if next.command.replacesPlan && !engine.canAcceptPlan { break }
            schedule.removeFirst()
            apply(next)
        }
        if position < frames { engine.render(into: out + position, count: frames - position) }
        frame += Int64(frames)

        // Hand back plans the engine no longer reads; leave them in the engine (which then
        // refuses new plans for a while) rather than lose one when the channel is full.
        while handback.space > 1, let id = engine.takeRetiredPlan() {
            handback.push(.retiredPlan(storageID: id))
        }
        report.flush(into: handback)
    }

    /// A change made on the audio thread itself (a MIDI event at `offset` frames into the
    /// coming period, say): applied now, and reported back to the control side.
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public mutating func applyAudioSideChange(_ change: AudioSideChange) {
        switch change {
        case .parameter(let id, let value): engine.apply(.ramp(id, value))
        case .playing(let on): engine.apply(on ? .play : .stop)
        }
        report.note(change)
    }

    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    private mutating func apply(_ entry: CommandSchedule.Entry) {
        if entry.scheduled { report.scheduledFinished += 1 }
        if case .clearSchedule = entry.command {
            dropSchedule()
        } else {
            engine.apply(entry.command)
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
                if case .replacePlan(let plan) = entry.command {
                    // The channel has room for the (at most a few) plans the controller lets live.
                    handback.push(.retiredPlan(storageID: plan.storageID))
                }
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
                continue
            }
            // Untimed commands wait behind the schedule's due entries only if one is a
            // plan that cannot be taken yet; otherwise they are due this period.
            if !schedule.insert(CommandSchedule.Entry(frame: due, command: queued.command, scheduled: scheduled)) {
                return   // cannot happen while the controller keeps its bound; stays queued
            }
            _ = commands.pop()
        }
    }
}

/// The audio side's own changes and finished schedule entries, gathered between reports:
/// one value per parameter (the last), so a flood of MIDI events becomes one report.
struct AudioReport {
    private var values = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    private var dirty: UInt32 = 0
    private var playing: Bool?
    var scheduledFinished = 0

    mutating func note(_ change: AudioSideChange) {
        switch change {
        case .parameter(let id, let value):
            let index = AudioReport.index(of: id)
            withUnsafeMutableBytes(of: &values) { $0.storeBytes(of: value, toByteOffset: index * 8, as: Double.self) }
            dirty |= 1 << UInt32(index)
        case .playing(let on):
            playing = on
        }
    }

    mutating func flush(into handback: borrowing SPSCProducer<AudioHandback>) {
        if scheduledFinished > 0, handback.space > 1 {
            handback.push(.scheduledFinished(scheduledFinished))
            scheduledFinished = 0
        }
        if let on = playing, handback.space > 1 {
            handback.push(.change(.playing(on)))
            playing = nil
        }
        var index = 0
        while dirty != 0 && index < AudioReport.parameterCount && handback.space > 1 {
            if dirty & (1 << UInt32(index)) != 0 {
                let value = withUnsafeBytes(of: &values) { $0.load(fromByteOffset: index * 8, as: Double.self) }
                handback.push(.change(.parameter(AudioReport.id(at: index), value)))
                dirty &= ~(1 << UInt32(index))
            }
            index += 1
        }
    }

    static let parameterCount = 11

    static func id(at index: Int) -> ParameterID {
        switch index {
        case 0: return .minFrequency
        case 1: return .maxFrequency
        case 2: return .wave
        case 3: return .scale
        case 4: return .echoOffset
        case 5: return .echoVolume
        case 6: return .amplitude
        case 7: return .duration
        case 8: return .fidelity
        case 9: return .fourierTerms
        default: return .antiAlias
        }
    }

    static func index(of id: ParameterID) -> Int {
        switch id {
        case .minFrequency: return 0
        case .maxFrequency: return 1
        case .wave: return 2
        case .scale: return 3
        case .echoOffset: return 4
        case .echoVolume: return 5
        case .amplitude: return 6
        case .duration: return 7
        case .fidelity: return 8
        case .fourierTerms: return 9
        case .antiAlias: return 10
        }
    }
}
