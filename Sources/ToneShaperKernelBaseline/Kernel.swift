import ToneShaperDSP

// This directory is compiled once per instruction-set level: ToneShaperKernelBaseline is
// these files, and ToneShaperKernelV3 and ToneShaperKernelV4 are symbolic links to it, built
// with other compiler flags (see Package.swift and `KernelLevel`). `VoiceKernel` in
// ToneShaperCore calls the level the plan names. Everything the loops call is either here
// or `@inlinable` in ToneShaperDSP, so that it is compiled, and inlined, with this level's
// instructions.

/// The per-sample work of a voice pair (main and echo), free of allocation, locks and calls
/// into C: release builds have the compiler check that (`@_noAllocation`, `@_noLocks`),
/// which is what makes it safe inside the JACK process callback.
///
/// It works in stages over a block, so that only one integer add per sample is serial:
/// A. each sample's frequency v (from the curve grid and the range map) and cycle position u;
/// B. each sample's trapezoid in fixed point (vectorised), then the running sum of them,
///    the phase (`PhaseIntegrator`), for both voices in one loop;
/// C. wave and scaling, branch-free loops the compiler vectorises.
public enum Kernel {
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public static func renderPair(plan: RenderPlan, main: inout VoiceState, echo: inout VoiceState, count: Int,
                                  range: RangeRamp, scratch: VoiceScratch,
                                  mainOut: UnsafeMutablePointer<Float>, echoOut: UnsafeMutablePointer<Float>) {
        let vMain = scratch.array(0), uMain = scratch.fractionArray(0), pMain = scratch.array(1)
        let vEcho = scratch.array(2), uEcho = scratch.fractionArray(1), pEcho = scratch.array(3)
        let stepsMain = scratch.fixedArray(0), xMain = scratch.fixedArray(1)
        let stepsEcho = scratch.fixedArray(2), xEcho = scratch.fixedArray(3)
        frequencies(plan: plan, voice: &main, count: count, range: range, ramp: scratch.ramp, v: vMain, u: uMain)
        frequencies(plan: plan, voice: &echo, count: count, range: range, ramp: scratch.ramp, v: vEcho, u: uEcho)
        let scale = plan.halfSamplePeriod * PhaseIntegrator.unitsPerCycle
        steps(first: main.integrator.lastFrequency, v: vMain, count: count, scale: scale, out: stepsMain)
        steps(first: echo.integrator.lastFrequency, v: vEcho, count: count, scale: scale, out: stepsEcho)
        var a = main.integrator.fixedPhase, b = echo.integrator.fixedPhase
        var i = 0
        while i < count {
            a &+= stepsMain[i]; xMain[i] = a
            b &+= stepsEcho[i]; xEcho[i] = b
            i += 1
        }
        main.integrator.fixedPhase = a & PhaseIntegrator.mask
        echo.integrator.fixedPhase = b & PhaseIntegrator.mask
        main.integrator.lastFrequency = vMain[count - 1]
        echo.integrator.lastFrequency = vEcho[count - 1]
        shape(plan: plan, count: count, v: vMain, u: uMain, x: xMain, steps: stepsMain, phase: pMain, out: mainOut)
        shape(plan: plan, count: count, v: vEcho, u: uEcho, x: xEcho, steps: stepsEcho, phase: pEcho, out: echoOut)
    }

    /// One voice alone: what a silent echo leaves to do.
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public static func renderSingle(plan: RenderPlan, voice: inout VoiceState, count: Int, range: RangeRamp,
                                    scratch: VoiceScratch, out: UnsafeMutablePointer<Float>) {
        let v = scratch.array(0), u = scratch.fractionArray(0), p = scratch.array(1)
        let stepArray = scratch.fixedArray(0), x = scratch.fixedArray(1)
        frequencies(plan: plan, voice: &voice, count: count, range: range, ramp: scratch.ramp, v: v, u: u)
        steps(first: voice.integrator.lastFrequency, v: v, count: count,
              scale: plan.halfSamplePeriod * PhaseIntegrator.unitsPerCycle, out: stepArray)
        voice.integrator.fixedPhase = accumulate(voice.integrator.fixedPhase, steps: stepArray, count: count, into: x)
        voice.integrator.lastFrequency = v[count - 1]
        shape(plan: plan, count: count, v: v, u: u, x: x, steps: stepArray, phase: p, out: out)
    }

    /// Stage B, first half: each sample's trapezoid (v[i-1] + v[i]) h in fixed-point units,
    /// v[-1] being `first`, the frequency carried from the last block (see `PhaseIntegrator.step`).
    @inline(__always)
    static func steps(first: Double, v: UnsafePointer<Double>, count: Int, scale: Double, out: UnsafeMutablePointer<UInt64>) {
        out[0] = PhaseIntegrator.step(first, v[0], scale: scale)
        var i = 1
        while i < count {
            out[i] = PhaseIntegrator.step(v[i - 1], v[i], scale: scale)
            i += 1
        }
    }

    /// Stage B, second half: the running sum of the steps from `start`, which is the phase;
    /// returns the last one, wrapped.
    @inline(__always)
    static func accumulate(_ start: UInt64, steps: UnsafePointer<UInt64>, count: Int, into x: UnsafeMutablePointer<UInt64>) -> UInt64 {
        var a = start
        var i = 0
        while i < count {
            a &+= steps[i]
            x[i] = a
            i += 1
        }
        return a & PhaseIntegrator.mask
    }
}
