/// One voice's place in the cycle and its running phase.
public struct VoiceState: Equatable, Sendable {
    /// The cycle sample the next output sample is taken from, in [0, S).
    public var cycleIndex: Int
    public var integrator: PhaseIntegrator

    public init(cycleIndex: Int, integrator: PhaseIntegrator) {
        self.cycleIndex = cycleIndex
        self.integrator = integrator
    }

    /// A voice starting at cycle sample `index`, its first sample at `phase` (in [0, 1)).
    public static func starting(at index: Int, phase: Double = 0, plan: RenderPlan, map: FrequencyMap) -> VoiceState {
        let v0 = VoiceKernel.clampFrequency(map.apply(plan.curveValue(at: index)), nyquist: plan.nyquist)
        var integrator = PhaseIntegrator(firstFrequency: v0, halfSamplePeriod: plan.halfSamplePeriod)
        integrator.phase += phase
        return VoiceState(cycleIndex: index, integrator: integrator)
    }
}

/// The per-sample work of one voice, free of allocation, locks and calls into C: the
/// compiler checks that (`@_noAllocation`, `@_noLocks`), which is what makes it safe to
/// run inside the JACK process callback.
public enum VoiceKernel {
    /// Renders `count` samples of wave times scaling into `out`.
    /// The frequency map moves linearly from `map` by `mapStep` per sample (a range ramp).
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public static func render(plan: RenderPlan, voice: inout VoiceState, count: Int,
                              map: FrequencyMap, mapStep: FrequencyMap,
                              out: UnsafeMutablePointer<Double>) {
        let h = plan.halfSamplePeriod
        let nyquist = plan.nyquist
        let cycleLength = plan.cycleLength
        let fraction = plan.cycleFractionPerSample
        let wave = plan.wave
        let scale = plan.scale
        let antiAliased = plan.antiAliased && wave.hasCorners
        let terms = plan.fourierTerms
        var n = voice.cycleIndex
        var integrator = voice.integrator
        var i = 0
        while i < count {
            let k = Double(i)
            let offset = map.offset + mapStep.offset * k
            let slope = map.slope + mapStep.slope * k
            let v = clampFrequency(offset + slope * plan.curveValue(at: n), nyquist: nyquist)
            let previous = integrator.lastFrequency
            let p = integrator.advance(v, halfSamplePeriod: h)
            let s: Double
            if wave.isFourier {
                let highest = UnitWave.highestHarmonicBelowNyquist(frequency: v, nyquist: nyquist)
                s = UnitWave.fourier(wave, p, terms: terms, highest: highest)
            } else if antiAliased {
                s = UnitWave.antiAliased(wave, p, (previous + v) * h)
            } else {
                s = UnitWave.naive(wave, p)
            }
            out[i] = s * AmplitudeScaling.value(scale, at: Double(n) * fraction)
            n += 1
            if n == cycleLength { n = 0 }
            i += 1
        }
        voice.cycleIndex = n
        voice.integrator = integrator
    }

    /// Frequencies live in [0, Nyquist]; NaN (which no validated input produces) becomes 0.
    @inlinable @inline(__always)
    public static func clampFrequency(_ v: Double, nyquist: Double) -> Double {
        if v > nyquist { return nyquist }
        if v >= 0 { return v }
        return 0
    }
}
