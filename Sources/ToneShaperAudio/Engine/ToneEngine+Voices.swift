import ToneShaperDSP
import ToneShaperParameters

/// Every voice renders here, the drone and each note alike: at the engine's range,
/// transposition and echo volume as they move over the pass, following a new plan, and
/// cross-fading from the old one while the engine does.
extension ToneEngine {
    /// Whether the echo is heard in this pass: an echo at volume 0 that is not ramping is
    /// not rendered; its place in the cycle runs on and its phase is derived again when it
    /// is heard.
    var echoIsHeard: Bool { echoVolume.value != 0 || echoVolume.isMoving }

    /// Renders `count` samples (one pass, at most `maximumBlock`) of `voice`, every frequency
    /// times `ratio` (a note's transposition, moving from start to end). The signal is in the
    /// engine's pass buffers until the next voice renders.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func renderVoice(_ voice: inout PlayingVoice, ratio: (start: Double, end: Double), count: Int) -> VoiceSignal {
        let heard = echoIsHeard
        let fading = fadeRemaining > 0
        if voice.planID != plan.storageID {
            // A new plan: if the engine still fades from the voice's plan, the voice fades
            // with it (the old plan is alive until that fade ends).
            voice.follow(plan, map: liveMap(for: plan, ratio: ratio.start), fading: fading && outgoingPlan.storageID == voice.planID)
        } else if voice.fadingFrom != 0 && !(fading && outgoingPlan.storageID == voice.fadingFrom) {
            voice.fadingFrom = 0
        }
        let crossfading = voice.fadingFrom != 0
        if heard && !voice.echoInStep {
            // The echo was silent and not rendered: give it the phase it would have had.
            voice.echo = ToneEngine.echoVoice(following: voice.main, plan: plan, map: liveMap(for: plan, ratio: ratio.start))
            if crossfading {
                voice.oldEcho = ToneEngine.echoVoice(
                    following: voice.oldMain, plan: outgoingPlan, map: liveMap(for: outgoingPlan, ratio: ratio.start))
            }
        }
        voice.echoInStep = heard
        let b = ToneEngine.maximumBlock
        let mainOut = voiceOut
        let echoOut = voiceOut + b
        let (map, mapStep) = rampedMap(for: plan, count: count, ratio: ratio)
        let echo = renderPlan(plan, &voice.main, &voice.echo, heard: heard, map: map, mapStep: mapStep, count: count, mainOut, echoOut)
        guard crossfading else { return VoiceSignal(main: mainOut, echo: echo) }

        let oldMainOut = voiceOut + 2 * b
        let (oldMap, oldStep) = rampedMap(for: outgoingPlan, count: count, ratio: ratio)
        let oldEcho = renderPlan(
            outgoingPlan, &voice.oldMain, &voice.oldEcho, heard: heard, map: oldMap, mapStep: oldStep, count: count,
            oldMainOut, voiceOut + 3 * b)
        // The new plan's weight, linear across the pass (it ends where the fade ends).
        let step = Float(1 / Double(fadeLength))
        let weight = PassGain(start: 1 - Float(fadeRemaining) * step, step: step)
        let ramp = passRamp
        guard let echo, let oldEcho else {
            for k in 0..<count {
                let w = weight.at(ramp[k])
                mainOut[k] = w * mainOut[k] + (1 - w) * oldMainOut[k]
            }
            return VoiceSignal(main: mainOut, echo: nil)
        }
        for k in 0..<count {
            let w = weight.at(ramp[k])
            // The echo first: it may be the main voice's own buffer (an offset of 0).
            let e = w * echo[k] + (1 - w) * oldEcho[k]
            mainOut[k] = w * mainOut[k] + (1 - w) * oldMainOut[k]
            echoOut[k] = e
        }
        return VoiceSignal(main: mainOut, echo: echoOut)
    }

    /// One plan's main voice and, when heard, its echo. Returns the echo's samples: the main
    /// voice's buffer when the echo is the main voice itself (offset 0), nil when unheard.
    @inline(__always)
    private func renderPlan(
        _ plan: RenderPlan, _ main: inout VoiceState, _ echo: inout VoiceState, heard: Bool, map: FrequencyMap,
        mapStep: FrequencyMap, count: Int, _ mainOut: UnsafeMutablePointer<Float>, _ echoOut: UnsafeMutablePointer<Float>
    ) -> UnsafePointer<Float>? {
        let b = ToneEngine.maximumBlock
        let work = VoiceScratch(
            base: scratch, fixed: fixedScratch, fractions: voiceOut + 5 * b, stride: b, ramp: scratch + VoiceScratch.arrays * b)
        if plan.echoOffset == 0 {
            // An echo with offset 0 is the main voice itself, sample for sample.
            VoiceKernel.renderSingle(plan: plan, voice: &main, count: count, map: map, mapStep: mapStep, scratch: work, out: mainOut)
            echo = main
            return heard ? UnsafePointer(mainOut) : nil
        }
        guard heard else {
            VoiceKernel.renderSingle(plan: plan, voice: &main, count: count, map: map, mapStep: mapStep, scratch: work, out: mainOut)
            echo.cycleIndex = (echo.cycleIndex + count) % plan.cycleLength
            return nil
        }
        VoiceKernel.renderPair(
            plan: plan, main: &main, echo: &echo, count: count, map: map, mapStep: mapStep, scratch: work, mainOut: mainOut,
            echoOut: echoOut)
        return UnsafePointer(echoOut)
    }
}
