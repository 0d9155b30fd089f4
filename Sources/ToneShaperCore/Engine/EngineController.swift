import Synchronization

/// A command for the audio thread with the moment it is due.
public struct TimedCommand: Sendable {
    public var command: EngineCommand
    /// Wall-clock time (seconds since 1970) at which it should sound, or nil for "at once".
    /// The host turns it into a sample position; the engine never sees clocks.
    public var due: Double?

    public init(_ command: EngineCommand, due: Double? = nil) {
        self.command = command
        self.due = due
    }
}

/// The control side of the engine (the non-real-time half, as in SuperCollider's server):
/// it owns the tone shape, checks every change against the parameter table, builds render
/// plans, and sends the audio thread plain commands through a lock-free queue. Plans the
/// audio thread is done with come back through a second queue and are freed here, never
/// on the audio thread.
///
/// Any thread may call it; a mutex orders the callers, which also makes it the single
/// producer the command queue needs. The audio thread touches only the two queues.
public final class EngineController: @unchecked Sendable {
    public let commands = SPSCQueue<TimedCommand>(capacity: 1024)
    public let retired = SPSCQueue<Int>(capacity: 256)

    private struct State {
        var shape: ToneShape
        var sampleRate: Double
        var playing: Bool
        var storages: [Int: CurveStorage] = [:]
        var nextID = 1
    }
    private let state: Mutex<State>

    public init(shape: ToneShape, sampleRate: Double, playing: Bool = true) {
        state = Mutex(State(shape: shape, sampleRate: sampleRate, playing: playing))
    }

    public var shape: ToneShape { state.withLock { $0.shape } }
    public var sampleRate: Double { state.withLock { $0.sampleRate } }
    public var isPlaying: Bool { state.withLock { $0.playing } }
    /// Plans built and not yet handed back by the audio thread.
    public var livePlanCount: Int { state.withLock { $0.storages.count } }

    /// An engine for the audio side, playing the current shape, at `sampleRate` when given
    /// (the server's: adopting it here costs no cross-fade). Call once per engine.
    public func makeEngine(rampLength: Int = 64, sampleRate: Double? = nil) -> ToneEngine {
        state.withLock { s in
            if let sampleRate, sampleRate > 0 { s.sampleRate = sampleRate }
            let plan = EngineController.buildPlan(&s)
            return ToneEngine(plan: plan, minFrequency: s.shape.minFrequency, maxFrequency: s.shape.maxFrequency,
                              amplitude: s.shape.amplitude, echoVolume: s.shape.echoVolume,
                              playing: s.playing, rampLength: rampLength)
        }
    }

    /// True when the shape has points above Nyquist at the running rate (they are clamped).
    public var exceedsNyquist: Bool {
        state.withLock { s in s.shape.points.contains { $0.frequency > s.sampleRate / 2 } }
    }

    // MARK: Changes

    /// Plans built and not yet handed back at which further plan-building changes are
    /// refused: when the audio thread stops taking changes (no JACK server, say), a flood
    /// of new curves must not pile up memory without bound.
    public static let maximumLivePlans = 8

    /// Sets one parameter of the table.
    public func set(_ id: ParameterID, to value: ParameterValue, due: Double? = nil) throws(ParameterError) {
        try change(due: due) { shape throws(ParameterError) in try shape.setting(id, to: value) }
    }

    /// Sets several parameters as one change: all of them or, if any is refused, none.
    public func set(_ values: [(ParameterID, ParameterValue)], due: Double? = nil) throws(ParameterError) {
        try change(due: due) { shape throws(ParameterError) in
            var result = shape
            for (id, value) in values { result = try result.setting(id, to: value) }
            return result
        }
    }

    public func setFrequencyRange(min lo: Double, max hi: Double, due: Double? = nil) throws(ParameterError) {
        try change(due: due) { shape throws(ParameterError) in try shape.settingFrequencyRange(min: lo, max: hi) }
    }

    public func setPoints(_ flat: [Double], due: Double? = nil) throws(ParameterError) {
        try change(due: due) { shape throws(ParameterError) in try shape.settingPoints(flat) }
    }

    /// Plays another document, cross-fading into it.
    public func load(_ shape: ToneShape, due: Double? = nil) throws(ParameterError) {
        try change(due: due) { _ in shape }
    }

    public func play(due: Double? = nil) throws(ParameterError) {
        try state.withLock { s throws(ParameterError) in
            try EngineController.send(self.commands, [TimedCommand(.play, due: due)])
            s.playing = true
        }
    }

    public func stop(due: Double? = nil) throws(ParameterError) {
        try state.withLock { s throws(ParameterError) in
            try EngineController.send(self.commands, [TimedCommand(.stop, due: due)])
            s.playing = false
        }
    }

    /// The server's sample rate changed: the same shape, rebuilt for the new rate.
    /// False when the change could not be queued (the queue is full or too many plans are
    /// waiting): nothing changed, and the caller should try again shortly.
    @discardableResult
    public func setSampleRate(_ rate: Double) -> Bool {
        state.withLock { s in
            guard rate > 0, rate != s.sampleRate else { return true }
            guard s.storages.count < EngineController.maximumLivePlans else { return false }
            let previous = s.sampleRate
            s.sampleRate = rate
            let plan = EngineController.buildPlan(&s)
            if (try? EngineController.send(commands, [TimedCommand(.replacePlan(plan))])) == nil {
                s.storages[plan.storageID] = nil
                s.sampleRate = previous
                return false
            }
            return true
        }
    }

    /// Frees the plans the audio thread has handed back. Call it from a control thread now
    /// and then (the node does so several times a second).
    public func collectRetired() {
        state.withLock { s in
            while let id = retired.pop() { s.storages[id] = nil }
        }
    }

    /// Applies `edit` to the shape and sends the audio thread what the difference needs:
    /// ramps for continuous values, a new plan for everything else. On any refusal the
    /// shape stays as it was.
    private func change(due: Double?, _ edit: (ToneShape) throws(ParameterError) -> ToneShape) throws(ParameterError) {
        try state.withLock { s throws(ParameterError) in
            let old = s.shape
            let new = try edit(old)
            var batch: [TimedCommand] = []
            if new.minFrequency != old.minFrequency || new.maxFrequency != old.maxFrequency {
                batch.append(TimedCommand(.setFrequencyRange(min: new.minFrequency, max: new.maxFrequency), due: due))
            }
            if new.amplitude != old.amplitude { batch.append(TimedCommand(.setAmplitude(new.amplitude), due: due)) }
            if new.echoVolume != old.echoVolume { batch.append(TimedCommand(.setEchoVolume(new.echoVolume), due: due)) }
            if EngineController.needsNewPlan(old, new) && s.storages.count >= EngineController.maximumLivePlans {
                throw ParameterError(parameter: "engine",
                                     problem: "the audio thread is not taking new curves right now (is the JACK server running?); try again in a moment")
            }
            s.shape = new
            if EngineController.needsNewPlan(old, new) {
                let plan = EngineController.buildPlan(&s)
                batch.append(TimedCommand(.replacePlan(plan), due: due))
            }
            do throws(ParameterError) {
                try EngineController.send(commands, batch)
            } catch {
                if case .replacePlan(let plan)? = batch.last?.command { s.storages[plan.storageID] = nil }
                s.shape = old
                throw error
            }
        }
    }

    /// Whether the change between two shapes needs a new plan (a jump, cross-faded)
    /// rather than only ramps. A range change alone does not: the plan keeps its base range
    /// and the engine maps from it.
    static func needsNewPlan(_ a: ToneShape, _ b: ToneShape) -> Bool {
        if a.wave != b.wave || a.scale != b.scale || a.echoOffset != b.echoOffset || a.duration != b.duration
            || a.fidelity != b.fidelity || a.fourierTerms != b.fourierTerms || a.antiAliased != b.antiAliased {
            return true
        }
        if a.points.count != b.points.count { return true }
        // Points that moved other than by the range remap are a new curve.
        let map = FrequencyMap(fromMin: a.minFrequency, fromMax: a.maxFrequency, toMin: b.minFrequency, toMax: b.maxFrequency)
        for (p, q) in zip(a.points, b.points) {
            if p.time != q.time { return true }
            if abs(map.apply(p.frequency) - q.frequency) > 1e-9 * max(1, abs(q.frequency)) { return true }
        }
        return false
    }

    private static func buildPlan(_ s: inout State) -> RenderPlan {
        let storage = CurveStorage(shape: s.shape, sampleRate: s.sampleRate, id: s.nextID)
        s.nextID += 1
        s.storages[storage.id] = storage
        return storage.plan
    }

    /// Queues a batch whole or not at all, so a full queue never applies half a change.
    private static func send(_ queue: SPSCQueue<TimedCommand>, _ batch: [TimedCommand]) throws(ParameterError) {
        guard queue.capacity - 1 - queue.count >= batch.count else {
            throw ParameterError(parameter: "engine", problem: "too many changes waiting for the audio thread; try again in a moment")
        }
        for command in batch { queue.push(command) }
    }
}
