/// Instrument mode: a fixed pool of voices, each playing the engine's plan from the
/// cycle's start, transposed by its note, with its own envelope. Rendered with the same
/// kernel as the drone (`VoiceKernel`), summed, and limited like the engine's output.
extension MIDIPerformer {
    private func samples(_ seconds: Double) -> Int { max(1, Int(seconds * sampleRate)) }

    /// Starts a voice for the note, stealing one if `voices` are sounding already.
    mutating func noteOn(_ note: UInt8, channel: UInt8, velocity: UInt8, engine: borrowing ToneEngine) {
        let ratio = FastPower.exp2(Double(Int(note) - settings.rootNote) / 12)
        if settings.voices == 1 {
            // Mono: legato. A key while another is held retunes the sounding voice.
            for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .held || pool[i].stage == .sustained {
                glide(i, to: ratio)
                pool[i].note = note
                pool[i].channel = channel
                pool[i].stage = .held
                monoKeys.press(note)
                return
            }
        }
        // One pass over the pool: how many sound, which to steal, where the new one goes.
        var sounding = 0
        var victim = -1
        var victimReleased = false
        var free = -1
        var quietest = -1
        for i in 0..<MIDIPerformer.poolSize {
            switch pool[i].stage {
            case .free:
                if free < 0 { free = i }
            case .dying:
                if quietest < 0 || pool[i].level < pool[quietest].level { quietest = i }
            default:
                sounding += 1
                let released = pool[i].stage == .released
                if victim < 0 || (released && !victimReleased) || (released == victimReleased && pool[i].serial < pool[victim].serial) {
                    victim = i
                    victimReleased = released
                }
            }
        }
        if sounding >= settings.voices && victim >= 0 {
            fadeOutFast(victim)
            sounding -= 1
            // More than one over (the limit was lowered while notes sounded): the rest too.
            while sounding >= settings.voices, let next = stealCandidate() {
                fadeOutFast(next)
                sounding -= 1
            }
        }
        // No free slot (a flood of notes): the quietest dying voice is cut.
        let slot = free >= 0 ? free : (quietest >= 0 ? quietest : (victim >= 0 ? victim : 0))
        start(slot, note: note, channel: channel, ratio: ratio, velocity: velocity, engine: engine)
        if settings.voices == 1 { monoKeys.press(note) }
    }

    mutating func noteOff(_ note: UInt8, channel: UInt8, engine: borrowing ToneEngine) {
        if settings.voices == 1 {
            monoKeys.release(note)
            for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .held && pool[i].note == note {
                if let previous = monoKeys.latest {
                    // Back to the key still held, legato.
                    glide(i, to: FastPower.exp2(Double(Int(previous) - settings.rootNote) / 12))
                    pool[i].note = previous
                } else if sustain {
                    pool[i].stage = .sustained
                } else {
                    release(i)
                }
            }
            return
        }
        for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .held && pool[i].note == note && pool[i].channel == channel {
            if sustain { pool[i].stage = .sustained } else { release(i) }
        }
    }

    /// Fades voice `i` out over the release time (at least 1 ms: never a click).
    mutating func release(_ i: Int) {
        let fade = max(samples(settings.release / 1000), samples(0.001))
        pool[i].stage = .released
        pool[i].levelStep = -max(pool[i].level, 1e-6) / Float(fade)
    }

    /// Releases every voice (fast: a stolen voice's fade, for all-sound-off and mode switches).
    mutating func releaseAll(fast: Bool) {
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds && pool[i].stage != .dying {
            if fast {
                fadeOutFast(i)
            } else {
                release(i)
            }
        }
        monoKeys.removeAll()
    }

    /// The oldest released voice, else the oldest sounding one.
    private func stealCandidate() -> Int? {
        var best = -1
        var bestReleased = false
        for i in 0..<MIDIPerformer.poolSize where pool[i].counts {
            let released = pool[i].stage == .released
            if best < 0 || (released && !bestReleased) || (released == bestReleased && pool[i].serial < pool[best].serial) {
                best = i
                bestReleased = released
            }
        }
        return best >= 0 ? best : nil
    }

    /// Stolen: out in 5 ms, no longer counted.
    private mutating func fadeOutFast(_ i: Int) {
        pool[i].stage = .dying
        pool[i].levelStep = -max(pool[i].level, 1e-6) / Float(samples(MIDIPerformer.stealSeconds))
    }

    private mutating func start(_ i: Int, note: UInt8, channel: UInt8, ratio: Double, velocity: UInt8, engine: borrowing ToneEngine) {
        let plan = engine.plan
        let map = ToneEngine.map(
            for: plan, min: engine.minFrequency.value, max: engine.maxFrequency.value,
            by: engine.transposition.value * ratio)
        serial &+= 1
        var voice = InstrumentVoice()
        voice.stage = .held
        voice.note = note
        voice.channel = channel
        voice.serial = serial
        voice.main = VoiceState.starting(at: 0, plan: plan, map: map)
        voice.echo = VoiceState.starting(at: plan.echoOffset, phase: ToneEngine.echoPhase(plan, from: 0, map: map), plan: plan, map: map)
        voice.planID = plan.storageID
        voice.planLength = plan.cycleLength
        voice.ratio = ratio
        voice.velocityGain = VelocityCurve.gain(velocity)
        voice.level = 0
        voice.levelStep = 1 / Float(samples(MIDIPerformer.attackSeconds))
        pool[i] = voice
    }

    private mutating func glide(_ i: Int, to ratio: Double) {
        let n = retuneSamples
        pool[i].ratioLeft = n
        pool[i].ratioStep = (ratio - pool[i].ratio) / Double(n)
    }

    // MARK: Rendering

    /// Renders `count` (at most `ToneEngine.maximumBlock`) samples of every sounding voice
    /// into `out` (overwriting it), at the engine's range, gains and bend as they are now
    /// (call it before the engine renders the same samples).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func renderVoices(into out: UnsafeMutablePointer<Float>, count: Int, engine: borrowing ToneEngine) {
        let b = MIDIPerformer.block
        let mainOut = floats
        let echoOut = floats + b
        let ramp = floats + 6 * b
        var i = 0
        while i < count {
            out[i] = 0
            i += 1
        }
        let gate0 = engine.gate.value
        let gate1 = engine.gate.value(after: count)
        if gate0 == 0 && gate1 == 0 { return }
        let plan = engine.plan
        let work = VoiceScratch(
            base: scratch, fixed: fixedScratch, fractions: floats + 2 * b, stride: b,
            ramp: scratch + VoiceScratch.arrays * b)
        let min0 = engine.minFrequency.value
        let min1 = engine.minFrequency.value(after: count)
        let max0 = engine.maxFrequency.value
        let max1 = engine.maxFrequency.value(after: count)
        let bend0 = engine.transposition.value
        let bend1 = engine.transposition.value(after: count)
        let e0 = Float(engine.echoVolume.value)
        let e1 = Float(engine.echoVolume.value(after: count))
        let eStep = (e1 - e0) / Float(count)
        let echoSilent = e0 == 0 && e1 == 0
        var rendered = 0
        let fadingPlan = engine.fadingPlan
        let (w0, wStep) = engine.crossfadeWeight
        for v in 0..<MIDIPerformer.poolSize where pool[v].sounds {
            rendered += 1
            if pool[v].planID != plan.storageID {
                // A new plan: if the engine still fades from the voice's plan, the voice
                // fades with it (the old plan is alive until that fade ends).
                if let old = fadingPlan, old.storageID == pool[v].planID {
                    pool[v].oldMain = pool[v].main
                    pool[v].oldEcho = pool[v].echo
                    pool[v].fadingFrom = old.storageID
                }
                follow(v, plan: plan, bend: bend0, min: min0, max: max0)
            }
            let r0 = pool[v].ratio
            let r1 = pool[v].ratioLeft > 0 ? r0 + pool[v].ratioStep * Double(min(count, pool[v].ratioLeft)) : r0
            renderVoice(
                plan: plan, main: &pool[v].main, echo: &pool[v].echo, count: count,
                from: (min0, max0, bend0 * r0), to: (min1, max1, bend1 * r1),
                echoSilent: echoSilent, work: work, mainOut: mainOut, echoOut: echoOut)
            if pool[v].fadingFrom != 0 {
                if let old = fadingPlan, old.storageID == pool[v].fadingFrom {
                    let oldMainOut = floats + 7 * b
                    let oldEchoOut = floats + 8 * b
                    renderVoice(
                        plan: old, main: &pool[v].oldMain, echo: &pool[v].oldEcho, count: count,
                        from: (min0, max0, bend0 * r0), to: (min1, max1, bend1 * r1),
                        echoSilent: echoSilent, work: work, mainOut: oldMainOut, echoOut: oldEchoOut)
                    // Both plans' echoes as separate voices when either has one (an echo at
                    // offset 0 is the main voice itself).
                    let newEcho = plan.echoOffset == 0 ? mainOut : echoOut
                    let oldEcho = old.echoOffset == 0 ? oldMainOut : oldEchoOut
                    for k in 0..<count {
                        let w = min(1, w0 + wStep * ramp[k])
                        let m = w * mainOut[k] + (1 - w) * oldMainOut[k]
                        echoOut[k] = echoSilent ? 0 : w * newEcho[k] + (1 - w) * oldEcho[k]
                        mainOut[k] = m
                    }
                } else {
                    pool[v].fadingFrom = 0
                }
            }
            let echoIsMain = plan.echoOffset == 0 && pool[v].fadingFrom == 0
            // The voice's gain: velocity times the envelope, linear inside the block.
            let velocity = pool[v].velocityGain
            let level = pool[v].level
            let levelStep = pool[v].levelStep
            if levelStep == 0 {
                // Held at a steady level (nearly always): one gain for the block.
                let g = level * velocity
                if echoSilent {
                    for k in 0..<count { out[k] += g * mainOut[k] }
                } else if echoIsMain {
                    for k in 0..<count { out[k] += g * mainOut[k] * (1 + e0 + eStep * ramp[k]) }
                } else if eStep == 0 {
                    for k in 0..<count { out[k] += g * (mainOut[k] + e0 * echoOut[k]) }
                } else {
                    for k in 0..<count { out[k] += g * (mainOut[k] + (e0 + eStep * ramp[k]) * echoOut[k]) }
                }
            } else if echoSilent {
                for k in 0..<count {
                    let g = clamp01(level + levelStep * ramp[k]) * velocity
                    out[k] += g * mainOut[k]
                }
            } else if echoIsMain {
                for k in 0..<count {
                    let g = clamp01(level + levelStep * ramp[k]) * velocity
                    out[k] += g * mainOut[k] * (1 + e0 + eStep * ramp[k])
                }
            } else {
                for k in 0..<count {
                    let g = clamp01(level + levelStep * ramp[k]) * velocity
                    out[k] += g * (mainOut[k] + (e0 + eStep * ramp[k]) * echoOut[k])
                }
            }
            advance(v, by: count, cycleLength: plan.cycleLength)
        }
        // The engine's gains, as in its own mix: (sum) / 2 * amplitude * gate, never beyond the amplitude.
        let a0 = Float(engine.amplitude.value)
        let a1 = Float(engine.amplitude.value(after: count))
        let aStep = (a1 - a0) / Float(count)
        let g0 = Float(gate0)
        let gStep = Float(gate1 - gate0) / Float(count)
        if rendered == 0 { return }
        for k in 0..<count {
            let a = a0 + aStep * ramp[k]
            let sample = 0.5 * out[k] * a * (g0 + gStep * ramp[k])
            out[k] = OutputLimit.limited(sample, a)
        }
    }

    /// One voice of `plan` (main and, when heard and not the main voice itself, echo),
    /// its map moving from `from` to `to` (min, max, transposition) across the block.
    @inline(__always)
    private func renderVoice(
        plan: RenderPlan, main: inout VoiceState, echo: inout VoiceState, count: Int,
        from: (Double, Double, Double), to: (Double, Double, Double), echoSilent: Bool,
        work: VoiceScratch, mainOut: UnsafeMutablePointer<Float>, echoOut: UnsafeMutablePointer<Float>
    ) {
        let map = ToneEngine.map(for: plan, min: from.0, max: from.1, by: from.2)
        let end = ToneEngine.map(for: plan, min: to.0, max: to.1, by: to.2)
        let perSample = 1 / Double(count)
        let step = FrequencyMap(offset: (end.offset - map.offset) * perSample, slope: (end.slope - map.slope) * perSample)
        if echoSilent || plan.echoOffset == 0 {
            VoiceKernel.renderSingle(plan: plan, voice: &main, count: count, map: map, mapStep: step, scratch: work, out: mainOut)
            echo.cycleIndex = (echo.cycleIndex + count) % plan.cycleLength
        } else {
            VoiceKernel.renderPair(
                plan: plan, main: &main, echo: &echo, count: count, map: map, mapStep: step,
                scratch: work, mainOut: mainOut, echoOut: echoOut)
        }
    }

    /// The drone's share, while instrument mode fades in or out: `out += level * drone`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func mixDrone(_ drone: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, count: Int, limit: Float) {
        let ramp = floats + 6 * MIDIPerformer.block
        let d0 = Float(droneLevel.value)
        let d1 = Float(droneLevel.value(after: count))
        let dStep = (d1 - d0) / Float(count)
        for k in 0..<count {
            let w = d0 + dStep * ramp[k]
            out[k] = OutputLimit.limited(w * drone[k] + (1 - w) * out[k], limit)
        }
        droneLevel.advance(by: count)
    }

    /// The drone's own buffer, for `mixDrone`.
    var droneBuffer: UnsafeMutablePointer<Float> { floats + 4 * MIDIPerformer.block }

    private mutating func advance(_ v: Int, by count: Int, cycleLength: Int) {
        if pool[v].ratioLeft > 0 {
            let n = min(count, pool[v].ratioLeft)
            pool[v].ratio += pool[v].ratioStep * Double(n)
            pool[v].ratioLeft -= n
        }
        var level = pool[v].level + pool[v].levelStep * Float(count)
        if pool[v].levelStep > 0 && level >= 1 {
            level = 1
            pool[v].levelStep = 0
        }
        pool[v].level = level
        if pool[v].levelStep < 0 && level <= 0 {
            pool[v].stage = .free
            pool[v].level = 0
            return
        }
        pool[v].played += count
        if settings.oneShot && pool[v].played >= cycleLength && (pool[v].stage == .held || pool[v].stage == .sustained) {
            // One cycle played: a short fade, whatever the key does.
            pool[v].stage = .dying
            pool[v].levelStep = -max(level, 1e-6) / Float(samples(MIDIPerformer.stealSeconds))
        }
    }

    /// A new plan (another wave, curve or duration): the voice keeps its phase and its
    /// relative place in the cycle, as the drone does.
    private mutating func follow(_ v: Int, plan: RenderPlan, bend: Double, min: Double, max: Double) {
        let old = Swift.max(1, pool[v].planLength)
        let index = Swift.min(plan.cycleLength - 1, Int(Double(pool[v].main.cycleIndex) * Double(plan.cycleLength) / Double(old)))
        pool[v].main = VoiceState(cycleIndex: index, integrator: pool[v].main.integrator)
        let map = ToneEngine.map(for: plan, min: min, max: max, by: bend * pool[v].ratio)
        pool[v].echo = ToneEngine.echoVoice(following: pool[v].main, plan: plan, map: map)
        pool[v].planID = plan.storageID
        pool[v].planLength = plan.cycleLength
    }

    @inline(__always)
    private func clamp01(_ x: Float) -> Float { x < 0 ? 0 : (x > 1 ? 1 : x) }
}
