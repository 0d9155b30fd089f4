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

    /// The plan now playing and its two voices.
    public private(set) var plan: RenderPlan
    public private(set) var main: VoiceState
    public private(set) var echo: VoiceState
    /// The plan being faded out, while `fadeRemaining > 0`.
    private var outgoingPlan: RenderPlan
    private var outgoingMain: VoiceState
    private var outgoingEcho: VoiceState
    private var fadeRemaining = 0
    private var fadeLength = 1

    public private(set) var minFrequency: Ramp
    public private(set) var maxFrequency: Ramp
    public private(set) var amplitude: Ramp
    public private(set) var echoVolume: Ramp
    /// 0 = stopped, 1 = playing; ramps for stop and play.
    public private(set) var gate: Ramp
    /// A factor on every frequency (a MIDI note's transposition and pitch bend): transient
    /// performance state, not part of the shape, applied to the range map.
    public private(set) var transposition = Ramp(1)
    /// How long continuous changes ramp, in samples: the host sets it to its period.
    public var rampLength: Int

    private var retired = RetiredPlans()
    /// The voices' working arrays, then the ramp 0, 1, 2, ...; and their fixed-point phases.
    private let scratch: UnsafeMutablePointer<Double>
    private let fixedScratch: UnsafeMutablePointer<UInt64>
    private static let scratchCount = (1 + VoiceScratch.arrays) * maximumBlock
    private static let fixedScratchCount = VoiceScratch.fixedArrays * maximumBlock
    /// The four voice outputs (main, echo, and the outgoing plan's two), then 0, 1, 2, ...,
    /// then the voices' two arrays of cycle fractions.
    private let voiceOut: UnsafeMutablePointer<Float>
    private var rampF: UnsafeMutablePointer<Float> { voiceOut + 4 * ToneEngine.maximumBlock }

    public init(
        plan: RenderPlan, minFrequency: Double, maxFrequency: Double, amplitude: Double,
        echoVolume: Double, playing: Bool = true, rampLength: Int = 64
    ) {
        self.plan = plan
        outgoingPlan = plan
        self.minFrequency = Ramp(minFrequency)
        self.maxFrequency = Ramp(maxFrequency)
        self.amplitude = Ramp(amplitude)
        self.echoVolume = Ramp(echoVolume)
        gate = Ramp(playing ? 1 : 0)
        self.rampLength = rampLength
        let map = ToneEngine.map(for: plan, min: minFrequency, max: maxFrequency)
        main = VoiceState.starting(at: 0, plan: plan, map: map)
        echo = VoiceState.starting(at: plan.echoOffset, phase: ToneEngine.echoPhase(plan, from: 0, map: map), plan: plan, map: map)
        outgoingMain = main
        outgoingEcho = echo
        scratch = UnsafeMutablePointer<Double>.allocate(capacity: ToneEngine.scratchCount)
        scratch.initialize(repeating: 0, count: ToneEngine.scratchCount)
        for k in 0..<ToneEngine.maximumBlock { scratch[VoiceScratch.arrays * ToneEngine.maximumBlock + k] = Double(k) }
        fixedScratch = UnsafeMutablePointer<UInt64>.allocate(capacity: ToneEngine.fixedScratchCount)
        fixedScratch.initialize(repeating: 0, count: ToneEngine.fixedScratchCount)
        voiceOut = UnsafeMutablePointer<Float>.allocate(capacity: 7 * ToneEngine.maximumBlock)
        voiceOut.initialize(repeating: 0, count: 7 * ToneEngine.maximumBlock)
        for k in 0..<ToneEngine.maximumBlock { voiceOut[4 * ToneEngine.maximumBlock + k] = Float(k) }
    }

    deinit {
        scratch.deallocate()
        fixedScratch.deallocate()
        voiceOut.deallocate()
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
        case .ramp(.minFrequency, let lo):
            minFrequency.move(to: lo, over: rampLength)
        case .ramp(.maxFrequency, let hi):
            maxFrequency.move(to: hi, over: rampLength)
        case .ramp(.amplitude, let a):
            amplitude.move(to: a, over: rampLength)
        case .ramp(.echoVolume, let e):
            if echoVolume.value == 0 && !echoVolume.isMoving && e != 0 {
                // The echo was silent and not rendered: give it the phase it would have had.
                echo = ToneEngine.echoVoice(following: main, plan: plan, map: liveMap(for: plan))
                if fadeRemaining > 0 {
                    outgoingEcho = ToneEngine.echoVoice(
                        following: outgoingMain, plan: outgoingPlan,
                        map: liveMap(for: outgoingPlan))
                }
            }
            echoVolume.move(to: e, over: rampLength)
        case .replacePlan(let newPlan):
            guard canAcceptPlan else { return false }
            replacePlan(with: newPlan)
        case .play:
            if gate.value == 0 && gate.target == 0 { restartCycle() }
            gate.move(to: 1, over: fadeSamples(plan))
        case .stop:
            gate.move(to: 0, over: fadeSamples(plan))
        case .ramp, .clearSchedule, .mapController, .learnController:
            // Not a continuous parameter, or the renderer's business: nothing to ramp here.
            return false
        }
        return true
    }

    /// Renders `frames` frames with a throw-away engine playing the same plan; this engine
    /// is left as it was. Done before the first real-time callback, it brings the kernel's
    /// code and the plan's memory in, which the first periods would otherwise wait for.
    /// Allocates: never on the audio thread.
    public func rehearse(frames: Int) {
        var copy = ToneEngine(
            plan: plan, minFrequency: minFrequency.target, maxFrequency: maxFrequency.target,
            amplitude: amplitude.target, echoVolume: echoVolume.target, playing: true, rampLength: rampLength)
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
            if gate.value == 0 && !gate.isMoving {
                // Stopped: silence, and the voices hold their place. A cross-fade the stop
                // overtook has nothing left to fade: it ends here, or the next plan would
                // wait for it forever (and every change queued behind that plan with it).
                if fadeRemaining > 0 {
                    fadeRemaining = 0
                    retired.push(outgoingPlan.storageID)
                }
                var i = done
                while i < count {
                    out[i] = 0
                    i += 1
                }
                return
            }
            var block = min(count - done, ToneEngine.maximumBlock)
            // Cut the pass where a ramp or fade ends, so that every value is linear inside it.
            block = ToneEngine.shorten(block, minFrequency.remaining)
            block = ToneEngine.shorten(block, maxFrequency.remaining)
            block = ToneEngine.shorten(block, amplitude.remaining)
            block = ToneEngine.shorten(block, echoVolume.remaining)
            block = ToneEngine.shorten(block, gate.remaining)
            block = ToneEngine.shorten(block, transposition.remaining)
            block = ToneEngine.shorten(block, fadeRemaining)
            renderPass(into: out + done, count: block)
            done += block
        }
    }

    #if REALTIME_PROOF

        @_noLocks @_noAllocation

    #endif
    private mutating func renderPass(into out: UnsafeMutablePointer<Float>, count: Int) {
        let fadingNow = fadeRemaining > 0
        let mainOut = voiceOut
        let echoOut = voiceOut + ToneEngine.maximumBlock
        let oldMainOut = voiceOut + 2 * ToneEngine.maximumBlock
        let oldEchoOut = voiceOut + 3 * ToneEngine.maximumBlock
        let ramp = scratch + VoiceScratch.arrays * ToneEngine.maximumBlock
        let work = VoiceScratch(
            base: scratch, fixed: fixedScratch, fractions: voiceOut + 5 * ToneEngine.maximumBlock,
            stride: ToneEngine.maximumBlock, ramp: ramp)
        // An echo at volume 0 that is not ramping is not heard: render the main voice only,
        // keep the echo's place in the cycle, and re-derive its phase when it is heard again.
        // And an echo with offset 0 is the main voice itself, sample for sample.
        let echoSilent = echoVolume.value == 0 && !echoVolume.isMoving
        let echoIsMain = plan.echoOffset == 0 && (!fadingNow || outgoingPlan.echoOffset == 0)
        let (map, mapStep) = rampedMap(for: plan, count: count)
        let fading = fadingNow
        let (oldMap, oldStep) = fading ? rampedMap(for: outgoingPlan, count: count) : (map, mapStep)
        if echoSilent || echoIsMain {
            VoiceKernel.renderSingle(plan: plan, voice: &main, count: count, map: map, mapStep: mapStep, scratch: work, out: mainOut)
            if fading {
                VoiceKernel.renderSingle(
                    plan: outgoingPlan, voice: &outgoingMain, count: count, map: oldMap, mapStep: oldStep,
                    scratch: work, out: oldMainOut)
            }
            if echoIsMain {
                echo = main
                outgoingEcho = outgoingMain
                var i = 0
                while i < count {
                    echoOut[i] = mainOut[i]
                    oldEchoOut[i] = oldMainOut[i]
                    i += 1
                }
            } else {
                echo.cycleIndex = (echo.cycleIndex + count) % plan.cycleLength
                if fading {
                    outgoingEcho.cycleIndex = (outgoingEcho.cycleIndex + count) % outgoingPlan.cycleLength
                    var i = 0
                    while i < count {
                        echoOut[i] = 0
                        oldEchoOut[i] = 0
                        i += 1
                    }
                }
            }
        } else {
            VoiceKernel.renderPair(
                plan: plan, main: &main, echo: &echo, count: count, map: map, mapStep: mapStep,
                scratch: work, mainOut: mainOut, echoOut: echoOut)
            if fading {
                VoiceKernel.renderPair(
                    plan: outgoingPlan, main: &outgoingMain, echo: &outgoingEcho, count: count, map: oldMap,
                    mapStep: oldStep, scratch: work, mainOut: oldMainOut, echoOut: oldEchoOut)
            }
        }
        // Every gain is linear inside a pass (passes end where ramps end): start + step * k.
        let echo0 = Float(echoVolume.value)
        let echoStep = Float(echoVolume.value(after: count) - echoVolume.value) / Float(count)
        let amp0 = amplitude.value
        let ampStep = (amplitude.value(after: count) - amplitude.value) / Double(count)
        let gate0 = gate.value
        let gateStep = (gate.value(after: count) - gate.value) / Double(count)
        if fading {
            let fadeStep = Float(1 / Double(fadeLength))
            let fade0 = 1 - Float(fadeRemaining) * fadeStep  // weight of the new plan
            for i in 0..<count {
                let k = rampF[i]
                let e = echo0 + echoStep * k
                let w = fade0 + fadeStep * k
                mainOut[i] = w * (mainOut[i] + e * echoOut[i]) + (1 - w) * (oldMainOut[i] + e * oldEchoOut[i])
                echoOut[i] = 0
            }
        }
        // The mix in single precision (the output's), counting with the Float ramp.
        let framp = rampF
        let a0 = Float(amp0)
        let aStep = Float(ampStep)
        let g0 = Float(gate0)
        let gStep = Float(gateStep)
        // A silent echo was neither rendered nor cleared: its gain is 0, so any finite
        // samples do (the main voice's), where its stale buffer might hold anything.
        let echoSource = echoSilent && !fading ? mainOut : echoOut
        // The last line of defence, in both loops: never beyond the amplitude, never NaN,
        // never a subnormal (which costs downstream DSP dearly and is far below any 24-bit step).
        if aStep == 0 && gStep == 0 && echoStep == 0 {
            // Nothing ramping (nearly always): one gain. Chosen by the ramps' state, which
            // belongs to the sample, so a sample is made the same way in any period.
            VoiceKernel.mix(
                level: plan.kernel, main: mainOut, echo: echoSource, echoGain: echo0, gain: 0.5 * a0 * g0, limit: a0,
                count: count, out: out)
        } else {
            for i in 0..<count {
                let k = framp[i]
                let limit = a0 + aStep * k
                let mix = mainOut[i] + (echo0 + echoStep * k) * echoSource[i]
                let sample = 0.5 * mix * limit * (g0 + gStep * k)
                out[i] = OutputLimit.limited(sample, limit)
            }
        }
        advanceRamps(by: count)
        if fading {
            fadeRemaining -= count
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
    }

    @inline(__always)
    private static func shorten(_ block: Int, _ remaining: Int) -> Int {
        remaining > 0 && remaining < block ? remaining : block
    }

    /// The frequency map of `plan` now and its change per sample over the next `count` samples.
    @inline(__always)
    private func rampedMap(for plan: RenderPlan, count: Int) -> (FrequencyMap, FrequencyMap) {
        let start = ToneEngine.map(for: plan, min: minFrequency.value, max: maxFrequency.value, by: transposition.value)
        if !minFrequency.isMoving && !maxFrequency.isMoving && !transposition.isMoving { return (start, FrequencyMap(offset: 0, slope: 0)) }
        let end = ToneEngine.map(
            for: plan, min: minFrequency.value(after: count), max: maxFrequency.value(after: count),
            by: transposition.value(after: count))
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

    /// The live map of `plan` now: range and transposition.
    func liveMap(for plan: RenderPlan) -> FrequencyMap {
        ToneEngine.map(for: plan, min: minFrequency.value, max: maxFrequency.value, by: transposition.value)
    }

    /// The plan being faded out, while a cross-fade to `plan` runs: a voice bank reading
    /// the engine's plans may read it until the fade ends.
    public var fadingPlan: RenderPlan? { fadeRemaining > 0 ? outgoingPlan : nil }

    /// The new plan's weight in that cross-fade now and its change per sample ((1, 0) when
    /// none runs), as the engine's own mix weighs it.
    public var crossfadeWeight: (start: Float, step: Float) {
        guard fadeRemaining > 0 else { return (1, 0) }
        let step = Float(1 / Double(fadeLength))
        return (1 - Float(fadeRemaining) * step, step)
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

    /// Moves `count` samples on without rendering: ramps, fades and the place in the cycle
    /// advance as if rendered, the phase does not. For instrument mode, where the drone is
    /// not heard (it fades in from silence when it is heard again, so the phase jump is not).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func skip(_ count: Int) {
        if gate.value == 0 && !gate.isMoving { return }  // stopped: holds its place, as `render` does
        advanceRamps(by: count)
        main.cycleIndex = (main.cycleIndex + count) % plan.cycleLength
        echo.cycleIndex = (echo.cycleIndex + count) % plan.cycleLength
        if fadeRemaining > 0 {
            fadeRemaining = max(0, fadeRemaining - count)
            if fadeRemaining == 0 { retired.push(outgoingPlan.storageID) }
        }
    }

    /// Starts the cycle again from `index` (JACK transport: rolling starts, or a bar line).
    /// Meant for when the output is silent (the caller fades), so the jump is not heard.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func restartCycle(at index: Int) {
        let start = max(0, min(plan.cycleLength - 1, index))
        let map = liveMap(for: plan)
        main = VoiceState.starting(at: start, plan: plan, map: map)
        echo = ToneEngine.echoVoice(following: main, plan: plan, map: map)
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
        outgoingMain = main
        outgoingEcho = echo
        // Keep the phase and the relative place in the cycle, so the new plan continues
        // the sound rather than restarting it.
        let index = min(
            newPlan.cycleLength - 1,
            Int(Double(main.cycleIndex) * Double(newPlan.cycleLength) / Double(plan.cycleLength)))
        main = VoiceState(cycleIndex: index, integrator: main.integrator)
        // The echo keeps reading "offset ahead" of the main voice, under the new offset.
        echo = ToneEngine.echoVoice(following: main, plan: newPlan, map: liveMap(for: newPlan))
        plan = newPlan
        fadeLength = fadeSamples(newPlan)
        fadeRemaining = fadeLength
    }

    private mutating func restartCycle() {
        let map = ToneEngine.map(for: plan, min: minFrequency.target, max: maxFrequency.target, by: transposition.target)
        main = VoiceState.starting(at: 0, plan: plan, map: map)
        echo = VoiceState.starting(at: plan.echoOffset, phase: ToneEngine.echoPhase(plan, from: 0, map: map), plan: plan, map: map)
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
