import ToneShaperDSP

/// A gain moving linearly across a pass (passes end where ramps end):
/// `scale * clamp(start + step * k, 0, 1)` at sample k. Every gain of the mix is one: a note's
/// envelope (its velocity the scale), the drone's share while instrument mode fades, the
/// echo's volume, the amplitude and the play/stop gate.
struct PassGain {
    var start: Float
    var step: Float
    var scale: Float = 1

    /// A gain that does not move.
    static func steady(_ value: Float) -> PassGain { PassGain(start: value, step: 0) }

    /// The gain of `ramp` over the next `count` samples.
    static func over(_ ramp: Ramp, count: Int) -> PassGain {
        let start = Float(ramp.value)
        return PassGain(start: start, step: (Float(ramp.value(after: count)) - start) / Float(count))
    }

    var isSteady: Bool { step == 0 }

    @inline(__always)
    func at(_ k: Float) -> Float {
        let x = start + step * k
        return (x < 0 ? 0 : (x > 1 ? 1 : x)) * scale
    }
}

/// One voice's sound over a pass, after its cross-fade: its main voice, and its echo (the
/// same buffer when the echo is the main voice itself, nil when the echo is not heard).
struct VoiceSignal {
    let main: UnsafePointer<Float>
    let echo: UnsafePointer<Float>?
}

/// The one mix of every voice, the drone's and the notes': each voice's main plus echo at
/// the echo's volume, times the voice's gain, summed; then the output stage, half the sum
/// times the amplitude and the gate, never beyond the amplitude (`OutputLimit`).
enum VoiceMix {
    /// How a voice's sound goes into the sum.
    enum Into {
        /// The sum is this voice alone.
        case replace
        /// Added to the sum.
        case add
        /// `gain` of this voice and the rest of the sum (the drone into the notes while
        /// instrument mode fades).
        case blend
    }

    /// sum[k] = (the rest) + gain(k) * (main[k] + echoGain(k) * echo[k]).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    static func accumulate(
        _ voice: VoiceSignal, gain: PassGain, echoGain: PassGain, ramp: UnsafePointer<Float>, count: Int,
        into sum: UnsafeMutablePointer<Float>, _ mode: Into
    ) {
        let main = voice.main
        if mode != .blend && gain.isSteady && echoGain.isSteady {
            // Held at a steady level (nearly always): one gain for the pass.
            let g = gain.at(0)
            let e = echoGain.start
            switch (mode, voice.echo) {
            case (.add, nil): for k in 0..<count { sum[k] += g * main[k] }
            case (.add, let echo?): for k in 0..<count { sum[k] += g * (main[k] + e * echo[k]) }
            case (_, nil): for k in 0..<count { sum[k] = g * main[k] }
            case (_, let echo?): for k in 0..<count { sum[k] = g * (main[k] + e * echo[k]) }
            }
            return
        }
        // The sum is read only where it holds samples (not for `replace`: it may hold anything).
        let echo = voice.echo ?? main
        let e = voice.echo == nil ? PassGain.steady(0) : echoGain
        switch mode {
        case .replace:
            for k in 0..<count { sum[k] = gain.at(ramp[k]) * (main[k] + (e.start + e.step * ramp[k]) * echo[k]) }
        case .add:
            for k in 0..<count { sum[k] += gain.at(ramp[k]) * (main[k] + (e.start + e.step * ramp[k]) * echo[k]) }
        case .blend:
            for k in 0..<count {
                let g = gain.at(ramp[k])
                sum[k] = (1 - g) * sum[k] + g * (main[k] + (e.start + e.step * ramp[k]) * echo[k])
            }
        }
    }

    /// The output stage: out[k] = limited(sum[k] / 2 * amplitude(k) * gate(k), amplitude(k)).
    /// `out` is written once per sample, with the finished sample (see `ToneEngine.passSum`).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    static func finish(
        _ sum: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, amplitude: PassGain, gate: PassGain,
        ramp: UnsafePointer<Float>, count: Int
    ) {
        for k in 0..<count {
            let x = ramp[k]
            let limit = amplitude.start + amplitude.step * x
            let sample = 0.5 * sum[k] * limit * (gate.start + gate.step * x)
            out[k] = OutputLimit.limited(sample, limit)
        }
    }

    /// One voice straight to the output while nothing ramps (the drone, nearly always): the
    /// sum and the output stage in one pass, at the kernel's level.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    static func steadyOutput(
        _ voice: VoiceSignal, echoGain: Float, amplitude: Float, gate: Float, level: KernelLevel, count: Int,
        out: UnsafeMutablePointer<Float>
    ) {
        // An unheard echo's gain is 0: the main voice's samples stand in for it.
        VoiceKernel.mix(
            level: level, main: voice.main, echo: voice.echo ?? voice.main, echoGain: voice.echo == nil ? 0 : echoGain,
            gain: 0.5 * amplitude * gate, limit: amplitude, count: count, out: out)
    }
}
