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

/// Scratch memory for rendering a pair of voices: per voice two Double arrays (frequency, phase) and two of
/// fixed-point phase, and the ramp 0, 1, 2, ... that lets the inner loops count in Double
/// without converting integers.
public struct VoiceScratch {
    public static let arrays = 4
    public static let fixedArrays = 4
    let base: UnsafeMutablePointer<Double>
    let fixed: UnsafeMutablePointer<UInt64>
    /// Two arrays of cycle fractions u (main, echo): the scaling's input, in single precision.
    let fractions: UnsafeMutablePointer<Float>
    let stride: Int
    let ramp: UnsafePointer<Double>

    public init(base: UnsafeMutablePointer<Double>, fixed: UnsafeMutablePointer<UInt64>, fractions: UnsafeMutablePointer<Float>,
                stride: Int, ramp: UnsafePointer<Double>) {
        self.base = base
        self.fixed = fixed
        self.fractions = fractions
        self.stride = stride
        self.ramp = ramp
    }

    @inline(__always) func array(_ k: Int) -> UnsafeMutablePointer<Double> { base + k * stride }
    @inline(__always) func fixedArray(_ k: Int) -> UnsafeMutablePointer<UInt64> { fixed + k * stride }
    @inline(__always) func fractionArray(_ k: Int) -> UnsafeMutablePointer<Float> { fractions + k * stride }
}

/// The per-sample work of a voice pair (main and echo), free of allocation, locks and calls
/// into C: release builds have the compiler check that (`@_noAllocation`, `@_noLocks`),
/// which is what makes it safe inside the JACK process callback.
///
/// It works in stages over a block, so that only one integer add per sample is serial:
/// A. each sample's frequency v (from the curve grid and the range map) and cycle position u;
/// B. each sample's trapezoid in fixed point (vectorised), then the running sum of them,
///    the phase (`PhaseIntegrator`), for both voices in one loop;
/// C. wave and scaling, branch-free loops the compiler vectorises.
public enum VoiceKernel {
    #if REALTIME_PROOF
    @_noLocks @_noAllocation
    #endif
    public static func renderPair(plan: RenderPlan, main: inout VoiceState, echo: inout VoiceState, count: Int,
                                  map: FrequencyMap, mapStep: FrequencyMap, scratch: VoiceScratch,
                                  mainOut: UnsafeMutablePointer<Float>, echoOut: UnsafeMutablePointer<Float>) {
        let vMain = scratch.array(0), uMain = scratch.fractionArray(0), pMain = scratch.array(1)
        let vEcho = scratch.array(2), uEcho = scratch.fractionArray(1), pEcho = scratch.array(3)
        let stepsMain = scratch.fixedArray(0), xMain = scratch.fixedArray(1)
        let stepsEcho = scratch.fixedArray(2), xEcho = scratch.fixedArray(3)
        frequencies(plan: plan, voice: &main, count: count, map: map, mapStep: mapStep, ramp: scratch.ramp, v: vMain, u: uMain)
        frequencies(plan: plan, voice: &echo, count: count, map: map, mapStep: mapStep, ramp: scratch.ramp, v: vEcho, u: uEcho)
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
    public static func renderSingle(plan: RenderPlan, voice: inout VoiceState, count: Int, map: FrequencyMap,
                                    mapStep: FrequencyMap, scratch: VoiceScratch, out: UnsafeMutablePointer<Float>) {
        let v = scratch.array(0), u = scratch.fractionArray(0), p = scratch.array(1)
        let stepArray = scratch.fixedArray(0), x = scratch.fixedArray(1)
        frequencies(plan: plan, voice: &voice, count: count, map: map, mapStep: mapStep, ramp: scratch.ramp, v: v, u: u)
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

    /// Stage A: v[i] in Hz (clamped to [0, Nyquist]) and u[i], the cycle fraction.
    ///
    /// v at cycle sample n is the grid's linear interpolant at position n * N / (S - 1)
    /// (SPEC 3 step 3, `gridValue`), mapped to the live range. Three ways to the same values,
    /// chosen by how many samples a grid cell lasts, so that the cost stays low whatever
    /// the points, the fidelity or the duration (SPEC 3):
    /// - cells under 16 samples: the plan holds the curve at every sample (`sampleCurve`);
    /// - cells of 16 samples or more: cell by cell, a plain loop along each;
    /// - short cells in a cycle too long for `sampleCurve` (over 44 s at 48 kHz): eight
    ///   samples at a time, their cells picked from four broadcast values or gathered.
    /// Runs stop at the cycle's end.
    @inline(__always)
    static func frequencies(plan: RenderPlan, voice: inout VoiceState, count: Int, map: FrequencyMap, mapStep: FrequencyMap,
                            ramp: UnsafePointer<Double>, v: UnsafeMutablePointer<Double>, u: UnsafeMutablePointer<Float>) {
        let fraction = plan.cycleFractionPerSample, cycleLength = plan.cycleLength
        var n = voice.cycleIndex
        var i = 0
        while i < count {
            let run = min(cycleLength - n, count - i)
            let start = Double(n)
            if mapStep.offset == 0 && mapStep.slope == 0 {
                // No range ramp under way: the common case, a little cheaper.
                curveRun(plan: plan, n: n, run: run, range: SteadyMap(offset: map.offset, slope: map.slope, nyquist: plan.nyquist),
                         ramp: ramp, out: v + i)
            } else {
                curveRun(plan: plan, n: n, run: run,
                         range: RampedMap(offset: map.offset + mapStep.offset * Double(i), slope: map.slope + mapStep.slope * Double(i),
                                          offsetStep: mapStep.offset, slopeStep: mapStep.slope, nyquist: plan.nyquist),
                         ramp: ramp, out: v + i)
            }
            // The cycle fraction feeds only the scaling.
            if plan.scale != .none {
                let cyc = u + i
                for k in 0..<run { cyc[k] = Float((start + ramp[k]) * fraction) }
            }
            n += run
            if n == cycleLength { n = 0 }
            i += run
        }
        voice.cycleIndex = n
    }

    /// One run of stage A (within one cycle) from cycle sample n, the way the plan's cells call for.
    @inline(__always)
    static func curveRun<Range: RangeMapping>(plan: RenderPlan, n: Int, run: Int, range: Range, ramp: UnsafePointer<Double>,
                                              out: UnsafeMutablePointer<Double>) {
        if let table = plan.sampleCurve {
            let curve = table + n
            for k in 0..<run { out[k] = range.apply(curve[k], at: ramp[k]) }
        } else if plan.gridStep <= 1.0 / 16 {
            alongCells(plan: plan, start: Double(n), run: run, range: range, ramp: ramp, out: out)
        } else {
            inWindows(plan: plan, start: Double(n), run: run, range: range, ramp: ramp, out: out)
        }
    }

    /// From curve values (in the plan's base range) to Hz in the live range, clamped into
    /// [0, Nyquist] (NaN, which no valid input makes, becomes 0 too). r is the sample's
    /// place in the run, which matters only while the range ramps.
    protocol RangeMapping {
        func apply(_ curve: Double, at r: Double) -> Double
        func apply(_ curve: SIMD8<Double>, at r: SIMD8<Double>) -> SIMD8<Double>
        /// The straight line c0 + slope * q of curve values, mapped: a line again when the
        /// map does not ramp (nil when it does).
        func mapLine(_ c0: Double, _ slope: Double) -> (Double, Double)?
        func clamp(_ f: Double) -> Double
    }

    struct SteadyMap: RangeMapping {
        let offset: Double, slope: Double, nyquist: Double

        @inline(__always) func apply(_ curve: Double, at r: Double) -> Double {
            let f = offset + slope * curve
            let low = f >= 0 ? f : 0
            return low > nyquist ? nyquist : low
        }

        @inline(__always) func apply(_ curve: SIMD8<Double>, at r: SIMD8<Double>) -> SIMD8<Double> {
            clampSIMD(offset + slope * curve, nyquist)
        }

        @inline(__always) func mapLine(_ c0: Double, _ slope: Double) -> (Double, Double)? {
            (offset + self.slope * c0, self.slope * slope)
        }

        @inline(__always) func clamp(_ f: Double) -> Double {
            let low = f >= 0 ? f : 0
            return low > nyquist ? nyquist : low
        }
    }

    /// Offset and slope moving by a step per sample, while a range change ramps.
    struct RampedMap: RangeMapping {
        let offset: Double, slope: Double, offsetStep: Double, slopeStep: Double, nyquist: Double

        @inline(__always) func apply(_ curve: Double, at r: Double) -> Double {
            let f = (offset + offsetStep * r) + (slope + slopeStep * r) * curve
            let low = f >= 0 ? f : 0
            return low > nyquist ? nyquist : low
        }

        @inline(__always) func apply(_ curve: SIMD8<Double>, at r: SIMD8<Double>) -> SIMD8<Double> {
            clampSIMD((offset + offsetStep * r) + (slope + slopeStep * r) * curve, nyquist)
        }

        @inline(__always) func mapLine(_ c0: Double, _ slope: Double) -> (Double, Double)? { nil }

        @inline(__always) func clamp(_ f: Double) -> Double {
            let low = f >= 0 ? f : 0
            return low > nyquist ? nyquist : low
        }
    }

    @inline(__always)
    static func clampSIMD(_ f: SIMD8<Double>, _ nyquist: Double) -> SIMD8<Double> {
        var clamped = SIMD8<Double>(repeating: 0)
        clamped.replace(with: f, where: f .>= 0)
        clamped.replace(with: nyquist, where: clamped .> nyquist)
        return clamped
    }

    /// Cells of 16 samples or more: cell by cell, a loop the compiler vectorises along each.
    /// Along a cell the interpolant a + d (n step - cell) is c0 + slope (n - first), c0 its
    /// value at the cell's first sample: one multiply-add per sample, and a function of n
    /// alone (not of where the run began), so periods of any size give the same values.
    @inline(__always)
    static func alongCells<Range: RangeMapping>(plan: RenderPlan, start: Double, run: Int, range: Range, ramp: UnsafePointer<Double>,
                                                out: UnsafeMutablePointer<Double>) {
        let step = plan.gridStep, grid = plan.grid
        if step == 0 {
            for k in 0..<run { out[k] = range.apply(grid[0], at: ramp[k]) }
            return
        }
        let inverse = 1 / step
        var cell = Double(Int(start * step))
        var first = firstSample(of: cell, step: step, inverse: inverse)
        var k = 0
        while k < run {
            let next = firstSample(of: cell + 1, step: step, inverse: inverse)
            let end = min(run, Int(next - start))
            let j = Int(cell)
            let a = grid[j], d = grid[j + 1] - a
            let c0 = a + d * (first * step - cell), slope = d * step
            let offset = start - first                  // an integer: exact
            if let (mapped0, mappedSlope) = range.mapLine(c0, slope) {
                // No range ramp: the map folded into the line, as cheap as reading a table.
                for m in k..<end { out[m] = range.clamp(mapped0 + mappedSlope * (offset + ramp[m])) }
            } else {
                for m in k..<end {
                    let r = ramp[m]
                    out[m] = range.apply(c0 + slope * (offset + r), at: r)
                }
            }
            k = end
            cell += 1
            first = next
        }
    }

    /// The first cycle sample n in grid cell `cell`: the least n with n * step >= cell, by
    /// the very product `gridValue`'s position is, so both put every sample in the same cell.
    @inline(__always)
    static func firstSample(of cell: Double, step: Double, inverse: Double) -> Double {
        var n = Double(Int(cell * inverse))
        while n > 0 && (n - 1) * step >= cell { n -= 1 }
        while n * step < cell { n += 1 }
        return n
    }

    /// Cells under 16 samples in a cycle too long for `sampleCurve`: eight
    /// samples at a time in vector registers. When they lie in at most three neighbouring
    /// cells, four grid values are broadcast and each lane picks its cell's; otherwise each
    /// lane loads its own two (a gather).
    @inline(__always)
    static func inWindows<Range: RangeMapping>(plan: RenderPlan, start: Double, run: Int, range: Range, ramp: UnsafePointer<Double>,
                          out: UnsafeMutablePointer<Double>) {
        let step = plan.gridStep, grid = plan.grid
        let magic = SIMD8<Double>(repeating: 6755399441055744.0)   // 1.5 * 2^52: adding it rounds to an integer
        var k = 0
        while k + 8 <= run {
            let r = SIMD8<Double>(repeating: Double(k)) + VoiceKernel.lanes
            let position = (SIMD8<Double>(repeating: start) + r) * step
            let nearest = (position + magic) - magic
            var cell = nearest
            cell.replace(with: nearest - 1, where: nearest .> position)          // floor
            let fraction = position - cell
            let indices = cell + magic                                          // low bits: the cell
            let first = cell[0]
            let a: SIMD8<Double>, b: SIMD8<Double>
            if cell[7] - first <= 2 {
                let j = Int(truncatingIfNeeded: indices[0].bitPattern & 0xFFFF_FFFF)
                let w0 = grid[j], w1 = grid[j + 1], w2 = grid[j + 2], w3 = grid[j + 3]
                let offset = cell - SIMD8(repeating: first)
                let one = offset .== 1, two = offset .== 2
                var lower = SIMD8(repeating: w0), upper = SIMD8(repeating: w1)
                lower.replace(with: w1, where: one); lower.replace(with: w2, where: two)
                upper.replace(with: w2, where: one); upper.replace(with: w3, where: two)
                a = lower; b = upper
            } else {
                let bytes = UnsafeRawPointer(grid)
                @inline(__always) func pair(_ lane: Int) -> SIMD2<Double> {
                    bytes.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: indices[lane].bitPattern & 0xFFFF_FFFF) &* 8,
                                        as: SIMD2<Double>.self)
                }
                let c0 = pair(0), c1 = pair(1), c2 = pair(2), c3 = pair(3), c4 = pair(4), c5 = pair(5), c6 = pair(6), c7 = pair(7)
                a = SIMD8(c0[0], c1[0], c2[0], c3[0], c4[0], c5[0], c6[0], c7[0])
                b = SIMD8(c0[1], c1[1], c2[1], c3[1], c4[1], c5[1], c6[1], c7[1])
            }
            let value = range.apply(a + (b - a) * fraction, at: r)
            UnsafeMutableRawPointer(out + k).storeBytes(of: value, as: SIMD8<Double>.self)
            k += 8
        }
        while k < run {
            let r = ramp[k]
            out[k] = range.apply(gridValue(grid, at: (start + r) * step), at: r)
            k += 1
        }
    }

    @inline(__always) static var lanes: SIMD8<Double> { SIMD8(0, 1, 2, 3, 4, 5, 6, 7) }

    /// The grid's linear interpolant at `position` >= 0 (SPEC 3 step 3): cell floor(position),
    /// fraction position - floor(position).
    @inlinable @inline(__always)
    static func gridValue(_ grid: UnsafePointer<Double>, at position: Double) -> Double {
        let cell = Double(Int(position))
        let j = Int(cell)
        let a = grid[j]
        return a + (grid[j + 1] - a) * (position - cell)
    }

    /// Stage C: out[i] = wave(phase[i]) * scale(u[i]), in single precision (the output's).
    /// The sine reads its phase straight from the fixed-point sum (its top 24 bits, all a Float
    /// holds); the other waves get it in Double, with each sample's step for anti-aliasing.
    @inline(__always)
    static func shape(plan: RenderPlan, count: Int, v: UnsafeMutablePointer<Double>, u: UnsafeMutablePointer<Float>,
                      x: UnsafePointer<UInt64>, steps: UnsafePointer<UInt64>,
                      phase: UnsafeMutablePointer<Double>, out: UnsafeMutablePointer<Float>) {
        let antiAliased = plan.antiAliased
        if plan.wave.isFourier || (!antiAliased && plan.wave != .sine) {
            for i in 0..<count { phase[i] = PhaseIntegrator.cycles(x[i]) }
        }
        switch plan.wave {
        case .sine:
            if plan.scale == .sine {
                // The benchmark's case, in one pass: wave and scaling both sines.
                for i in 0..<count { out[i] = sinUnit(floatPhase(x[i])) * sinUnit(u[i] * 0.5) }
                return
            }
            for i in 0..<count { out[i] = sinUnit(floatPhase(x[i])) }
        case .square:
            if antiAliased { for i in 0..<count { out[i] = FixedPointWaves.square(x[i], steps[i]) } }
            else { for i in 0..<count { out[i] = phase[i] < 0.5 ? 1 : -1 } }
        case .triangle:
            if antiAliased { for i in 0..<count { out[i] = FixedPointWaves.triangle(x[i], steps[i]) } }
            else { for i in 0..<count { out[i] = Float(UnitWave.naive(.triangle, phase[i])) } }
        case .sawtooth:
            if antiAliased { for i in 0..<count { out[i] = FixedPointWaves.sawtooth(x[i], steps[i]) } }
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
        case .linear: for i in 0..<count { out[i] *= 1 - u[i] }
        case .sine: for i in 0..<count { out[i] *= sinUnit(u[i] * 0.5) }
        case .triangle: for i in 0..<count { let x = u[i]; out[i] *= x <= 0.5 ? 2 * x : 2 * (1 - x) }
        case .parabolic: for i in 0..<count { let x = u[i] - 1; out[i] *= x * x }
        case .exponential, .twoStep, .wideTwoStep:
            let scale = plan.scale
            for i in 0..<count { out[i] *= Float(AmplitudeScaling.value(scale, at: Double(u[i]))) }
        }
    }

    /// The top 24 bits of a fixed-point phase as a Float in [0, 1) (all a Float holds there),
    /// through a 32-bit integer conversion, which vectorises.
    @inline(__always)
    static func floatPhase(_ x: UInt64) -> Float {
        Float(Int32(truncatingIfNeeded: (x >> 28) & 0xFF_FFFF)) * 0x1p-24
    }

    /// Frequencies live in [0, Nyquist]; NaN (which no validated input produces) becomes 0.
    @inlinable @inline(__always)
    public static func clampFrequency(_ v: Double, nyquist: Double) -> Double {
        if v > nyquist { return nyquist }
        if v >= 0 { return v }
        return 0
    }
}
