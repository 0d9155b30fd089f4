/// Everything the render kernel needs to play one tone shape at one sample rate, prepared
/// off the audio thread. It is plain data (the curve grid is behind a pointer), so the
/// audio thread can receive it through a lock-free queue and copy it without allocating,
/// retaining or locking. The grid belongs to a `CurveStorage` that the control side keeps
/// alive until the audio thread hands the plan back.
public struct RenderPlan: @unchecked Sendable {
    public let grid: UnsafePointer<Double>
    public let fidelity: Int
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
        let position = Double(n) * gridStep
        let i = Int(position)
        let frac = position - Double(i)
        let a = grid[i]
        return a + (grid[i + 1] - a) * frac
    }
}

/// Owner of a plan's grid memory. Lives on the control side only.
public final class CurveStorage: @unchecked Sendable {
    public let id: Int
    let buffer: UnsafeMutableBufferPointer<Double>
    /// True when some point of the curve lies above Nyquist at this plan's sample rate.
    public let exceedsNyquist: Bool
    public let plan: RenderPlan

    public init(shape: ToneShape, sampleRate: Double, id: Int) {
        precondition(sampleRate > 0)
        let grid = FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity)
        buffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: grid.count)
        _ = buffer.initialize(from: grid)
        self.id = id
        let cycleLength = max(1, Int(shape.duration * sampleRate))
        let nyquist = sampleRate / 2
        exceedsNyquist = shape.points.contains { $0.frequency > nyquist }
        plan = RenderPlan(
            grid: UnsafePointer(buffer.baseAddress!),
            fidelity: shape.fidelity,
            cycleLength: cycleLength,
            gridStep: cycleLength > 1 ? Double(shape.fidelity) / Double(cycleLength - 1) : 0,
            cycleFractionPerSample: 1 / (shape.duration * sampleRate),
            wave: shape.wave,
            scale: shape.scale,
            antiAliased: shape.antiAliased,
            fourierTerms: shape.fourierTerms.limit,
            echoOffset: Int((shape.echoOffset * sampleRate).rounded()) % cycleLength,
            sampleRate: sampleRate,
            nyquist: nyquist,
            halfSamplePeriod: 0.5 / sampleRate,
            baseMinFrequency: shape.minFrequency,
            baseMaxFrequency: shape.maxFrequency,
            storageID: id)
    }

    deinit { buffer.deallocate() }
}
