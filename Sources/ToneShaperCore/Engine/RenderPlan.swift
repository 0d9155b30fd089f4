/// Everything the render kernel needs to play one tone shape at one sample rate, prepared
/// off the audio thread. It is plain data (the curve grid is behind a pointer), so the
/// audio thread can receive it through a lock-free queue and copy it without allocating,
/// retaining or locking. The grid belongs to a `CurveStorage` that the control side keeps
/// alive until the audio thread hands the plan back.
public struct RenderPlan: @unchecked Sendable {
    public let grid: UnsafePointer<Double>
    /// cumulative[i] = integral of the grid's linear interpolant from 0 to i (grid units):
    /// lets the echo voice find the phase it must have in O(1) (see `phaseAhead`).
    public let cumulative: UnsafePointer<Double>
    public let fidelity: Int
    /// The curve already read at every sample of the cycle (`VoiceKernel.gridValue` at
    /// n * gridStep), when the grid is so fine that cells are under 16 samples long, so
    /// that the kernel reads it in a row instead of picking cells sample by sample; nil
    /// otherwise. It is at most 16 times the grid, and at most `sampleCurveLimit` samples.
    public let sampleCurve: UnsafePointer<Double>?
    /// S: samples in one cycle.
    public let cycleLength: Int
    /// N / (S - 1): grid positions per sample.
    public let gridStep: Double
    /// 1 / (duration * sampleRate): cycle fraction per sample, for the scaling.
    public let cycleFractionPerSample: Double
    public let wave: WaveType
    public let scale: ScaleType
    public let antiAliased: Bool
    public let fourierTerms: Int
    /// The band-limited tables a Fourier wave reads (nil for the other waves). Their memory
    /// is the process-wide `FourierWavetables` plus, for a `fourierTerms` count that is not
    /// a shared level, a table the storage owns.
    public let fourierTables: FourierTablePlan?
    /// Echo offset in samples, in [0, S).
    public let echoOffset: Int
    public let sampleRate: Double
    public let nyquist: Double
    /// 1 / (2 sampleRate): the trapezoid's factor.
    public let halfSamplePeriod: Double
    /// The frequency range the grid's values were drawn in; live range changes map from it.
    public let baseMinFrequency: Double
    public let baseMaxFrequency: Double
    /// Identifies the storage to free when the plan is retired.
    public let storageID: Int

    /// The curve value at sample n of the cycle, in the plan's base range (SPEC 3 step 3).
    @inlinable @inline(__always)
    public func curveValue(at n: Int) -> Double {
        VoiceKernel.gridValue(grid, at: Double(n) * gridStep)
    }

    /// The integral of the grid's interpolant from position 0 to `position`, in grid units.
    @inline(__always)
    func gridIntegral(to position: Double) -> Double {
        let i = Int(position)
        let f = position - Double(i)
        return cumulative[i] + f * grid[i] + 0.5 * f * f * (grid[i + 1] - grid[i])
    }

    /// The phase (in cycles, not wrapped) a voice gathers playing `count` samples of the
    /// cycle from sample `start` under `map`, for count < S: what puts the echo voice
    /// exactly "offset ahead" of the main one, echo(t) = main(t + offset) (SPEC 6).
    /// Arithmetic only, so it is safe on the audio thread.
    public func phaseAhead(from start: Int, by count: Int, map: FrequencyMap) -> Double {
        guard count > 0 else { return 0 }
        // Integral over samples of u, from sample a to sample b within one cycle.
        func within(_ a: Int, _ b: Int) -> Double {
            if gridStep == 0 { return grid[0] * Double(b - a) }
            return (gridIntegral(to: Double(b) * gridStep) - gridIntegral(to: Double(a) * gridStep)) / gridStep
        }
        let end = start + count
        var u: Double
        if end < cycleLength {
            u = within(start, end)
        } else {
            // Across the cycle's end: to the last sample, one trapezoid back to sample 0, on.
            let last = cycleLength - 1
            u = within(start, last) + 0.5 * (curveValue(at: last) + curveValue(at: 0)) + within(0, end - cycleLength)
        }
        return (map.offset * Double(count) + map.slope * u) / sampleRate
    }
}

/// Owner of a plan's grid memory. Lives on the control side only.
public final class CurveStorage: @unchecked Sendable {
    public let id: Int
    let buffer: UnsafeMutableBufferPointer<Double>
    let cumulativeBuffer: UnsafeMutableBufferPointer<Double>
    let sampleCurveBuffer: UnsafeMutableBufferPointer<Double>?
    /// The longest cycle given a per-sample curve: 2^21 samples (44 s at 48 kHz, 16 MB).
    public static let sampleCurveLimit = 1 << 21
    /// True when some point of the curve lies above Nyquist at this plan's sample rate.
    public let exceedsNyquist: Bool
    /// A Fourier wave's tables: the shared set (built here on first use, off the audio
    /// thread) and the plan's own exact `fourierTerms` table, if it needs one.
    let wavetables: FourierWavetables?
    let ownedTable: OwnedWavetableLevel?
    public let plan: RenderPlan

    public init(shape: ToneShape, sampleRate: Double, id: Int) {
        precondition(sampleRate > 0)
        let grid = FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity)
        // Three more copies of the last value: the kernel may read a few cells past the end.
        buffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: grid.count + 3)
        _ = buffer.initialize(from: grid + [Double](repeating: grid[grid.count - 1], count: 3))
        cumulativeBuffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: grid.count)
        var sum = 0.0
        for i in 0..<grid.count {
            cumulativeBuffer[i] = sum
            if i + 1 < grid.count { sum += 0.5 * (grid[i] + grid[i + 1]) }
        }
        self.id = id
        let cycleLength = max(1, Int(shape.duration * sampleRate))
        let gridStep = cycleLength > 1 ? Double(shape.fidelity) / Double(cycleLength - 1) : 0
        if gridStep > 1.0 / 16 && cycleLength <= CurveStorage.sampleCurveLimit {
            let table = UnsafeMutableBufferPointer<Double>.allocate(capacity: cycleLength)
            let grid = UnsafePointer(buffer.baseAddress!)
            for n in 0..<cycleLength { table[n] = VoiceKernel.gridValue(grid, at: Double(n) * gridStep) }
            sampleCurveBuffer = table
        } else {
            sampleCurveBuffer = nil
        }
        let nyquist = sampleRate / 2
        exceedsNyquist = shape.points.contains { $0.frequency > nyquist }
        var fourierTables: FourierTablePlan?
        if shape.wave.isFourier {
            let tables = FourierWavetables.shared(for: shape.wave)
            let (tablePlan, owned) = tables.plan(terms: shape.fourierTerms.limit)
            wavetables = tables
            ownedTable = owned
            fourierTables = tablePlan
        } else {
            wavetables = nil
            ownedTable = nil
        }
        plan = RenderPlan(
            grid: UnsafePointer(buffer.baseAddress!),
            cumulative: UnsafePointer(cumulativeBuffer.baseAddress!),
            fidelity: shape.fidelity,
            sampleCurve: sampleCurveBuffer.map { UnsafePointer($0.baseAddress!) },
            cycleLength: cycleLength,
            gridStep: gridStep,
            cycleFractionPerSample: 1 / (shape.duration * sampleRate),
            wave: shape.wave,
            scale: shape.scale,
            antiAliased: shape.antiAliased,
            fourierTerms: shape.fourierTerms.limit,
            fourierTables: fourierTables,
            echoOffset: Int((shape.echoOffset * sampleRate).rounded()) % cycleLength,
            sampleRate: sampleRate,
            nyquist: nyquist,
            halfSamplePeriod: 0.5 / sampleRate,
            baseMinFrequency: shape.minFrequency,
            baseMaxFrequency: shape.maxFrequency,
            storageID: id)
    }

    deinit {
        buffer.deallocate()
        cumulativeBuffer.deallocate()
        sampleCurveBuffer?.deallocate()
    }
}
