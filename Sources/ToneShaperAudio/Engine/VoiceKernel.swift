import ToneShaperDSP
import ToneShaperKernelBaseline
import ToneShaperParameters

#if arch(x86_64)
    import ToneShaperKernelV3
    import ToneShaperKernelV4
#endif

/// The engine's door to the render kernel. The kernel (ToneShaperKernelBaseline, whose
/// stages are described there) is compiled once per instruction-set level; each call goes to
/// the level the plan names, `KernelLevel.selected` unless a test asks for another. That is
/// one predictable branch per call (a pass of up to a period), never per sample, and a direct
/// call, so the compiler's real-time proof (`@_noAllocation`, `@_noLocks`) covers it: every
/// level's entry points carry the same annotations.
public enum VoiceKernel {
    /// Both voices of a pair (main and echo) over `count` samples.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func renderPair(
        plan: RenderPlan, main: inout VoiceState, echo: inout VoiceState, count: Int,
        map: FrequencyMap, mapStep: FrequencyMap, scratch: VoiceScratch,
        mainOut: UnsafeMutablePointer<Float>, echoOut: UnsafeMutablePointer<Float>
    ) {
        let range = rangeRamp(map, mapStep)
        switch plan.kernel {
        #if arch(x86_64)
            case .v4:
                ToneShaperKernelV4.Kernel.renderPair(
                    plan: plan, main: &main, echo: &echo, count: count, range: range, scratch: scratch,
                    mainOut: mainOut, echoOut: echoOut)
            case .v3:
                ToneShaperKernelV3.Kernel.renderPair(
                    plan: plan, main: &main, echo: &echo, count: count, range: range, scratch: scratch,
                    mainOut: mainOut, echoOut: echoOut)
        #endif
        default:
            ToneShaperKernelBaseline.Kernel.renderPair(
                plan: plan, main: &main, echo: &echo, count: count, range: range,
                scratch: scratch, mainOut: mainOut, echoOut: echoOut)
        }
    }

    /// One voice alone: what a silent echo leaves to do.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func renderSingle(
        plan: RenderPlan, voice: inout VoiceState, count: Int, map: FrequencyMap,
        mapStep: FrequencyMap, scratch: VoiceScratch, out: UnsafeMutablePointer<Float>
    ) {
        let range = rangeRamp(map, mapStep)
        switch plan.kernel {
        #if arch(x86_64)
            case .v4:
                ToneShaperKernelV4.Kernel.renderSingle(plan: plan, voice: &voice, count: count, range: range, scratch: scratch, out: out)
            case .v3:
                ToneShaperKernelV3.Kernel.renderSingle(plan: plan, voice: &voice, count: count, range: range, scratch: scratch, out: out)
        #endif
        default:
            ToneShaperKernelBaseline.Kernel.renderSingle(plan: plan, voice: &voice, count: count, range: range, scratch: scratch, out: out)
        }
    }

    /// The engine's steady mix (`Kernel.mix`) at `level`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func mix(
        level: KernelLevel, main: UnsafePointer<Float>, echo: UnsafePointer<Float>, echoGain: Float, gain: Float,
        limit: Float, count: Int, out: UnsafeMutablePointer<Float>
    ) {
        switch level {
        #if arch(x86_64)
            case .v4:
                ToneShaperKernelV4.Kernel.mix(main: main, echo: echo, echoGain: echoGain, gain: gain, limit: limit, count: count, out: out)
            case .v3:
                ToneShaperKernelV3.Kernel.mix(main: main, echo: echo, echoGain: echoGain, gain: gain, limit: limit, count: count, out: out)
        #endif
        default:
            ToneShaperKernelBaseline.Kernel.mix(main: main, echo: echo, echoGain: echoGain, gain: gain, limit: limit, count: count, out: out)
        }
    }

    @inline(__always)
    static func rangeRamp(_ map: FrequencyMap, _ step: FrequencyMap) -> RangeRamp {
        RangeRamp(offset: map.offset, slope: map.slope, offsetStep: step.offset, slopeStep: step.slope)
    }

    /// Frequencies live in [0, Nyquist]; NaN (which no validated input produces) becomes 0.
    @inlinable @inline(__always)
    public static func clampFrequency(_ v: Double, nyquist: Double) -> Double {
        ToneShaperDSP.clampFrequency(v, nyquist: nyquist)
    }
}

extension VoiceState {
    /// A voice starting at cycle sample `index`, its first sample at `phase` (in [0, 1)).
    public static func starting(at index: Int, phase: Double = 0, plan: RenderPlan, map: FrequencyMap) -> VoiceState {
        let v0 = clampFrequency(map.apply(plan.curveValue(at: index)), nyquist: plan.nyquist)
        var integrator = PhaseIntegrator(firstFrequency: v0, halfSamplePeriod: plan.halfSamplePeriod)
        integrator.phase += phase
        return VoiceState(cycleIndex: index, integrator: integrator)
    }
}
