import ToneShaperDSP
import ToneShaperParameters

/// Owner of a plan's grid memory. Lives on the control side only, in the controller's
/// locked state (so it is not `Sendable`: the compiler keeps it there); what crosses to the
/// audio thread is its `plan`, which points into it, and the storage is freed only once the
/// audio side has handed that plan back (`PlanKeeper`).
public final class CurveStorage {
    public let id: Int
    let buffer: UnsafeMutableBufferPointer<Double>
    let cumulativeBuffer: UnsafeMutableBufferPointer<Double>
    let sampleCurveBuffer: UnsafeMutableBufferPointer<Double>?
    /// The keys' pitches of the shape's tuning (`KeyTuningPlan`), if it has one.
    let tuningBuffer: UnsafeMutableBufferPointer<Double>?
    /// The longest cycle given a per-sample curve: 2^21 samples (44 s at 48 kHz, 16 MB).
    public static let sampleCurveLimit = 1 << 21
    /// True when some point of the curve lies above Nyquist at this plan's sample rate.
    public let exceedsNyquist: Bool
    /// A Fourier wave's tables: the shared set (built here on first use, off the audio
    /// thread) and the plan's own exact `fourierTerms` table, if it needs one.
    let wavetables: FourierWavetables?
    let ownedTable: OwnedWavetableLevel?
    public let plan: RenderPlan

    public init(curve shape: CurveDescription, sampleRate: Double, id: Int) {
        precondition(sampleRate > 0)
        let grid = FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity, curvatures: shape.curvatures)
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
            for n in 0..<cycleLength { table[n] = RenderPlan.gridValue(grid, at: Double(n) * gridStep) }
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
        var tuningPlan: KeyTuningPlan?
        if let tuning = shape.tuning {
            let table = UnsafeMutableBufferPointer<Double>.allocate(capacity: KeyTuning.keyCount)
            _ = table.initialize(from: tuning.semitones)
            tuningBuffer = table
            tuningPlan = KeyTuningPlan(semitones: UnsafePointer(table.baseAddress!), mapped: tuning.mapped)
        } else {
            tuningBuffer = nil
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
            storageID: id,
            tuning: tuningPlan)
    }

    deinit {
        buffer.deallocate()
        cumulativeBuffer.deallocate()
        sampleCurveBuffer?.deallocate()
        tuningBuffer?.deallocate()
    }
}
