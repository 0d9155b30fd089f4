import FoundationEssentials
import Synchronization
import ToneShaperAudio
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

#if canImport(Glibc)
    import Glibc
#endif

/// Where documents come from and go to, lent by the host (the files adapter): the core
/// itself does no I/O.
public protocol DocumentStore: Sendable {
    /// The document called `name` (a plain name, never a path).
    func loadDocument(named name: String) throws -> ToneShape
    /// Saves `shape` as `name`; returns where it went.
    func saveDocument(_ shape: ToneShape, named name: String) throws -> String
    /// Every document's name in the order `toneshaper presets` lists them (built-ins,
    /// then the user's shapes): MIDI program change N loads the Nth.
    func documentNames() -> [String]
}

extension DocumentStore {
    public func documentNames() -> [String] { [] }
}

/// The control side of the engine (the non-real-time half, as in SuperCollider's server),
/// and the one meaning of every command a front end sends (`perform`). It owns the tone
/// shape, checks every change against the parameter table, builds render plans, and sends
/// the audio thread plain commands through a lock-free channel. Plans the audio thread is
/// done with come back through a second channel and are freed here, never on the audio
/// thread; so do the changes the audio thread made itself, so that `state` is always what
/// plays. Every change that lands is published to `changes`.
///
/// Any thread may call it; a mutex orders the callers, which also makes it the single
/// producer the command channel needs. The audio thread touches only its renderer.
public final class EngineController: Sendable {
    /// Plans built and not yet handed back at which further plan-building changes are
    /// refused (`PlanKeeper`, which keeps the plans' memory, holds the bound).
    public static let maximumLivePlans = PlanKeeper.maximumLive
    /// Scheduled (time-tagged) commands that may wait at once; one more is refused, so the
    /// audio side's schedule can never overflow and an acknowledged change always sounds.
    public static let maximumScheduled = CommandSchedule.scheduledCapacity
    /// How far ahead a change may be scheduled, in seconds.
    public static let maximumScheduleAhead = 60.0
    static let channelCapacity = 1024

    private struct State: ~Copyable {
        var shape: ToneShape
        var sampleRate: Double
        var playing: Bool
        var revision: UInt64 = 0
        var plans = PlanKeeper()
        /// The command channel to the current renderer, if one was made.
        var commands: SPSCProducer<TimedCommand>?
        /// The channels back from every renderer not yet known to be finished.
        var inboxes: [HandbackInbox] = []
        /// Scheduled commands sent to the current renderer and not yet applied or dropped.
        var scheduled = 0
    }
    private let guarded: Mutex<State>
    private let documents: (any DocumentStore)?
    /// Wall-clock now (Unix seconds), against which due times are judged; a test may set
    /// its own, so that scheduled changes do not depend on how fast the machine runs it.
    private let clock: @Sendable () -> Double
    /// Where the controller says what went wrong that nobody asked it about: changes the
    /// audio side made that it refused (the host logs them; by default standard error).
    private let log: @Sendable (String) -> Void
    /// Every change that lands, for any number of observers.
    public let changes: StateFeed

    public init(
        shape: ToneShape, sampleRate: Double, playing: Bool = true, documents: (any DocumentStore)? = nil,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        log: @escaping @Sendable (String) -> Void = EngineController.standardErrorLog
    ) {
        guarded = Mutex(State(shape: shape, sampleRate: sampleRate, playing: playing))
        self.documents = documents
        self.clock = clock
        self.log = log
        changes = StateFeed()
        changes.connect { [weak self] in self?.state }
    }

    public var state: ControlState { guarded.withLock { ControlState(shape: $0.shape, playing: $0.playing, revision: $0.revision) } }
    public var shape: ToneShape { guarded.withLock { $0.shape } }
    public var sampleRate: Double { guarded.withLock { $0.sampleRate } }
    public var isPlaying: Bool { guarded.withLock { $0.playing } }
    /// Plans built and not yet handed back by the audio thread.
    public var livePlanCount: Int { guarded.withLock { $0.plans.liveCount } }
    /// Commands sent and not yet taken by the audio thread (a snapshot, for measurements).
    public var queuedCommandCount: Int {
        guarded.withLock { s in
            switch s.commands {
            case .some(let producer): return producer.count
            case .none: return 0
            }
        }
    }
    /// Scheduled commands waiting on the audio side.
    public var scheduledCount: Int { guarded.withLock { $0.scheduled } }

    /// True when the shape has points above Nyquist at the running rate (they are clamped).
    public var exceedsNyquist: Bool {
        guarded.withLock { s in s.shape.points.contains { $0.frequency > s.sampleRate / 2 } }
    }

    // MARK: The audio side

    /// The audio side for a new audio thread (a JACK client), playing the current shape at
    /// `sampleRate` when given (the server's: adopting it here costs no cross-fade). From
    /// now on commands go to it alone; a renderer made before keeps its own channels, so an
    /// old audio thread that is still running can never read the new one's commands.
    public func makeRenderer(rampLength: Int = 64, sampleRate: Double? = nil) -> RealtimeRenderer {
        let commands = SPSCChannel<TimedCommand>.make(capacity: EngineController.channelCapacity)
        let handback = SPSCChannel<AudioHandback>.make(capacity: EngineController.channelCapacity)
        let (plan, shape, playing) = currentPlan(sampleRate: sampleRate)
        guarded.withLock { s in
            s.commands = commands.takeProducer()
            s.inboxes.append(HandbackInbox(handback.takeConsumer()))
            s.scheduled = 0  // an earlier renderer's schedule is not this one's
        }
        return RealtimeRenderer(
            plan: plan, values: shape.playedValues, controllers: shape.midiMap, playing: playing, rampLength: rampLength,
            commands: commands.takeConsumer(), handback: handback.takeProducer(), parameters: ParameterTable.audioParameters)
    }

    /// An engine playing the current shape, for offline rendering and tests: it takes no
    /// commands. The controller keeps its plan alive as long as it lives.
    public func makeEngine(rampLength: Int = 64, sampleRate: Double? = nil) -> ToneEngine {
        let (plan, shape, playing) = currentPlan(sampleRate: sampleRate)
        return ToneEngine(plan: plan, values: shape.playedValues, playing: playing, rampLength: rampLength)
    }

    /// A plan of the current shape at `sampleRate` (adopted when given), with the shape and
    /// whether it plays.
    private func currentPlan(sampleRate: Double?) -> (RenderPlan, ToneShape, Bool) {
        guarded.withLock { s in
            if let sampleRate, sampleRate > 0 { s.sampleRate = sampleRate }
            return (EngineController.buildPlan(&s), s.shape, s.playing)
        }
    }

    /// Frees the plans the audio thread has handed back, makes room in the schedule for the
    /// commands it applied, and takes in the changes it made itself (publishing them).
    /// Call it from a control thread now and then (the node does, several times a second).
    public func collectHandback() {
        var requests: [AudioRequest] = []
        var refusals: [String] = []
        let changed: Set<StateKey> = guarded.withLock { s in
            let before = ControlState(shape: s.shape, playing: s.playing, revision: s.revision)
            let current = s.inboxes.last
            for inbox in s.inboxes {
                while let item = inbox.consumer.pop() {
                    switch item {
                    case .retiredPlan(let id):
                        let freed = s.plans.release(storageID: id)
                        assert(freed, "plan \(id) was handed back twice, or was never built")
                    case .scheduledFinished(let n): if inbox === current { s.scheduled = max(0, s.scheduled - n) }
                    case .change(.parameter(let id, let value)):
                        do throws(ControlError) {
                            s.shape = try s.shape.setting(id, to: .real(value))
                        } catch {
                            refusals.append(EngineController.resynchronise(id, refusing: value, because: error, &s, current: inbox === current))
                        }
                    case .change(.playing(let on)): s.playing = on
                    case .request(.learned(let controller, let id)): s.shape.midiMap[Int(controller)] = id
                    case .request(let request): requests.append(request)
                    }
                }
            }
            s.inboxes.removeAll { $0.consumer.isFinished && $0 !== current }
            // A root note the audio side moved (a mapped controller) moves a tuning laid out
            // from the root (a scale without a keyboard map): its table comes in a new plan.
            if before.shape.performance.rootNote != s.shape.performance.rootNote, let tuning = s.shape.tuning, tuning.mapping == nil,
                EngineController.audioIsListening(s), let plan = EngineController.issuePlan(&s)
            {
                if (try? EngineController.send([TimedCommand(.replacePlan(plan))], &s)) == nil {
                    s.plans.release(storageID: plan.storageID)
                    refusals.append("the root note moved, and the tuning laid out from it could not be sent; the next change sends it")
                }
            }
            let keys = ControlState.changes(from: before, to: ControlState(shape: s.shape, playing: s.playing, revision: s.revision))
            if !keys.isEmpty { s.revision += 1 }
            return keys
        }
        changes.publish(changed)
        for refusal in refusals { log(refusal) }
        for request in requests { performRequest(request) }
    }

    /// A change the audio side made and the shape refuses: the audio side gets the shape's
    /// value back, so that what plays is the state again. Returns what to log.
    private static func resynchronise(
        _ id: ParameterID, refusing value: Double, because error: ControlError, _ s: inout State, current: Bool
    ) -> String {
        let refused = "the audio side set \(ParameterTable.spec(id).oscPath) to \(ParameterKind.plain(value)), which was refused (\(error))"
        guard current, audioIsListening(s) else { return refused }
        let value = ParameterTable.spec(id).value(in: s.shape).real
        do throws(ControlError) {
            try send([TimedCommand(.ramp(id, value))], &s)
            return "\(refused); it plays \(ParameterKind.plain(value)) again"
        } catch {
            return "\(refused); sending it \(ParameterKind.plain(value)) back failed too (\(error))"
        }
    }

    /// The default log: a line on standard error.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        #if canImport(Glibc)
            var text = "toneshaper: \(line)\n"
            text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        #endif
    }

    /// What MIDI asked of the control side (see `AudioRequest`). A refused controller, a
    /// program whose document does not load or is refused, and a refused duration are
    /// logged and leave the shape as it is (the audio side changed nothing for them).
    private func performRequest(_ request: AudioRequest) {
        switch request {
        case .controller(let id, let value):
            guard let v = MIDIControllerMap.value(of: id, controllerValue: Int(value), shape: shape) else { return }
            do throws(ControlError) {
                try perform(.set(id, v))
            } catch {
                log("MIDI controller value \(value) for \(ParameterTable.spec(id).oscPath) was refused (\(error))")
            }
        case .program(let n):
            // A program is a sound: the player's MIDI setup (mode, voices, root, bend,
            // controller map, transport) stays as it is. A program beyond the documents
            // there are is nothing to play (a keyboard's program buttons go further).
            guard let documents, case let names = documents.documentNames(), Int(n) < names.count else { return }
            var loaded: ToneShape
            do {
                loaded = try documents.loadDocument(named: names[Int(n)])
            } catch {
                log("MIDI program \(n): \(names[Int(n)]) did not load, the sound is unchanged (\(error))")
                return
            }
            let current = shape
            loaded.performance = current.performance
            loaded.midiMap = current.midiMap
            do throws(ControlError) {
                _ = try change(.now) { _ in loaded }
            } catch {
                log("MIDI program \(n): \(names[Int(n)]) was refused, the sound is unchanged (\(error))")
            }
        case .duration(let seconds):
            do throws(ControlError) {
                try perform(.set(.duration, .real(seconds)))
            } catch {
                log("the transport's tempo asked for a cycle of \(seconds) s, which was refused (\(error))")
            }
        case .learned:
            break  // taken in `collectHandback`
        }
    }

    /// The server's sample rate changed: the same shape, rebuilt for the new rate.
    /// False when the change could not be queued (the channel is full or too many plans are
    /// waiting): nothing changed, and the caller should try again shortly.
    @discardableResult
    public func setSampleRate(_ rate: Double) -> Bool {
        guarded.withLock { s in
            guard rate > 0, rate != s.sampleRate else { return true }
            guard s.plans.hasRoom else { return false }
            let previous = s.sampleRate
            s.sampleRate = rate
            guard EngineController.audioIsListening(s) else { return true }
            guard let plan = EngineController.issuePlan(&s) else {
                s.sampleRate = previous
                return false
            }
            if (try? EngineController.send([TimedCommand(.replacePlan(plan))], &s)) == nil {
                s.plans.release(storageID: plan.storageID)
                s.sampleRate = previous
                return false
            }
            return true
        }
    }

    // MARK: Commands

    /// Performs a front end's command: checks it, changes the shape, and sends the audio
    /// thread what the change needs, at `due` (Unix seconds; nil or past: at once). Nothing
    /// changes when it is refused.
    @discardableResult
    public func perform(
        _ command: ControlCommand, due: Double? = nil,
        now: Double? = nil
    ) throws(ControlError) -> ControlReceipt {
        let time = try EngineController.commandTime(due: due, now: now ?? clock())
        switch command {
        case .set(let values):
            return try change(time) { shape throws(ControlError) in try shape.setting(values) }
        case .setFrequencyRange(let lo, let hi):
            return try change(time) { shape throws(ControlError) in
                guard let min = lo.numeric, let max = hi.numeric else {
                    throw ControlError(.command(.frequencyRange), "expects two numbers in Hz, got \"\(lo)\" and \"\(hi)\"")
                }
                return try shape.settingFrequencyRange(min: min, max: max)
            }
        case .setEcho(let offset, let volume):
            return try change(time) { shape throws(ControlError) in try shape.settingEcho(offset: offset, volume: volume) }
        case .setAmplitudeDecibels(let value):
            guard let db = value.numeric, db.isFinite else {
                throw ControlError(.command(.amplitudeDecibels), "expects a finite level in dBFS, got \"\(value)\"")
            }
            guard db <= 0 else {
                throw ControlError(.command(.amplitudeDecibels), "\(ParameterKind.plain(db)) dBFS is above full scale; use 0 or below")
            }
            return try change(time) { shape throws(ControlError) in try shape.setting(.amplitude, to: .real(pow(10, db / 20))) }
        case .setPoints(let flat, let curvatures):
            return try change(time) { shape throws(ControlError) in
                let curve = try shape.settingPoints(flat)
                return try curvatures.map { c throws(ControlError) in try curve.settingCurvatures(c) } ?? curve
            }
        case .load(let name):
            guard let documents else { throw ControlError(.command(.load), "loading documents is not available here") }
            let loaded: ToneShape
            do { loaded = try documents.loadDocument(named: name) } catch {
                throw ControlError(.command(.load), "\(error)")
            }
            return try change(time) { _ in loaded }
        case .save(let name):
            guard let documents else { throw ControlError(.command(.save), "saving documents is not available here") }
            do { _ = try documents.saveDocument(shape, named: name) } catch {
                throw ControlError(.command(.save), "\(error)")
            }
            return ControlReceipt()
        case .play, .stop:
            let on: Bool
            if case .play = command { on = true } else { on = false }
            let changed: Bool = try guarded.withLock { s throws(ControlError) in
                if EngineController.audioIsListening(s) {
                    try EngineController.send([TimedCommand(on ? .play : .stop, time: time)], &s)
                }
                guard s.playing != on else { return false }
                s.playing = on
                s.revision += 1
                return true
            }
            if changed { changes.publish([.playing]) }
            return ControlReceipt()
        case .clearSchedule:
            try guarded.withLock { s throws(ControlError) in
                if EngineController.audioIsListening(s) { try EngineController.send([TimedCommand(.clearSchedule)], &s) }
            }
            return ControlReceipt()
        case .mapController(let controller, let id):
            return try change(time) { shape throws(ControlError) in try shape.settingController(controller, to: id) }
        case .learnController(let id):
            guard MIDIControllerMap.canMap(id) else {
                throw ControlError(.command(.midiLearn), "\(ParameterTable.spec(id).oscPath) cannot be moved by a controller")
            }
            try guarded.withLock { s throws(ControlError) in
                guard EngineController.audioIsListening(s) else {
                    throw ControlError(.command(.midiLearn), "MIDI learn needs the audio side running (a JACK node)", remedy: .startAudio)
                }
                try EngineController.send([TimedCommand(.learnController(id))], &s)
            }
            return ControlReceipt()
        case .setTuningScale(let scale):
            return try change(time) { shape throws(ControlError) in
                try EngineController.tuned(shape, .tuningScale) { () throws(TuningError) in
                    try Tuning(scale: scale, keyboardMap: shape.tuning?.keyboardMapText)
                }
            }
        case .setTuningMap(let map):
            return try change(time) { shape throws(ControlError) in
                guard let scale = shape.tuning?.scaleText else {
                    throw ControlError(.command(.tuningMap), "a keyboard map maps a scale's degrees: send the scale first (tuning/scale)")
                }
                return try EngineController.tuned(shape, .tuningMap) { () throws(TuningError) in try Tuning(scale: scale, keyboardMap: map) }
            }
        case .resetTuning:
            // The keys MIDI Tuning Standard messages retuned go back too.
            return try change(time, also: [.resetTunedKeys]) { shape in
                var tuned = shape
                tuned.tuning = nil
                return tuned
            }
        }
    }

    /// `shape` with the tuning `make` reads; its refusal (naming the file and line) is the command's.
    private static func tuned(
        _ shape: ToneShape, _ command: ControlCommand.Name, _ make: () throws(TuningError) -> Tuning
    ) throws(ControlError) -> ToneShape {
        var tuned = shape
        do {
            tuned.tuning = try make()
        } catch {
            throw ControlError(.command(command), error.description)
        }
        return tuned
    }

    // The front ends' most common commands, by name.

    /// Sets one parameter of the table.
    public func set(_ id: ParameterID, to value: ParameterValue, due: Double? = nil) throws(ControlError) {
        try perform(.set(id, value), due: due)
    }

    /// Sets several parameters as one change: all of them or, if any is refused, none.
    public func set(_ values: [(ParameterID, ParameterValue)], due: Double? = nil) throws(ControlError) {
        try perform(.set(values), due: due)
    }

    public func setFrequencyRange(min lo: Double, max hi: Double, due: Double? = nil) throws(ControlError) {
        try perform(.setFrequencyRange(min: .real(lo), max: .real(hi)), due: due)
    }

    public func setPoints(_ flat: [Double], due: Double? = nil) throws(ControlError) {
        try perform(.setPoints(flat), due: due)
    }

    /// Plays another shape, cross-fading into it.
    public func load(_ shape: ToneShape, due: Double? = nil) throws(ControlError) {
        _ = try change(try EngineController.commandTime(due: due, now: clock())) { _ in shape }
    }

    public func play(due: Double? = nil) throws(ControlError) { try perform(.play, due: due) }
    public func stop(due: Double? = nil) throws(ControlError) { try perform(.stop, due: due) }

    // MARK: Internals

    /// Applies `edit` to the shape and sends the audio thread what the difference needs,
    /// as the parameter table's `change` column says: ramps for continuous values, a new
    /// plan for everything else. On any refusal the shape stays as it was.
    private func change(
        _ time: CommandTime, also: [EngineCommand] = [], _ edit: (ToneShape) throws(ControlError) -> ToneShape
    ) throws(ControlError) -> ControlReceipt {
        let (changed, receipt): (Set<StateKey>, ControlReceipt) = try guarded.withLock { s throws(ControlError) in
            let old = s.shape
            let new = try edit(old)
            let listening = EngineController.audioIsListening(s)
            let change = ShapeChange(from: old, to: new)
            var batch = change.ramps.map { TimedCommand(.ramp($0.0, $0.1), time: time) }
            batch += change.controllers.map { TimedCommand(.mapController(UInt8($0.controller), $0.parameter), time: time) }
            batch += also.map { TimedCommand($0, time: time) }
            s.shape = new
            if listening && change.needsNewPlan {
                guard let plan = EngineController.issuePlan(&s) else {
                    s.shape = old
                    throw ControlError(.engine, "the audio thread is not taking new curves right now", remedy: .startAudio)
                }
                batch.append(TimedCommand(.replacePlan(plan), time: time))
            }
            if listening {
                do throws(ControlError) {
                    try EngineController.send(batch, &s)
                } catch {
                    if case .replacePlan(let plan)? = batch.last?.command { s.plans.release(storageID: plan.storageID) }
                    s.shape = old
                    throw error
                }
            }
            let before = ControlState(shape: old, playing: s.playing, revision: s.revision)
            let keys = ControlState.changes(from: before, to: ControlState(shape: new, playing: s.playing, revision: s.revision))
            if !keys.isEmpty { s.revision += 1 }
            var receipt = ControlReceipt()
            let nyquist = s.sampleRate / 2
            // Said when this change makes the curve pass Nyquist, not on every change after.
            let oldTop = old.points.map(\.frequency).max() ?? 0
            if let top = new.points.map(\.frequency).max(), top > nyquist, top != oldTop {
                receipt.notes.append(
                    "frequencies above \(ParameterKind.plain(nyquist)) Hz (Nyquist at \(ParameterKind.plain(s.sampleRate)) Hz) are clamped; the curve reaches \(ParameterKind.plain(top)) Hz"
                )
            }
            return (keys, receipt)
        }
        changes.publish(changed)
        return receipt
    }

    private static func commandTime(due: Double?, now: Double) throws(ControlError) -> CommandTime {
        guard let due, due > now else { return .now }
        guard due.isFinite, due - now <= maximumScheduleAhead else {
            throw ControlError(.time, "\(Int((due - now).rounded())) s ahead is too far; at most \(Int(maximumScheduleAhead)) s ahead is accepted")
        }
        return .wallClock(micros: due * 1_000_000)
    }

    private static func audioIsListening(_ s: borrowing State) -> Bool {
        switch s.commands {
        case .some(let producer): return producer.consumerIsAlive
        case .none: return false
        }
    }

    /// A plan of the current shape and rate, its storage kept until the plan is handed back.
    /// Only for an engine's first plan (a new renderer's, an offline engine's); a plan sent
    /// to a running renderer comes from `issuePlan`.
    private static func buildPlan(_ s: inout State) -> RenderPlan {
        s.plans.build(s.shape.curve, sampleRate: s.sampleRate)
    }

    /// A new plan for the running renderer, or nil while `maximumLivePlans` are live: the
    /// one way a renderer gets a plan after its first, so the bound holds by construction
    /// (the renderer checks it as the plans arrive, and its channel back is sized for it).
    private static func issuePlan(_ s: inout State) -> RenderPlan? {
        s.plans.issue(s.shape.curve, sampleRate: s.sampleRate)
    }

    /// Queues a batch whole or not at all, so a full channel never applies half a change,
    /// and keeps the number of scheduled commands within the audio side's schedule.
    private static func send(_ batch: [TimedCommand], _ s: inout State) throws(ControlError) {
        let timed = batch.filter { $0.time != .now }.count
        if timed > 0 && s.scheduled + timed > maximumScheduled {
            throw ControlError(
                .time,
                "\(s.scheduled) scheduled changes are waiting already, the most the node holds is \(maximumScheduled); wait for them to sound, or clear them (schedule/clear)"
            )
        }
        let space: Int
        switch s.commands {
        case .some(let producer): space = producer.space
        case .none: space = 0
        }
        guard space >= batch.count else {
            throw ControlError(.engine, "too many changes are waiting for the audio thread", remedy: .retryShortly)
        }
        switch s.commands {
        case .some(let producer):
            for command in batch {
                let queued = producer.push(command)
                precondition(queued, "the channel had room for the batch a moment ago, and only this side pushes")
            }
        case .none: break
        }
        s.scheduled += timed
    }
}

/// The control side's end of one renderer's channel back (a class, so a list can hold it).
final class HandbackInbox: Sendable {
    let consumer: SPSCConsumer<AudioHandback>
    init(_ consumer: consuming SPSCConsumer<AudioHandback>) { self.consumer = consumer }
}
