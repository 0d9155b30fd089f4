import ToneShaperDSP
import ToneShaperParameters

/// The real-time tone engine: renders any number of frames into a caller's buffer,
/// continuing exactly where the last call stopped. After `init` it never allocates, locks
/// or calls into C, so the JACK process callback and the offline renderer run the same
/// code (SPEC 1, 7, 8, 11).
///
/// Ownership: the engine owns its scratch memory (`~Copyable`, freed by `deinit`, which
/// must run off the audio thread). Plans handed back by `takeRetiredPlan()` may be freed
/// by their owner.
public struct ToneEngine: ~Copyable {
    /// Samples rendered per inner pass; longer requests are cut into passes of this size.
    public static let maximumBlock = 256
    /// Length of a cross-fade (new plan, play, stop), in seconds.
    public static let crossfadeSeconds = 0.005

    /// The plan now playing, and the drone: a voice like instrument mode's notes, kept in
    /// memory of the engine's own so that it renders in place (a stored property could not
    /// be passed `inout` to the engine's own `renderVoice`, only copied in and out).
    public private(set) var plan: RenderPlan
    private let dronePlace: UnsafeMutablePointer<PlayingVoice>
    var drone: PlayingVoice {
        get { dronePlace.pointee }
        nonmutating set { dronePlace.pointee = newValue }
    }
    /// The plan being faded out, while `fadeRemaining > 0`.
    private(set) var outgoingPlan: RenderPlan
    private(set) var fadeRemaining = 0
    private(set) var fadeLength = 1

    public private(set) var minFrequency: Ramp
    public private(set) var maxFrequency: Ramp
    public private(set) var amplitude: Ramp
    public private(set) var echoVolume: Ramp
    /// 0 = stopped, 1 = playing; ramps for stop and play.
    public private(set) var gate: Ramp
    /// A factor on every frequency (a MIDI note's transposition and pitch bend): transient
    /// performance state, not part of the shape, applied to the range map.
    public private(set) var transposition = Ramp(1)
    /// The shape's fine tuning as a factor on every frequency (2^(cents/1200)), ramped as
    /// the amplitude is; applied to the range map with the transposition.
    public private(set) var tuning: Ramp
    /// How long continuous changes ramp, in samples: the host sets it to its period.
    public var rampLength: Int

    private var retired = RetiredPlans()
    /// The voices' working arrays, then the ramp 0, 1, 2, ...; and their fixed-point phases:
    /// every voice (the drone, each note) renders with them in turn.
    let scratch: UnsafeMutablePointer<Double>
    let fixedScratch: UnsafeMutablePointer<UInt64>
    private static let scratchCount = (1 + VoiceScratch.arrays) * maximumBlock
    private static let fixedScratchCount = VoiceScratch.fixedArrays * maximumBlock
    /// A voice's four outputs (main, echo, and the outgoing plan's two), then 0, 1, 2, ...,
    /// then the voices' two arrays of cycle fractions, then the pass's sum of voices.
    let voiceOut: UnsafeMutablePointer<Float>
    private static let voiceOutCount = 8 * maximumBlock
    /// 0, 1, 2, ... in single precision: sample k of a pass, for the gains' ramps.
    var passRamp: UnsafeMutablePointer<Float> { voiceOut + 4 * ToneEngine.maximumBlock }
    /// Where a pass's voices are summed before the output stage. Never the host's buffer: a
    /// JACK port buffer can be read while a late period is being made in it (JACK2 lets the
    /// reader of the last period run then), so it only ever receives finished samples.
    var passSum: UnsafeMutablePointer<Float> { voiceOut + 7 * ToneEngine.maximumBlock }

    public init(
        plan: RenderPlan, minFrequency: Double, maxFrequency: Double, amplitude: Double,
        echoVolume: Double, tune: Double = 0, playing: Bool = true, rampLength: Int = 64
    ) {
        self.plan = plan
        outgoingPlan = plan
        tuning = Ramp(ToneEngine.tuningFactor(cents: tune))
        self.minFrequency = Ramp(minFrequency)
        self.maxFrequency = Ramp(maxFrequency)
        self.amplitude = Ramp(amplitude)
        self.echoVolume = Ramp(echoVolume)
        gate = Ramp(playing ? 1 : 0)
        self.rampLength = rampLength
        dronePlace = .allocate(capacity: 1)
        dronePlace.initialize(
            to: PlayingVoice.starting(plan: plan, map: ToneEngine.map(for: plan, min: minFrequency, max: maxFrequency, by: tuning.value)))
        scratch = UnsafeMutablePointer<Double>.allocate(capacity: ToneEngine.scratchCount)
        scratch.initialize(repeating: 0, count: ToneEngine.scratchCount)
        for k in 0..<ToneEngine.maximumBlock { scratch[VoiceScratch.arrays * ToneEngine.maximumBlock + k] = Double(k) }
        fixedScratch = UnsafeMutablePointer<UInt64>.allocate(capacity: ToneEngine.fixedScratchCount)
        fixedScratch.initialize(repeating: 0, count: ToneEngine.fixedScratchCount)
        voiceOut = UnsafeMutablePointer<Float>.allocate(capacity: ToneEngine.voiceOutCount)
        voiceOut.initialize(repeating: 0, count: ToneEngine.voiceOutCount)
        for k in 0..<ToneEngine.maximumBlock { voiceOut[4 * ToneEngine.maximumBlock + k] = Float(k) }
    }

    deinit {
        scratch.deallocate()
        fixedScratch.deallocate()
        voiceOut.deallocate()
        dronePlace.deallocate()
    }

    public var isPlaying: Bool { gate.target > 0 }
    public var isCrossfading: Bool { fadeRemaining > 0 }
    /// False while a cross-fade runs or the list of retired plans is full: the host keeps a
    /// `replacePlan` command queued until then (at most a few milliseconds). A plan taken
    /// retires exactly one plan (the one it replaces, at once or when the fade ends), and no
    /// other plan is taken before that: so the free slot asked for here is the one that
    /// plan goes to, and the list's `push` never finds it full (it checks).
    public var canAcceptPlan: Bool { fadeRemaining == 0 && retired.hasRoom }

    /// The storage ID of a plan the engine no longer reads, if any; its owner may free it.
    public mutating func takeRetiredPlan() -> Int? { retired.pop() }

    /// Plans the engine still reads or has not handed back yet, besides `plan`: the one
    /// fading out and the retired ones. For whoever frees the engine's plans after it.
    public func forEachHeldPlan(_ body: (Int) -> Void) {
        if fadeRemaining > 0 { body(outgoingPlan.storageID) }
        retired.forEach(body)
    }

    /// Applies a change at the current sample. Continuous values ramp over `rampLength`;
    /// jumps cross-fade. A `replacePlan` when `canAcceptPlan` is false is refused (false).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @discardableResult
    public mutating func apply(_ command: EngineCommand) -> Bool {
        switch command {
        case .ramp(let id, let value):
            // The engine's binding of the rows it ramps; every other row is a new plan's or
            // the MIDI performer's (`RealtimeRenderer` hands those there). A ramped row of the
            // sound that the engine does not bind is refused here, and a test finds it
            // (every `.ramp` row that is not the performer's must be taken).
            switch id {
            case .minFrequency: minFrequency.move(to: value, over: rampLength)
            case .maxFrequency: maxFrequency.move(to: value, over: rampLength)
            case .amplitude: amplitude.move(to: value, over: rampLength)
            // An echo heard again gets the phase it would have had (`renderVoice`).
            case .echoVolume: echoVolume.move(to: value, over: rampLength)
            case .tune: tuning.move(to: ToneEngine.tuningFactor(cents: value), over: rampLength)
            default: return false
            }
        case .replacePlan(let newPlan):
            guard canAcceptPlan else { return false }
            replacePlan(with: newPlan)
        case .play:
            if gate.value == 0 && gate.target == 0 { restartCycle() }
            gate.move(to: 1, over: fadeSamples(plan))
        case .stop:
            gate.move(to: 0, over: fadeSamples(plan))
        case .clearSchedule, .mapController, .learnController, .resetTunedKeys:
            return false  // the renderer's business
        }
        return true
    }

    /// The factor on every frequency of a tuning of `cents` (100 cents a semitone).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func tuningFactor(cents: Double) -> Double { FastPower.exp2(cents / 1200) }

    /// Renders `frames` frames with a throw-away engine playing the same plan; this engine
    /// is left as it was. Done before the first real-time callback, it brings the kernel's
    /// code and the plan's memory in, which the first periods would otherwise wait for.
    /// Allocates: never on the audio thread.
    public func rehearse(frames: Int) {
        var copy = ToneEngine(
            plan: plan, minFrequency: minFrequency.target, maxFrequency: maxFrequency.target,
            amplitude: amplitude.target, echoVolume: echoVolume.target, playing: true, rampLength: rampLength)
        copy.tuning = tuning
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: ToneEngine.maximumBlock)
        defer { buffer.deallocate() }
        var done = 0
        while done < frames {
            let n = min(ToneEngine.maximumBlock, frames - done)
            copy.render(into: buffer, count: n)
            done += n
        }
    }

    /// Renders `count` frames into `out`, continuing from the last call.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func render(into out: UnsafeMutablePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            if isStopped {
                silence(out + done, count: count - done)
                return
            }
            let block = passLength(upTo: min(count - done, ToneEngine.maximumBlock))
            renderPass(into: out + done, count: block)
            done += block
        }
    }

    /// Stopped and not fading: the output is silent and every voice holds its place.
    var isStopped: Bool { gate.value == 0 && !gate.isMoving }

    /// Silence while stopped. A cross-fade the stop overtook has nothing left to fade: it ends
    /// here, or the next plan would wait for it forever (and every change queued behind it).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func silence(_ out: UnsafeMutablePointer<Float>, count: Int) {
        if fadeRemaining > 0 {
            fadeRemaining = 0
            retired.push(outgoingPlan.storageID)
        }
        for i in 0..<count { out[i] = 0 }
    }

    /// The longest pass from here of at most `limit` samples in which every ramp and fade is
    /// linear: passes end where one ends.
    func passLength(upTo limit: Int) -> Int {
        var block = limit
        block = ToneEngine.shorten(block, minFrequency.remaining)
        block = ToneEngine.shorten(block, maxFrequency.remaining)
        block = ToneEngine.shorten(block, amplitude.remaining)
        block = ToneEngine.shorten(block, echoVolume.remaining)
        block = ToneEngine.shorten(block, gate.remaining)
        block = ToneEngine.shorten(block, transposition.remaining)
        block = ToneEngine.shorten(block, tuning.remaining)
        block = ToneEngine.shorten(block, fadeRemaining)
        return block
    }

    /// The drone alone: the one voice, mixed straight to the output.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func renderPass(into out: UnsafeMutablePointer<Float>, count: Int) {
        // The drone's place read out of `self` first: an inout access through one of the
        // engine's own properties during a call on the engine made the compiler copy the
        // whole engine (about 700 bytes) onto the stack at every pass.
        let drone = dronePlace
        let signal = renderVoice(&drone.pointee, ratio: (1, 1), count: count)
        let echoGain = PassGain.over(echoVolume, count: count)
        let amplitudeGain = PassGain.over(amplitude, count: count)
        let gateGain = PassGain.over(gate, count: count)
        if echoGain.isSteady && amplitudeGain.isSteady && gateGain.isSteady {
            // Nothing ramping (nearly always). Chosen by the ramps' state, which belongs to
            // the sample, so a sample is made the same way in any period.
            VoiceMix.steadyOutput(
                signal, echoGain: echoGain.start, amplitude: amplitudeGain.start, gate: gateGain.start, level: plan.kernel,
                count: count, out: out)
            endPass(count)
        } else {
            VoiceMix.accumulate(signal, gain: .steady(1), echoGain: echoGain, ramp: passRamp, count: count, into: passSum, .replace)
            finishPass(into: out, count: count)
        }
    }

    /// The drone into a sum of voices at `weight` (instrument mode's fade between the two).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func mixDrone(into sum: UnsafeMutablePointer<Float>, count: Int, weight: PassGain, _ mode: VoiceMix.Into) {
        let drone = dronePlace
        let signal = renderVoice(&drone.pointee, ratio: (1, 1), count: count)
        VoiceMix.accumulate(
            signal, gain: weight, echoGain: PassGain.over(echoVolume, count: count), ramp: passRamp, count: count, into: sum, mode)
    }

    /// The output stage from the pass's sum of voices (`passSum`) into `out`, and the pass ends.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func finishPass(into out: UnsafeMutablePointer<Float>, count: Int) {
        VoiceMix.finish(
            passSum, into: out, amplitude: PassGain.over(amplitude, count: count), gate: PassGain.over(gate, count: count), ramp: passRamp,
            count: count)
        endPass(count)
    }

    /// Ramps and the cross-fade move on by a pass.
    @inline(__always)
    private mutating func endPass(_ count: Int) {
        advanceRamps(by: count)
        if fadeRemaining > 0 {
            fadeRemaining = max(0, fadeRemaining - count)
            if fadeRemaining == 0 { retired.push(outgoingPlan.storageID) }
        }
    }

    /// Every ramp moves on by `count` samples: one list, so that a new ramp is advanced
    /// wherever samples pass, rendered or skipped.
    @inline(__always)
    private mutating func advanceRamps(by count: Int) {
        minFrequency.advance(by: count)
        maxFrequency.advance(by: count)
        amplitude.advance(by: count)
        echoVolume.advance(by: count)
        gate.advance(by: count)
        transposition.advance(by: count)
        tuning.advance(by: count)
    }

    @inline(__always)
    private static func shorten(_ block: Int, _ remaining: Int) -> Int {
        remaining > 0 && remaining < block ? remaining : block
    }

    /// The frequency map of `plan` now and its change per sample over the next `count`
    /// samples, every frequency times `ratio` (a note's, moving from start to end).
    @inline(__always)
    func rampedMap(for plan: RenderPlan, count: Int, ratio: (start: Double, end: Double)) -> (FrequencyMap, FrequencyMap) {
        let start = ToneEngine.map(
            for: plan, min: minFrequency.value, max: maxFrequency.value, by: transposition.value * tuning.value * ratio.start)
        if !minFrequency.isMoving && !maxFrequency.isMoving && !transposition.isMoving && !tuning.isMoving && ratio.start == ratio.end {
            return (start, FrequencyMap(offset: 0, slope: 0))
        }
        let end = ToneEngine.map(
            for: plan, min: minFrequency.value(after: count), max: maxFrequency.value(after: count),
            by: transposition.value(after: count) * tuning.value(after: count) * ratio.end)
        let perSample = 1 / Double(count)
        return (start, FrequencyMap(offset: (end.offset - start.offset) * perSample, slope: (end.slope - start.slope) * perSample))
    }

    @inline(__always)
    static func map(for plan: RenderPlan, min: Double, max: Double) -> FrequencyMap {
        FrequencyMap(fromMin: plan.baseMinFrequency, fromMax: plan.baseMaxFrequency, toMin: min, toMax: max)
    }

    /// The range map with every frequency scaled by `ratio` (a transposition).
    @inline(__always)
    static func map(for plan: RenderPlan, min: Double, max: Double, by ratio: Double) -> FrequencyMap {
        let m = map(for: plan, min: min, max: max)
        return FrequencyMap(offset: m.offset * ratio, slope: m.slope * ratio)
    }

    /// The live map of `plan` now: range, transposition and tuning, times `ratio` (a note's).
    func liveMap(for plan: RenderPlan, ratio: Double = 1) -> FrequencyMap {
        ToneEngine.map(for: plan, min: minFrequency.value, max: maxFrequency.value, by: transposition.value * tuning.value * ratio)
    }

    /// Every continuous parameter takes its target at once: for changes that arrive before
    /// the first sample is rendered (a plugin's control ports as the host first sets them),
    /// which must not be heard as a ramp from the defaults.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func settleRamps() {
        minFrequency.settle()
        maxFrequency.settle()
        amplitude.settle()
        echoVolume.settle()
        transposition.settle()
        tuning.settle()
    }

    /// Transposes every frequency by `ratio` (MIDI notes, pitch bend), moving there over
    /// `samples`: the phase runs on, so the retune is continuous, without a click or glide
    /// longer than that.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func transpose(to ratio: Double, over samples: Int) {
        guard ratio.isFinite, ratio > 0, ratio != transposition.target else { return }
        transposition.move(to: ratio, over: samples)
    }

    /// The drone's places in the cycle move on by a pass it is not heard in (instrument
    /// mode: it fades in from silence when it is heard again, so the phase jump is not).
    mutating func skipDrone(_ count: Int) { dronePlace.pointee.skip(count) }

    /// Starts the cycle again from `index` (JACK transport: rolling starts, or a bar line).
    /// Meant for when the output is silent (the caller fades), so the jump is not heard.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func restartCycle(at index: Int) {
        drone = PlayingVoice.starting(at: max(0, min(plan.cycleLength - 1, index)), plan: plan, map: liveMap(for: plan))
    }

    private func fadeSamples(_ plan: RenderPlan) -> Int {
        max(1, Int(ToneEngine.crossfadeSeconds * plan.sampleRate))
    }

    private mutating func replacePlan(with newPlan: RenderPlan) {
        if gate.value == 0 && !gate.isMoving {
            // Silent: nothing to fade; take the new plan at once, from the cycle's start on play.
            retired.push(plan.storageID)
            plan = newPlan
            restartCycle()
            return
        }
        outgoingPlan = plan
        dronePlace.pointee.follow(newPlan, map: liveMap(for: newPlan), fading: true)
        plan = newPlan
        fadeLength = fadeSamples(newPlan)
        fadeRemaining = fadeLength
    }

    private mutating func restartCycle() {
        drone = PlayingVoice.starting(
            plan: plan,
            map: ToneEngine.map(for: plan, min: minFrequency.target, max: maxFrequency.target, by: transposition.target * tuning.target))
    }

    /// The echo voice that belongs with `main`: `offset` ahead in the cycle and in phase.
    static func echoVoice(following main: VoiceState, plan: RenderPlan, map: FrequencyMap) -> VoiceState {
        var integrator = main.integrator
        integrator.phase = wrapPhase(main.integrator.phase + echoPhase(plan, from: main.cycleIndex, map: map))
        let index = (main.cycleIndex + plan.echoOffset) % plan.cycleLength
        integrator.lastFrequency = VoiceKernel.clampFrequency(map.apply(plan.curveValue(at: index)), nyquist: plan.nyquist)
        return VoiceState(cycleIndex: index, integrator: integrator)
    }

    /// The phase the echo voice is ahead of a main voice at cycle sample `index`.
    static func echoPhase(_ plan: RenderPlan, from index: Int, map: FrequencyMap) -> Double {
        wrapPhase(plan.phaseAhead(from: index, by: plan.echoOffset, map: map))
    }

    /// x - floor(x) for finite x, without calling C.
    static func wrapPhase(_ x: Double) -> Double {
        guard x.isFinite else { return 0 }
        let whole = Double(Int(x))
        let r = x - whole
        return r < 0 ? r + 1 : r
    }
}

/// A fixed stack of storage IDs the engine has stopped reading, waiting for the host.
/// `~Copyable`: the engine's one list, which no copy can duplicate or drop an id from.
struct RetiredPlans: ~Copyable {
    static let capacity = 8
    private var ids: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    init() {
        precondition(MemoryLayout.size(ofValue: ids) == RetiredPlans.capacity * MemoryLayout<Int>.stride)
    }

    var hasRoom: Bool { count < RetiredPlans.capacity }

    /// Adds an id. The engine takes a plan only while there is room for the one it
    /// replaces (`ToneEngine.canAcceptPlan`), so this never finds the list full; if it ever
    /// did, the plan's memory would never be freed: that stops here instead.
    mutating func push(_ id: Int) {
        precondition(hasRoom, "a retired plan found no room: the engine took a plan it had no slot for")
        // The offset first: a closure that read `count` would capture the (noncopyable) list.
        let offset = count * MemoryLayout<Int>.stride
        withUnsafeMutableBytes(of: &ids) { $0.storeBytes(of: id, toByteOffset: offset, as: Int.self) }
        count += 1
    }

    mutating func pop() -> Int? {
        guard count > 0 else { return nil }
        count -= 1
        let offset = count * MemoryLayout<Int>.stride
        return withUnsafeBytes(of: &ids) { $0.load(fromByteOffset: offset, as: Int.self) }
    }

    func forEach(_ body: (Int) -> Void) {
        var index = count
        while index > 0 {
            index -= 1
            let offset = index * MemoryLayout<Int>.stride
            body(withUnsafeBytes(of: ids) { $0.load(fromByteOffset: offset, as: Int.self) })
        }
    }
}
