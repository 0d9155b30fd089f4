import ToneShaperParameters

// The band-limited Fourier tables as the render kernel receives them: plain data, and the
// choice of a table by frequency. How they are built, and why they look as they do, is in
// `FourierWavetables` (ToneShaperAudio, off the audio thread); how the kernel reads them per
// sample is in the kernel (WavetableReading.swift, compiled for each instruction-set level).

/// One band-limited single-cycle table: the cubic B-spline coefficients of a Fourier wave
/// holding the partials up to `top`. Plain data, read by the audio thread.
public struct WavetableLevel: Sendable {
    @usableFromInline let coefficientMemory: ReadOnlyMemory<Float>
    /// c[0] of the coefficients c[-1 ... length + 1]: c[-1] = c[length - 1], c[length] = c[0]
    /// and c[length + 1] = c[1] are copies, so the 4-point evaluation needs no wrap checks.
    @inlinable public var coefficients: UnsafePointer<Float> {
        @inline(__always) get { coefficientMemory.address }
    }
    /// Coefficients per cycle, L (a power of two), as a Double.
    public let length: Double
    /// L - 1.
    public let mask: Int
    /// The highest harmonic number in the table (0: silence).
    public let top: Int

    public init(coefficients: UnsafePointer<Float>, length: Double, mask: Int, top: Int) {
        coefficientMemory = ReadOnlyMemory(coefficients)
        self.length = length
        self.mask = mask
        self.top = top
    }

}

/// What a render plan of a Fourier wave carries to choose a table per sample: the wave's
/// shared levels, and the level of exactly `fourierTerms` terms. Plain data.
public struct FourierTablePlan: Sendable {
    @usableFromInline let levelMemory: ReadOnlyMemory<WavetableLevel>
    @usableFromInline let levelIndexMemory: ReadOnlyMemory<UInt8>
    /// The wave's shared levels (see `FourierWavetables`).
    @inlinable public var levels: UnsafePointer<WavetableLevel> {
        @inline(__always) get { levelMemory.address }
    }
    /// levelIndex[K], K in 0...maximumPartials: the index of the largest level <= K.
    @inlinable public var levelIndex: UnsafePointer<UInt8> {
        @inline(__always) get { levelIndexMemory.address }
    }
    /// The top harmonic `fourierTerms` allows, at most `UnitWave.maximumPartials`.
    public let termsTop: Int
    /// The table of exactly the partials up to `termsTop`.
    public let termsLevel: WavetableLevel

    public init(levels: UnsafePointer<WavetableLevel>, levelIndex: UnsafePointer<UInt8>, termsTop: Int, termsLevel: WavetableLevel) {
        levelMemory = ReadOnlyMemory(levels)
        levelIndexMemory = ReadOnlyMemory(levelIndex)
        self.termsTop = termsTop
        self.termsLevel = termsLevel
    }

    /// K: the highest harmonic this sample may hold, min(terms top, highest below Nyquist).
    @inlinable @inline(__always)
    public func allowedTop(frequency v: Double, nyquist: Double) -> Int {
        let highest = FourierTablePlan.highestHarmonic(frequency: v, nyquist: nyquist)
        return highest < termsTop ? highest : termsTop
    }

    /// The table the kernel reads for a sample at frequency v: the exact `fourierTerms`
    /// table when Nyquist does not limit the partials, else the largest level <= K.
    /// Its `top` is never above K, so no partial at or above Nyquist is present.
    @inlinable @inline(__always)
    public func level(forFrequency v: Double, nyquist: Double) -> WavetableLevel {
        let k = allowedTop(frequency: v, nyquist: nyquist)
        return k >= termsTop ? termsLevel : levels[Int(levelIndex[k])]
    }

    /// The levels in a number that grows with K: the shared level's index, or 256 for
    /// the `fourierTerms` table (which holds more than any shared level K can pick).
    @inlinable @inline(__always)
    public func levelNumber(forFrequency v: Double, nyquist: Double) -> Int {
        let k = allowedTop(frequency: v, nyquist: nyquist)
        return k >= termsTop ? 256 : Int(levelIndex[k])
    }

    @inlinable @inline(__always)
    public func level(number: Int) -> WavetableLevel {
        number == 256 ? termsLevel : levels[number]
    }

    /// Samples per chunk of `render`: the level is checked once per chunk.
    @inlinable public static var chunk: Int { 64 }

    /// `UnitWave.highestHarmonicBelowNyquist`, exactly (the tests check it), in a form that
    /// cannot trap: v <= 0, -0, NaN and a tiny v all give `maximumPartials`, and v = +inf
    /// (where that function gives -1) gives 0.
    @inlinable @inline(__always)
    public static func highestHarmonic(frequency v: Double, nyquist: Double) -> Int {
        let ratio = nyquist / v
        let r = ratio >= 0 ? (ratio < 4096 ? ratio : 4096) : 4096
        let whole = Int(r)  // r in [0, 4096]: no trap
        // k * v < nyquist strictly: at an exact multiple the partial sits on Nyquist and goes.
        let k = Double(whole) == r ? whole - 1 : whole
        return k < 0 ? 0 : (k < UnitWave.maximumPartials ? k : UnitWave.maximumPartials)
    }

    /// The top harmonic `fourierTerms` (as `FourierTerms.limit`) allows for a wave, capped at
    /// `maximumPartials` as `UnitWave.fourier` caps it: the square's first n odd terms
    /// reach 2n - 1.
    public static func termsTop(_ wave: WaveType, terms: Int) -> Int {
        let m = UnitWave.maximumPartials
        let raw: Int
        switch wave {
        case .squareFourier: raw = terms > m ? m : 2 * terms - 1
        default: raw = terms
        }
        return max(0, min(raw, m))
    }
}
