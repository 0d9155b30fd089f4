import ToneShaperDSP
import ToneShaperParameters

extension Kernel {
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
    static func frequencies(
        plan: RenderPlan, voice: inout VoiceState, count: Int, range: RangeRamp,
        ramp: UnsafePointer<Double>, v: UnsafeMutablePointer<Double>, u: UnsafeMutablePointer<Float>
    ) {
        let fraction = plan.cycleFractionPerSample
        let cycleLength = plan.cycleLength
        var n = voice.cycleIndex
        var i = 0
        while i < count {
            let run = min(cycleLength - n, count - i)
            let start = Double(n)
            if range.isSteady {
                // No range ramp under way: the common case, a little cheaper.
                curveRun(
                    plan: plan, n: n, run: run, range: SteadyMap(offset: range.offset, slope: range.slope, nyquist: plan.nyquist),
                    ramp: ramp, out: v + i)
            } else {
                curveRun(
                    plan: plan, n: n, run: run,
                    range: RampedMap(
                        offset: range.offset + range.offsetStep * Double(i),
                        slope: range.slope + range.slopeStep * Double(i),
                        offsetStep: range.offsetStep, slopeStep: range.slopeStep, nyquist: plan.nyquist),
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
    static func curveRun<Range: RangeMapping>(
        plan: RenderPlan, n: Int, run: Int, range: Range, ramp: UnsafePointer<Double>,
        out: UnsafeMutablePointer<Double>
    ) {
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
            clampFrequency(offset + slope * curve, nyquist: nyquist)
        }

        @inline(__always) func apply(_ curve: SIMD8<Double>, at r: SIMD8<Double>) -> SIMD8<Double> {
            clampFrequency(offset + slope * curve, nyquist: nyquist)
        }

        @inline(__always) func mapLine(_ c0: Double, _ slope: Double) -> (Double, Double)? {
            (offset + self.slope * c0, self.slope * slope)
        }

        @inline(__always) func clamp(_ f: Double) -> Double { clampFrequency(f, nyquist: nyquist) }
    }

    /// Offset and slope moving by a step per sample, while a range change ramps.
    struct RampedMap: RangeMapping {
        let offset: Double, slope: Double, offsetStep: Double, slopeStep: Double, nyquist: Double

        @inline(__always) func apply(_ curve: Double, at r: Double) -> Double {
            clampFrequency((offset + offsetStep * r) + (slope + slopeStep * r) * curve, nyquist: nyquist)
        }

        @inline(__always) func apply(_ curve: SIMD8<Double>, at r: SIMD8<Double>) -> SIMD8<Double> {
            clampFrequency((offset + offsetStep * r) + (slope + slopeStep * r) * curve, nyquist: nyquist)
        }

        @inline(__always) func mapLine(_ c0: Double, _ slope: Double) -> (Double, Double)? { nil }

        @inline(__always) func clamp(_ f: Double) -> Double { clampFrequency(f, nyquist: nyquist) }
    }

    /// Cells of 16 samples or more: cell by cell, a loop the compiler vectorises along each.
    /// Along a cell the interpolant a + d (n step - cell) is c0 + slope (n - first), c0 its
    /// value at the cell's first sample: one multiply-add per sample, and a function of n
    /// alone (not of where the run began), so periods of any size give the same values.
    @inline(__always)
    static func alongCells<Range: RangeMapping>(
        plan: RenderPlan, start: Double, run: Int, range: Range, ramp: UnsafePointer<Double>,
        out: UnsafeMutablePointer<Double>
    ) {
        let step = plan.gridStep
        let grid = plan.grid
        if step == 0 {
            for k in 0..<run { out[k] = range.apply(grid[0], at: ramp[k]) }
            return
        }
        let inverse = 1 / step
        // The cell as an Int and as a Double, both counted: the whole numbers here are read
        // without `Int(_:)`'s range checks (`integerValue(ofWhole:)`), a few a run.
        var j = Int(start * step)
        var cell = Double(j)
        var first = firstSample(of: cell, step: step, inverse: inverse)
        var k = 0
        while k < run {
            let next = firstSample(of: cell + 1, step: step, inverse: inverse)
            let end = min(run, integerValue(ofWhole: next - start))
            let a = grid[j]
            let d = grid[j + 1] - a
            let c0 = a + d * (first * step - cell)
            let slope = d * step
            let offset = start - first  // an integer: exact
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
            j += 1
            first = next
        }
    }

    /// The first cycle sample n in grid cell `cell`: the least n with n * step >= cell, by
    /// the very product `gridValue`'s position is, so both put every sample in the same cell.
    @inline(__always)
    static func firstSample(of cell: Double, step: Double, inverse: Double) -> Double {
        // A guess within a sample or two, which the loops make exact.
        var n = nearestInteger(cell * inverse)
        while n > 0 && (n - 1) * step >= cell { n -= 1 }
        while n * step < cell { n += 1 }
        return n
    }

    /// Cells under 16 samples in a cycle too long for `sampleCurve`: eight
    /// samples at a time in vector registers. When they lie in at most three neighbouring
    /// cells, four grid values are broadcast and each lane picks its cell's; otherwise each
    /// lane loads its own two (a gather).
    @inline(__always)
    static func inWindows<Range: RangeMapping>(
        plan: RenderPlan, start: Double, run: Int, range: Range, ramp: UnsafePointer<Double>,
        out: UnsafeMutablePointer<Double>
    ) {
        let step = plan.gridStep
        let grid = plan.grid
        let magic = SIMD8<Double>(repeating: roundingShift)
        var k = 0
        while k + 8 <= run {
            let r = SIMD8<Double>(repeating: Double(k)) + Kernel.lanes
            let position = (SIMD8<Double>(repeating: start) + r) * step
            let nearest = (position + magic) - magic
            var cell = nearest
            cell.replace(with: nearest - 1, where: nearest .> position)  // floor
            let fraction = position - cell
            let indices = cell + magic  // low bits: the cell
            let first = cell[0]
            let a: SIMD8<Double>
            let b: SIMD8<Double>
            if cell[7] - first <= 2 {
                let j = Int(truncatingIfNeeded: indices[0].bitPattern & 0xFFFF_FFFF)
                let w0 = grid[j]
                let w1 = grid[j + 1]
                let w2 = grid[j + 2]
                let w3 = grid[j + 3]
                let offset = cell - SIMD8(repeating: first)
                let one = offset .== 1
                let two = offset .== 2
                var lower = SIMD8(repeating: w0)
                var upper = SIMD8(repeating: w1)
                lower.replace(with: w1, where: one)
                lower.replace(with: w2, where: two)
                upper.replace(with: w2, where: one)
                upper.replace(with: w3, where: two)
                a = lower
                b = upper
            } else {
                let bytes = UnsafeRawPointer(grid)
                @inline(__always) func pair(_ lane: Int) -> SIMD2<Double> {
                    bytes.loadUnaligned(
                        fromByteOffset: Int(truncatingIfNeeded: indices[lane].bitPattern & 0xFFFF_FFFF) &* 8,
                        as: SIMD2<Double>.self)
                }
                let c0 = pair(0)
                let c1 = pair(1)
                let c2 = pair(2)
                let c3 = pair(3)
                let c4 = pair(4)
                let c5 = pair(5)
                let c6 = pair(6)
                let c7 = pair(7)
                a = SIMD8(c0[0], c1[0], c2[0], c3[0], c4[0], c5[0], c6[0], c7[0])
                b = SIMD8(c0[1], c1[1], c2[1], c3[1], c4[1], c5[1], c6[1], c7[1])
            }
            let value = range.apply(a + (b - a) * fraction, at: r)
            UnsafeMutableRawPointer(out + k).storeBytes(of: value, as: SIMD8<Double>.self)
            k += 8
        }
        while k < run {
            let r = ramp[k]
            out[k] = range.apply(RenderPlan.gridValue(grid, at: (start + r) * step), at: r)
            k += 1
        }
    }

    @inline(__always) static var lanes: SIMD8<Double> { SIMD8(0, 1, 2, 3, 4, 5, 6, 7) }
}
