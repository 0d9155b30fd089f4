import ToneShaperParameters

/// Everything the render kernel needs to play one tone shape at one sample rate, prepared
/// off the audio thread. It is plain data (the curve grid is behind a pointer), so the
/// audio thread can receive it through a lock-free queue and copy it without allocating,
/// retaining or locking. The grid belongs to a `CurveStorage` that the control side keeps
/// alive until the audio thread hands the plan back. `Sendable` as the compiler checks it:
/// the memory it points to is reached through `ReadOnlyMemory`, whose promise is stated there.
public struct RenderPlan: Sendable {
    @usableFromInline let gridMemory: ReadOnlyMemory<Double>
    @usableFromInline let cumulativeMemory: ReadOnlyMemory<Double>
    @usableFromInline let sampleCurveMemory: ReadOnlyMemory<Double>?

    @inlinable public var grid: UnsafePointer<Double> {
        @inline(__always) get { gridMemory.address }
    }
    /// cumulative[i] = integral of the grid's linear interpolant from 0 to i (grid units):
    /// lets the echo voice find the phase it must have in O(1) (see `phaseAhead`).
    @inlinable public var cumulative: UnsafePointer<Double> {
        @inline(__always) get { cumulativeMemory.address }
    }
    public let fidelity: Int
    /// The curve already read at every sample of the cycle (`gridValue` at
    /// n * gridStep), when the grid is so fine that cells are under 16 samples long, so
    /// that the kernel reads it in a row instead of picking cells sample by sample; nil
    /// otherwise. It is at most 16 times the grid, and at most `sampleCurveLimit` samples.
    @inlinable public var sampleCurve: UnsafePointer<Double>? {
        @inline(__always) get { sampleCurveMemory?.address }
    }
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
    /// is the shared `FourierWavetables` of the wave, which the plan's storage holds, plus,
    /// for a `fourierTerms` count that is not a shared level, a table the storage owns.
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
    /// The MIDI keys' tuning (nil: 12-TET from the root note). Only the MIDI performer reads
    /// it, when a note starts or moves; the kernel never does.
    public let tuning: KeyTuningPlan?
    /// The compiled kernel that renders this plan: `KernelLevel.selected` unless a test or
    /// benchmark picks another (see `rendered(by:)`).
    public var kernel: KernelLevel

    public init(
        grid: UnsafePointer<Double>, cumulative: UnsafePointer<Double>, fidelity: Int, sampleCurve: UnsafePointer<Double>?,
        cycleLength: Int, gridStep: Double, cycleFractionPerSample: Double, wave: WaveType, scale: ScaleType,
        antiAliased: Bool, fourierTerms: Int, fourierTables: FourierTablePlan?, echoOffset: Int, sampleRate: Double,
        nyquist: Double, halfSamplePeriod: Double, baseMinFrequency: Double, baseMaxFrequency: Double, storageID: Int,
        tuning: KeyTuningPlan? = nil, kernel: KernelLevel = .selected
    ) {
        gridMemory = ReadOnlyMemory(grid)
        cumulativeMemory = ReadOnlyMemory(cumulative)
        self.fidelity = fidelity
        sampleCurveMemory = sampleCurve.map(ReadOnlyMemory.init)
        self.cycleLength = cycleLength
        self.gridStep = gridStep
        self.cycleFractionPerSample = cycleFractionPerSample
        self.wave = wave
        self.scale = scale
        self.antiAliased = antiAliased
        self.fourierTerms = fourierTerms
        self.fourierTables = fourierTables
        self.echoOffset = echoOffset
        self.sampleRate = sampleRate
        self.nyquist = nyquist
        self.halfSamplePeriod = halfSamplePeriod
        self.baseMinFrequency = baseMinFrequency
        self.baseMaxFrequency = baseMaxFrequency
        self.storageID = storageID
        self.tuning = tuning
        self.kernel = kernel
    }

    /// The same plan, rendered by the kernel compiled for `level` (which this CPU must run).
    public func rendered(by level: KernelLevel) -> RenderPlan {
        precondition(KernelLevel.available.contains(level), "this CPU cannot run the \(level) kernel")
        var copy = self
        copy.kernel = level
        return copy
    }

    /// The curve value at sample n of the cycle, in the plan's base range (SPEC 3 step 3).
    @inlinable @inline(__always)
    public func curveValue(at n: Int) -> Double {
        RenderPlan.gridValue(grid, at: Double(n) * gridStep)
    }

    /// The grid's linear interpolant at `position` >= 0 (SPEC 3 step 3): cell floor(position),
    /// fraction position - floor(position).
    @inlinable @inline(__always)
    public static func gridValue(_ grid: UnsafePointer<Double>, at position: Double) -> Double {
        let cell = Double(Int(position))
        let j = Int(cell)
        let a = grid[j]
        return a + (grid[j + 1] - a) * (position - cell)
    }
}

/// Frequencies live in [0, Nyquist]; NaN (which no validated input produces) becomes 0.
/// The one definition of that clamp, for the kernel and the control side alike; written as
/// two selects so that loops over it vectorise.
@inlinable @inline(__always)
public func clampFrequency(_ f: Double, nyquist: Double) -> Double {
    let low = f >= 0 ? f : 0
    return low > nyquist ? nyquist : low
}

/// The same clamp, eight lanes at a time.
@inlinable @inline(__always)
public func clampFrequency(_ f: SIMD8<Double>, nyquist: Double) -> SIMD8<Double> {
    var clamped = SIMD8<Double>(repeating: 0)
    clamped.replace(with: f, where: f .>= 0)
    clamped.replace(with: nyquist, where: clamped .> nyquist)
    return clamped
}
