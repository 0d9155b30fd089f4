import ToneShaperDSP

// This directory is compiled once per instruction-set level: ToneShaperKernelBaseline is
// these files, and ToneShaperKernelV3 and ToneShaperKernelV4 are symbolic links to it, built
// with other compiler flags (see Package.swift and `KernelLevel`). `VoiceKernel` in
// ToneShaperAudio calls the level the plan names. Everything the loops call is either here
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
    // Compiled here, at this module's x86-64 level, and only called from other modules:
    // Embedded Swift would otherwise compile a copy into each caller at the caller's level
    // (the baseline), and its fused multiply-adds would become calls to libm's fmaf.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @export(interface)
    public static func renderPair(
        plan: RenderPlan, main: inout VoiceState, echo: inout VoiceState, count: Int,
        range: RangeRamp, scratch: VoiceScratch,
        mainOut: UnsafeMutablePointer<Float>, echoOut: UnsafeMutablePointer<Float>
    ) {
        let vMain = scratch.array(0)
        let uMain = scratch.fractionArray(0)
        let pMain = scratch.array(1)
        let vEcho = scratch.array(2)
        let uEcho = scratch.fractionArray(1)
        let pEcho = scratch.array(3)
        let stepsMain = scratch.fixedArray(0)
        let xMain = scratch.fixedArray(1)
        let stepsEcho = scratch.fixedArray(2)
        let xEcho = scratch.fixedArray(3)
        frequencies(plan: plan, voice: &main, count: count, range: range, ramp: scratch.ramp, v: vMain, u: uMain)
        frequencies(plan: plan, voice: &echo, count: count, range: range, ramp: scratch.ramp, v: vEcho, u: uEcho)
        let scale = plan.halfSamplePeriod * PhaseIntegrator.unitsPerCycle
        steps(first: main.integrator.lastFrequency, v: vMain, count: count, scale: scale, out: stepsMain)
        steps(first: echo.integrator.lastFrequency, v: vEcho, count: count, scale: scale, out: stepsEcho)
        if plan.wave == .sine {
            accumulate(
                &main.integrator.fixedPhase, &echo.integrator.fixedPhase, stepsMain, stepsEcho, count: count,
                into: PhaseBits(xMain), PhaseBits(xEcho))
        } else {
            accumulate(
                &main.integrator.fixedPhase, &echo.integrator.fixedPhase, stepsMain, stepsEcho, count: count,
                into: FixedPhases(xMain), FixedPhases(xEcho))
        }
        main.integrator.lastFrequency = vMain[count - 1]
        echo.integrator.lastFrequency = vEcho[count - 1]
        shape(plan: plan, count: count, v: vMain, u: uMain, x: xMain, steps: stepsMain, phase: pMain, out: mainOut)
        shape(plan: plan, count: count, v: vEcho, u: uEcho, x: xEcho, steps: stepsEcho, phase: pEcho, out: echoOut)
    }

    /// One voice alone: what a silent echo leaves to do.
    // Compiled here, at this module's x86-64 level, and only called from other modules:
    // Embedded Swift would otherwise compile a copy into each caller at the caller's level
    // (the baseline), and its fused multiply-adds would become calls to libm's fmaf.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @export(interface)
    public static func renderSingle(
        plan: RenderPlan, voice: inout VoiceState, count: Int, range: RangeRamp,
        scratch: VoiceScratch, out: UnsafeMutablePointer<Float>
    ) {
        let v = scratch.array(0)
        let u = scratch.fractionArray(0)
        let p = scratch.array(1)
        let stepArray = scratch.fixedArray(0)
        let x = scratch.fixedArray(1)
        frequencies(plan: plan, voice: &voice, count: count, range: range, ramp: scratch.ramp, v: v, u: u)
        steps(
            first: voice.integrator.lastFrequency, v: v, count: count,
            scale: plan.halfSamplePeriod * PhaseIntegrator.unitsPerCycle, out: stepArray)
        if plan.wave == .sine {
            accumulate(&voice.integrator.fixedPhase, steps: stepArray, count: count, into: PhaseBits(x))
        } else {
            accumulate(&voice.integrator.fixedPhase, steps: stepArray, count: count, into: FixedPhases(x))
        }
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

    /// Stage B, second half: the running sum of the steps from `phase`, which is the phase
    /// (left wrapped in `phase`). The one serial loop of the kernel: an integer add per sample.
    @inline(__always)
    static func accumulate<Sink: PhaseSink>(_ phase: inout UInt64, steps: UnsafePointer<UInt64>, count: Int, into x: Sink) {
        var a = phase
        var i = 0
        while i < count {
            a &+= steps[i]
            x.store(a, at: i)
            i += 1
        }
        phase = a & PhaseIntegrator.mask
    }

    /// Both voices' running sums in one loop, so that the two serial chains overlap.
    @inline(__always)
    static func accumulate<Sink: PhaseSink>(
        _ mainPhase: inout UInt64, _ echoPhase: inout UInt64,
        _ mainSteps: UnsafePointer<UInt64>, _ echoSteps: UnsafePointer<UInt64>, count: Int,
        into mainX: Sink, _ echoX: Sink
    ) {
        var a = mainPhase
        var b = echoPhase
        var i = 0
        while i < count {
            a &+= mainSteps[i]
            mainX.store(a, at: i)
            b &+= echoSteps[i]
            echoX.store(b, at: i)
            i += 1
        }
        mainPhase = a & PhaseIntegrator.mask
        echoPhase = b & PhaseIntegrator.mask
    }
}

/// What stage B keeps of each phase: what the wave needs, and nothing more.
protocol PhaseSink {
    func store(_ phase: UInt64, at i: Int)
}

/// The 64-bit phases, for the waves that find their corners in them.
struct FixedPhases: PhaseSink {
    let x: UnsafeMutablePointer<UInt64>
    init(_ x: UnsafeMutablePointer<UInt64>) { self.x = x }
    @inline(__always) func store(_ phase: UInt64, at i: Int) { x[i] = phase }
}

/// For the sine: 32 bits of each phase, bits 28 to 59 (`Kernel.floatPhase` keeps the low 24
/// of them), packed into the first half of the 64-bit array. Shifting here, in the serial
/// loop's spare integer slots, lets the wave's pass read them eight to a vector, with no
/// 64-bit lanes to narrow.
struct PhaseBits: PhaseSink {
    let bits: UnsafeMutableRawPointer
    init(_ x: UnsafeMutablePointer<UInt64>) { bits = UnsafeMutableRawPointer(x) }
    @inline(__always) func store(_ phase: UInt64, at i: Int) {
        bits.storeBytes(of: UInt32(truncatingIfNeeded: phase >> 28), toByteOffset: i &* 4, as: UInt32.self)
    }

    /// The phase at i as a Float in [0, 1), as `Kernel.floatPhase` makes it from the whole phase.
    @inline(__always) static func floatPhase(_ bits: UnsafeRawPointer, at i: Int) -> Float {
        Float(Int32(truncatingIfNeeded: bits.load(fromByteOffset: i &* 4, as: UInt32.self) & 0xFF_FFFF)) * 0x1p-24
    }
}
