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

/// Scratch memory for rendering a pair of voices: four arrays per voice, and the ramp
/// 0, 1, 2, ... that lets the inner loops count in Double without converting integers.
public struct VoiceScratch {
    public static let arrays = 8
    let base: UnsafeMutablePointer<Double>
    let stride: Int
    let ramp: UnsafePointer<Double>

    public init(base: UnsafeMutablePointer<Double>, stride: Int, ramp: UnsafePointer<Double>) {
        self.base = base
        self.stride = stride
        self.ramp = ramp
    }

    @inline(__always) func array(_ k: Int) -> UnsafeMutablePointer<Double> { base + k * stride }
}

/// The per-sample work of a voice pair (main and echo), free of allocation, locks and calls
/// into C: release builds have the compiler check that (`@_noAllocation`, `@_noLocks`),
/// which is what makes it safe inside the JACK process callback.
///
/// It works in three stages over a block, so that only the integrator is serial:
/// A. each sample's frequency v (from the curve grid and the range map) and cycle position u;
/// B. the trapezoid integrator for both voices in one loop (two independent chains);
/// C. wave and scaling, branch-free loops the compiler vectorises.
public enum VoiceKernel {
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public static func renderPair(plan: RenderPlan, main: inout VoiceState, echo: inout VoiceState, count: Int,
                                  map: FrequencyMap, mapStep: FrequencyMap, scratch: VoiceScratch,
                                  mainOut: UnsafeMutablePointer<Float>, echoOut: UnsafeMutablePointer<Float>) {
        let vMain = scratch.array(0), uMain = scratch.array(1), pMain = scratch.array(2), dMain = scratch.array(3)
        let vEcho = scratch.array(4), uEcho = scratch.array(5), pEcho = scratch.array(6), dEcho = scratch.array(7)
        frequencies(plan: plan, voice: &main, count: count, map: map, mapStep: mapStep, ramp: scratch.ramp, v: vMain, u: uMain)
        frequencies(plan: plan, voice: &echo, count: count, map: map, mapStep: mapStep, ramp: scratch.ramp, v: vEcho, u: uEcho)
        integrate(h: plan.halfSamplePeriod, count: count, main: &main.integrator, echo: &echo.integrator,
                  vMain: vMain, vEcho: vEcho, pMain: pMain, dMain: dMain, pEcho: pEcho, dEcho: dEcho)
        shape(plan: plan, count: count, v: vMain, u: uMain, phase: pMain, dt: dMain, out: mainOut)
        shape(plan: plan, count: count, v: vEcho, u: uEcho, phase: pEcho, dt: dEcho, out: echoOut)
    }

    /// One voice alone: what a silent echo leaves to do.
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public static func renderSingle(plan: RenderPlan, voice: inout VoiceState, count: Int, map: FrequencyMap,
                                    mapStep: FrequencyMap, scratch: VoiceScratch, out: UnsafeMutablePointer<Float>) {
        let v = scratch.array(0), u = scratch.array(1), p = scratch.array(2), d = scratch.array(3)
        frequencies(plan: plan, voice: &voice, count: count, map: map, mapStep: mapStep, ramp: scratch.ramp, v: v, u: u)
        let h = plan.halfSamplePeriod
        var integrator = voice.integrator
        var i = 0
        while i < count {
            let f = v[i]
            d[i] = (integrator.lastFrequency + f) * h
            p[i] = integrator.advance(f, halfSamplePeriod: h)
            i += 1
        }
        voice.integrator = integrator
        shape(plan: plan, count: count, v: v, u: u, phase: p, dt: d, out: out)
    }

    /// Stage A: v[i] in Hz (clamped to [0, Nyquist]) and u[i], the cycle fraction.
    ///
    /// The same few operations for every sample whatever the curve (SPEC 3: cost must not
    /// depend on the points or the fidelity): position n * N / (S - 1), then `gridValue`.
    /// Runs stop at the cycle's end.
    @inline(__always)
    static func frequencies(plan: RenderPlan, voice: inout VoiceState, count: Int, map: FrequencyMap, mapStep: FrequencyMap,
                            ramp: UnsafePointer<Double>, v: UnsafeMutablePointer<Double>, u: UnsafeMutablePointer<Double>) {
        let nyquist = plan.nyquist, step = plan.gridStep, fraction = plan.cycleFractionPerSample
        let grid = plan.grid, cycleLength = plan.cycleLength
        var n = voice.cycleIndex
        var i = 0
        while i < count {
            let run = min(cycleLength - n, count - i)
            let start = Double(n)
            let out = v + i, cyc = u + i
            let offset0 = map.offset + mapStep.offset * Double(i), slope0 = map.slope + mapStep.slope * Double(i)
            if mapStep.offset == 0 && mapStep.slope == 0 {
                // No range ramp under way: the common case, a little cheaper.
                for k in 0..<run {
                    let f = map.offset + map.slope * gridValue(grid, at: (start + ramp[k]) * step)
                    let low = f < 0 ? 0 : f
                    out[k] = low > nyquist ? nyquist : low
                }
            } else {
                for k in 0..<run {
                    let r = ramp[k]
                    let curve = gridValue(grid, at: (start + r) * step)
                    let f = (offset0 + mapStep.offset * r) + (slope0 + mapStep.slope * r) * curve
                    let low = f < 0 ? 0 : f
                    out[k] = low > nyquist ? nyquist : low
                }
            }
            // The cycle fraction feeds only the scaling.
            if plan.scale != .none {
                for k in 0..<run { cyc[k] = (start + ramp[k]) * fraction }
            }
            n += run
            if n == cycleLength { n = 0 }
            i += run
        }
        voice.cycleIndex = n
    }

    /// The grid's linear interpolant at `position` (SPEC 3 step 3). The cell index comes
    /// from the 1.5 * 2^52 rounding trick rather than a checked conversion, so loops over it
    /// have no branch; at an exact cell edge it may pick the cell below with fraction 1,
    /// which gives the same value.
    @inline(__always)
    static func gridValue(_ grid: UnsafePointer<Double>, at position: Double) -> Double {
        let magic = 6755399441055744.0              // 1.5 * 2^52: adding it rounds to an integer
        let rounded = (position - 0.5) + magic
        let j = Int(truncatingIfNeeded: rounded.bitPattern & 0xFFFF_FFFF)
        let a = grid[j]
        return a + (grid[j + 1] - a) * (position - (rounded - magic))
    }

    /// Stage B: the phases, and each sample's phase step (for anti-aliasing).
    @inline(__always)
    static func integrate(h: Double, count: Int, main: inout PhaseIntegrator, echo: inout PhaseIntegrator,
                          vMain: UnsafeMutablePointer<Double>, vEcho: UnsafeMutablePointer<Double>,
                          pMain: UnsafeMutablePointer<Double>, dMain: UnsafeMutablePointer<Double>,
                          pEcho: UnsafeMutablePointer<Double>, dEcho: UnsafeMutablePointer<Double>) {
        var a = main, b = echo
        var i = 0
        while i < count {
            let va = vMain[i], vb = vEcho[i]
            dMain[i] = (a.lastFrequency + va) * h
            dEcho[i] = (b.lastFrequency + vb) * h
            pMain[i] = a.advance(va, halfSamplePeriod: h)
            pEcho[i] = b.advance(vb, halfSamplePeriod: h)
            i += 1
        }
        main = a
        echo = b
    }

    /// Stage C: out[i] = wave(phase[i]) * scale(u[i]), in single precision (the output's),
    /// from the double-precision phase and cycle position.
    @inline(__always)
    static func shape(plan: RenderPlan, count: Int, v: UnsafeMutablePointer<Double>, u: UnsafeMutablePointer<Double>,
                      phase: UnsafeMutablePointer<Double>, dt: UnsafeMutablePointer<Double>, out: UnsafeMutablePointer<Float>) {
        let antiAliased = plan.antiAliased
        switch plan.wave {
        case .sine:
            for i in 0..<count { out[i] = sinUnit(Float(phase[i])) }
        case .square:
            if antiAliased { for i in 0..<count { out[i] = Float(UnitWave.squareAA(phase[i], dt[i])) } }
            else { for i in 0..<count { out[i] = phase[i] < 0.5 ? 1 : -1 } }
        case .triangle:
            if antiAliased { for i in 0..<count { out[i] = Float(UnitWave.triangleAA(phase[i], dt[i])) } }
            else { for i in 0..<count { out[i] = Float(UnitWave.naive(.triangle, phase[i])) } }
        case .sawtooth:
            if antiAliased { for i in 0..<count { out[i] = Float(UnitWave.sawtoothAA(phase[i], dt[i])) } }
            else { for i in 0..<count { out[i] = Float(2 * phase[i] - 1) } }
        case .squareFourier, .triangleFourier, .sawtoothFourier:
            // Band-limited tables (see FourierWavetables): per sample, the table of the
            // largest level whose partials all lie below Nyquist and within `fourierTerms`,
            // read by cubic B-spline at the phase. The same few operations whatever the
            // frequency or the number of terms; `UnitWave.fourier` is the formula it follows.
            if let tables = plan.fourierTables {
                tables.render(frequencies: v, phases: phase, count: count, nyquist: plan.nyquist, out: out)
            } else {
                for i in 0..<count { out[i] = 0 }
            }
        }
        switch plan.scale {
        case .none: break
        case .linear: for i in 0..<count { out[i] *= Float(1 - u[i]) }
        case .sine: for i in 0..<count { out[i] *= sinUnit(Float(u[i] * 0.5)) }
        case .triangle: for i in 0..<count { let x = u[i]; out[i] *= Float(x <= 0.5 ? 2 * x : 2 * (1 - x)) }
        case .parabolic: for i in 0..<count { let x = u[i] - 1; out[i] *= Float(x * x) }
        case .exponential, .twoStep, .wideTwoStep:
            let scale = plan.scale
            for i in 0..<count { out[i] *= Float(AmplitudeScaling.value(scale, at: u[i])) }
        }
    }

    /// Frequencies live in [0, Nyquist]; NaN (which no validated input produces) becomes 0.
    @inlinable @inline(__always)
    public static func clampFrequency(_ v: Double, nyquist: Double) -> Double {
        if v > nyquist { return nyquist }
        if v >= 0 { return v }
        return 0
    }
}
