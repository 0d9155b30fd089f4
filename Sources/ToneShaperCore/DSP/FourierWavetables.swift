import Synchronization

// Band-limited wave tables for the three Fourier waves (SPEC 4).
//
// Summing the partials per sample (`UnitWave.fourier`) costs one multiply-add per partial:
// about 1200 of them per sample at 20 Hz with `fourierTerms = "nyquist"`. Instead, for each
// Fourier wave a set of single-cycle tables T[K] is built once, off the audio thread, each
// holding exactly the partials of that wave up to harmonic number K:
//
//   Sawtooth Fourier  k = 1...K            -(2/pi) / k
//   Square Fourier    odd k <= K           (4/pi) / k
//   Triangle Fourier  odd k <= K           (8/pi^2) (-1)^((k-1)/2) / k^2
//
// Per sample the kernel works out K, the highest harmonic the wave may hold (`fourierTerms`
// and k * v < Nyquist, as `UnitWave.fourier` does), and reads the table of the largest
// level <= K: so no partial at or above Nyquist is ever included.
//
// Levels: every K from 1 to 32, so small partial counts are exact; above 32 they are spaced
// geometrically, each at most 2^(1/8) (about 1.09) times the one below, up to
// `UnitWave.maximumPartials`. When Nyquist is what limits K, the partials between the level
// and K that are left out all lie within that factor of Nyquist: above Nyquist / 1.09, that
// is above 22.0 kHz at 48 kHz (20.2 kHz at 44.1 kHz), where nobody hears them. When
// `fourierTerms` is what limits K (a count, with the tone well below Nyquist), the plan
// carries a table of exactly that many terms, so the formula is met to the table's accuracy.
//
// Each table is the cubic B-spline of the wave sampled at L points per cycle, L the next
// power of two at or above 32 K (16 K for the triangle, whose partials fall as 1/k^2), and at
// least 256. The spline's coefficients are computed in the frequency domain (each partial
// divided by the spline's response at its frequency, (2 + cos(2 pi k / L)) / 3), so the
// spline passes exactly through the samples and its error between them stays below 1e-6
// of full scale (measured by the tests: 6.4e-7 sawtooth, 5.5e-7 square, 3.2e-7 triangle,
// about 1.5e-7 of it the float rounding). The same error, seen as a spectrum, is images of
// each partial k near multiples of L * v, far above Nyquist, which fold back: at most
// about 1e-6 (-120 dB) of the top partial's own amplitude, far less for the others.
//
// Memory: about 4.5 MB for the sawtooth and for the square, 2.2 MB for the triangle (float
// coefficients). A wave's tables are built the first time a plan needs them (one inverse
// FFT per level: 10-40 ms for a wave in a release build), then kept for the life of the
// process, immutable, shared by every plan; the audio thread only gets plain pointers
// through the `RenderPlan`.
//
// Per sample the kernel's cost does not depend on the frequency or the number of terms:
// it checks the level once per chunk of 64 samples (from the chunk's lowest and highest
// frequency) and reads four samples at a time.

/// One band-limited single-cycle table: the cubic B-spline coefficients of a Fourier wave
/// holding the partials up to `top`. Plain data, read by the audio thread.
public struct WavetableLevel: @unchecked Sendable {
    /// c[0] of the coefficients c[-1 ... length + 1]: c[-1] = c[length - 1], c[length] = c[0]
    /// and c[length + 1] = c[1] are copies, so the 4-point evaluation needs no wrap checks.
    public let coefficients: UnsafePointer<Float>
    /// Coefficients per cycle, L (a power of two), as a Double.
    public let length: Double
    /// L - 1.
    public let mask: Int
    /// The highest harmonic number in the table (0: silence).
    public let top: Int

    /// The wave at phase p (cycles): the cubic B-spline through the table, read at p * L.
    ///
    /// Any finite p reads the periodic wave (the index is taken modulo L by masking the
    /// low bits of the 1.5 * 2^52 rounding); a non-finite p gives a garbage (possibly NaN)
    /// value but never reads outside the table, and never traps.
    @inlinable @inline(__always)
    public func value(at p: Double) -> Float {
        let x = p * length
        let magic = 6755399441055744.0              // 1.5 * 2^52: adding it rounds to an integer
        let rounded = (x - 0.5) + magic             // floor(x), or x - 1 at an integer x (t = 1 then)
        let j = Int(truncatingIfNeeded: rounded.bitPattern) & mask
        let t = Float(x - (rounded - magic))
        let c = coefficients + j
        let s = 1 - t
        let t2 = t * t, s2 = s * s
        let t3 = t2 * t, s3 = s2 * s
        // B-spline weights: (1-t)^3/6, 2/3 - t^2 + t^3/2, 2/3 - (1-t)^2 + (1-t)^3/2, t^3/6.
        let outer = (s3 * c[-1] + t3 * c[2]) * (1 / 6 as Float)
        let inner = (2 / 3 - t2 + 0.5 * t3) * c[0] + (2 / 3 - s2 + 0.5 * s3) * c[1]
        return outer + inner
    }

    /// out[i] = value(at: phases[i]) for i < count, four samples at a time: one unaligned
    /// 16-byte load fetches the four coefficients a sample needs, a 4 x 4 transpose puts
    /// them in lanes, and the weights are computed for four samples at once. The same
    /// operations in the same order as `value(at:)`, so the very same samples.
    @inlinable @inline(__always)
    public func render(phases: UnsafePointer<Double>, count: Int, out: UnsafeMutablePointer<Float>) {
        let scale = SIMD4<Double>(repeating: length)
        let base = UnsafeRawPointer(coefficients - 1)
        let phaseBytes = UnsafeRawPointer(phases)
        var i = 0
        while i + 4 <= count {
            let x: SIMD4<Double> = phaseBytes.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self) * scale
            let (rounded, t) = WavetableLevel.split(x)
            let c0 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[0].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let c1 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[1].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let c2 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[2].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let c3 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[3].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let y = WavetableLevel.spline(t, c0, c1, c2, c3)
            UnsafeMutableRawPointer(out + i).storeBytes(of: y, as: SIMD4<Float>.self)
            i += 4
        }
        while i < count {
            out[i] = value(at: phases[i])
            i += 1
        }
    }

    /// Table positions x (four lanes) split as in `value(at:)`: the 1.5 * 2^52 rounding
    /// (whose low bits are the index) and the fraction t.
    @inlinable @inline(__always)
    static func split(_ x: SIMD4<Double>) -> (rounded: SIMD4<Double>, t: SIMD4<Float>) {
        let magic = SIMD4<Double>(repeating: 6755399441055744.0)
        let rounded: SIMD4<Double> = (x - SIMD4<Double>(repeating: 0.5)) + magic
        let frac: SIMD4<Double> = x - (rounded - magic)
        return (rounded, SIMD4<Float>(Float(frac[0]), Float(frac[1]), Float(frac[2]), Float(frac[3])))
    }

    /// Four samples of the B-spline at once: sample k at fraction t[k] from the coefficients
    /// ck = (c[j-1], c[j], c[j+1], c[j+2]) of its own position j.
    @inlinable @inline(__always)
    static func spline(_ t: SIMD4<Float>, _ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>,
                       _ c3: SIMD4<Float>) -> SIMD4<Float> {
        let twoThirds = SIMD4<Float>(repeating: 2 / 3), half = SIMD4<Float>(repeating: 0.5)
        // Transpose: lane k of `before` is sample k's c[j-1], of `at` its c[j], and so on.
        let before = SIMD4<Float>(c0[0], c1[0], c2[0], c3[0])
        let at = SIMD4<Float>(c0[1], c1[1], c2[1], c3[1])
        let next = SIMD4<Float>(c0[2], c1[2], c2[2], c3[2])
        let after = SIMD4<Float>(c0[3], c1[3], c2[3], c3[3])
        let s: SIMD4<Float> = SIMD4<Float>(repeating: 1) - t
        let t2: SIMD4<Float> = t * t
        let s2: SIMD4<Float> = s * s
        let t3: SIMD4<Float> = t2 * t
        let s3: SIMD4<Float> = s2 * s
        let ends: SIMD4<Float> = s3 * before + t3 * after
        let middle: SIMD4<Float> = (twoThirds - t2 + half * t3) * at + (twoThirds - s2 + half * s3) * next
        return ends * SIMD4<Float>(repeating: 1 / 6) + middle
    }
}

/// What a render plan of a Fourier wave carries to choose a table per sample: the wave's
/// shared levels, and the level of exactly `fourierTerms` terms. Plain data.
public struct FourierTablePlan: @unchecked Sendable {
    /// The wave's shared levels (see `FourierWavetables`).
    public let levels: UnsafePointer<WavetableLevel>
    /// levelIndex[K], K in 0...maximumPartials: the index of the largest level <= K.
    public let levelIndex: UnsafePointer<UInt8>
    /// The top harmonic `fourierTerms` allows, at most `UnitWave.maximumPartials`.
    public let termsTop: Int
    /// The table of exactly the partials up to `termsTop`.
    public let termsLevel: WavetableLevel

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
    public static let chunk = 64

    /// out[i] = the wave at phases[i] for a sample at frequency v[i], i < count: exactly
    /// `level(forFrequency: v[i], nyquist:).value(at: phases[i])`, but fast. The level
    /// number falls as v rises, so when the lowest and the highest v of a chunk get the
    /// same level, every sample of the chunk does, and the chunk is read from that one
    /// table four samples at a time; a chunk that straddles a level boundary (rare: the
    /// frequency must cross one of about 80 boundaries) chooses per sample.
    @inlinable @inline(__always)
    public func render(frequencies v: UnsafePointer<Double>, phases: UnsafePointer<Double>, count: Int,
                       nyquist: Double, out: UnsafeMutablePointer<Float>) {
        var start = 0
        while start < count {
            let n = min(FourierTablePlan.chunk, count - start)
            let f = v + start, p = phases + start, o = out + start
            // NaN (which no validated input produces) takes no part: it compares false.
            var lo = SIMD4<Double>(repeating: .infinity), hi = SIMD4<Double>(repeating: -.infinity)
            var i = 0
            let bytes = UnsafeRawPointer(f)
            while i + 4 <= n {
                let x = bytes.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self)
                lo.replace(with: x, where: x .< lo)
                hi.replace(with: x, where: x .> hi)
                i += 4
            }
            var low = min(min(lo[0], lo[1]), min(lo[2], lo[3])), high = max(max(hi[0], hi[1]), max(hi[2], hi[3]))
            while i < n { let x = f[i]; low = x < low ? x : low; high = x > high ? x : high; i += 1 }
            let number = levelNumber(forFrequency: low, nyquist: nyquist)
            if number == levelNumber(forFrequency: high, nyquist: nyquist) {
                level(number: number).render(phases: p, count: n, out: o)
            } else {
                renderMixed(frequencies: f, phases: p, count: n, nyquist: nyquist, out: o)
            }
            start += n
        }
    }

    /// A chunk whose samples need different levels: each sample's own level, still four
    /// samples at a time.
    @inlinable @inline(__always)
    func renderMixed(frequencies f: UnsafePointer<Double>, phases p: UnsafePointer<Double>, count n: Int,
                     nyquist: Double, out o: UnsafeMutablePointer<Float>) {
        var k = 0
        while k + 4 <= n {
            let a = level(forFrequency: f[k], nyquist: nyquist), b = level(forFrequency: f[k + 1], nyquist: nyquist)
            let c = level(forFrequency: f[k + 2], nyquist: nyquist), d = level(forFrequency: f[k + 3], nyquist: nyquist)
            let x = SIMD4<Double>(p[k], p[k + 1], p[k + 2], p[k + 3]) * SIMD4<Double>(a.length, b.length, c.length, d.length)
            let (rounded, t) = WavetableLevel.split(x)
            let c0 = UnsafeRawPointer(a.coefficients - 1 + (Int(truncatingIfNeeded: rounded[0].bitPattern) & a.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            let c1 = UnsafeRawPointer(b.coefficients - 1 + (Int(truncatingIfNeeded: rounded[1].bitPattern) & b.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            let c2 = UnsafeRawPointer(c.coefficients - 1 + (Int(truncatingIfNeeded: rounded[2].bitPattern) & c.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            let c3 = UnsafeRawPointer(d.coefficients - 1 + (Int(truncatingIfNeeded: rounded[3].bitPattern) & d.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(o + k).storeBytes(of: WavetableLevel.spline(t, c0, c1, c2, c3), as: SIMD4<Float>.self)
            k += 4
        }
        while k < n {
            o[k] = level(forFrequency: f[k], nyquist: nyquist).value(at: p[k])
            k += 1
        }
    }

    /// `UnitWave.highestHarmonicBelowNyquist`, exactly (the tests check it), in a form that
    /// cannot trap: v <= 0, -0, NaN and a tiny v all give `maximumPartials`, and v = +inf
    /// (where that function gives -1) gives 0.
    @inlinable @inline(__always)
    public static func highestHarmonic(frequency v: Double, nyquist: Double) -> Int {
        let ratio = nyquist / v
        let r = ratio >= 0 ? (ratio < 4096 ? ratio : 4096) : 4096
        let whole = Int(r)                         // r in [0, 4096]: no trap
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

/// All the levels of one Fourier wave: built once per process, never changed or freed.
public final class FourierWavetables: @unchecked Sendable {
    public let wave: WaveType
    /// The levels' top harmonics, ascending, from 0 (a silent table). For the square and
    /// triangle only odd tops appear (an even K holds what K - 1 holds).
    public let tops: [Int]
    /// Bytes of table memory.
    public let bytes: Int
    /// How long building took, in seconds.
    public let buildSeconds: Double

    private let levelBuffer: UnsafeMutableBufferPointer<WavetableLevel>
    private let indexBuffer: UnsafeMutableBufferPointer<UInt8>
    private let memory: UnsafeMutableBufferPointer<Float>

    /// Each level at most this factor above the one below, above 32.
    public static let levelRatio = 1.0905077326652577     // 2^(1/8)
    /// Every K up to this is a level of its own.
    public static let exactLevels = 32

    public var levels: UnsafePointer<WavetableLevel> { UnsafePointer(levelBuffer.baseAddress!) }
    public var levelIndex: UnsafePointer<UInt8> { UnsafePointer(indexBuffer.baseAddress!) }

    public func level(_ i: Int) -> WavetableLevel { levelBuffer[i] }

    /// The level of exactly the partials up to K, if there is one.
    public func exactLevel(forTop k: Int) -> WavetableLevel? {
        guard k >= 0 && k <= UnitWave.maximumPartials else { return nil }
        let level = levelBuffer[Int(indexBuffer[k])]
        return level.top == FourierWavetables.effectiveTop(wave, k) ? level : nil
    }

    // MARK: The shared cache (control side only)

    private static let cache = Mutex<[WaveType: FourierWavetables]>([:])

    /// The tables of a Fourier wave, built on first use. Call off the audio thread: the first
    /// call for a wave takes some milliseconds, later ones a lock and a lookup.
    public static func shared(for wave: WaveType) -> FourierWavetables {
        precondition(wave.isFourier, "only the Fourier waves have tables")
        return cache.withLock { tables in
            if let built = tables[wave] { return built }
            let built = FourierWavetables(wave: wave)
            tables[wave] = built
            return built
        }
    }

    /// A plan's table choice for `fourierTerms` (its `limit`). When the exact table of the
    /// terms is not one of the shared levels, it is built and returned as `owned`: the caller
    /// keeps it alive as long as the plan.
    public func plan(terms: Int) -> (plan: FourierTablePlan, owned: OwnedWavetableLevel?) {
        let top = FourierTablePlan.termsTop(wave, terms: terms)
        var owned: OwnedWavetableLevel?
        let termsLevel: WavetableLevel
        if let shared = exactLevel(forTop: top) {
            termsLevel = shared
        } else {
            let own = OwnedWavetableLevel(wave: wave, top: top)
            owned = own
            termsLevel = own.level
        }
        return (FourierTablePlan(levels: levels, levelIndex: levelIndex, termsTop: top, termsLevel: termsLevel), owned)
    }

    // MARK: Building

    private init(wave: WaveType) {
        let start = ContinuousClock.now
        self.wave = wave
        let tops = FourierWavetables.levelTops(wave)
        precondition(tops.count <= 256, "level indices are bytes")
        self.tops = tops
        let lengths = tops.map { FourierWavetables.tableLength(wave, top: $0) }
        let total = lengths.reduce(0) { $0 + $1 + 3 }
        memory = UnsafeMutableBufferPointer<Float>.allocate(capacity: total)
        levelBuffer = UnsafeMutableBufferPointer<WavetableLevel>.allocate(capacity: tops.count)
        indexBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: UnitWave.maximumPartials + 1)
        var builder = TableBuilder(largest: lengths.max()!)
        var offset = 0
        for (i, top) in tops.enumerated() {
            let slot = memory.baseAddress! + offset
            builder.fill(wave, top: top, length: lengths[i], into: slot)
            levelBuffer.initializeElement(at: i, to: WavetableLevel(coefficients: UnsafePointer(slot + 1), length: Double(lengths[i]),
                                                                    mask: lengths[i] - 1, top: top))
            offset += lengths[i] + 3
        }
        var level = 0
        for k in 0...UnitWave.maximumPartials {
            while level + 1 < tops.count && tops[level + 1] <= k { level += 1 }
            indexBuffer[k] = UInt8(level)
        }
        bytes = total * MemoryLayout<Float>.stride + tops.count * MemoryLayout<WavetableLevel>.stride + indexBuffer.count
        let elapsed = ContinuousClock.now - start
        buildSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    deinit {
        // The shared sets live as long as the process; this only runs for a set never cached.
        memory.deallocate()
        levelBuffer.deallocate()
        indexBuffer.deallocate()
    }

    /// 0, every K from 1 to 32, then each level floor(previous * 2^(1/8)) (at least one
    /// more) up to `maximumPartials`; for the odd-harmonic waves, each rounded down to odd.
    static func levelTops(_ wave: WaveType) -> [Int] {
        let m = UnitWave.maximumPartials
        var tops = Array(0...exactLevels)
        var k = exactLevels
        while true {
            let next = max(k + 1, Int(Double(k) * levelRatio))
            if next >= m { break }
            tops.append(next)
            k = next
        }
        tops.append(m)
        var result: [Int] = []
        for top in tops.map({ effectiveTop(wave, $0) }) where result.last != top { result.append(top) }
        return result
    }

    /// The partials up to K of the square and triangle are those up to the odd K' <= K.
    static func effectiveTop(_ wave: WaveType, _ k: Int) -> Int {
        if k <= 0 { return 0 }
        switch wave {
        case .squareFourier, .triangleFourier: return k & 1 == 1 ? k : k - 1
        default: return k
        }
    }

    /// Coefficients per cycle for a table of partials up to `top`: at least 32 per cycle of
    /// the top partial (16 for the triangle), a power of two, at least 256.
    static func tableLength(_ wave: WaveType, top: Int) -> Int {
        let perCycle: Int
        switch wave {
        case .triangleFourier: perCycle = 16
        default: perCycle = 32
        }
        var length = 256
        while length < perCycle * top { length <<= 1 }
        return length
    }

    /// The amplitude of sin(2 pi k p) in the wave (SPEC 4).
    static func amplitude(_ wave: WaveType, _ k: Int) -> Double {
        switch wave {
        case .sawtoothFourier: return -(2 / Double.pi) / Double(k)
        case .squareFourier: return k & 1 == 1 ? (4 / Double.pi) / Double(k) : 0
        case .triangleFourier:
            guard k & 1 == 1 else { return 0 }
            let sign: Double = ((k - 1) / 2) & 1 == 0 ? 1 : -1
            return sign * (8 / (Double.pi * Double.pi)) / Double(k * k)
        default: return 0
        }
    }
}

/// One table owned by a plan's storage (the exact table of a `fourierTerms` count that is
/// not a shared level). Freed with the storage, after the audio thread hands the plan back.
public final class OwnedWavetableLevel: @unchecked Sendable {
    public let level: WavetableLevel
    private let memory: UnsafeMutableBufferPointer<Float>

    init(wave: WaveType, top: Int) {
        let length = FourierWavetables.tableLength(wave, top: top)
        memory = UnsafeMutableBufferPointer<Float>.allocate(capacity: length + 3)
        var builder = TableBuilder(largest: length)
        builder.fill(wave, top: top, length: length, into: memory.baseAddress!)
        level = WavetableLevel(coefficients: UnsafePointer(memory.baseAddress! + 1), length: Double(length),
                               mask: length - 1, top: FourierWavetables.effectiveTop(wave, top))
    }

    deinit { memory.deallocate() }
}

/// Scratch for building tables: one inverse FFT per table.
struct TableBuilder {
    private var re: [Double]
    private var im: [Double]
    private var transforms: [Int: FFT] = [:]

    init(largest: Int) {
        re = [Double](repeating: 0, count: largest)
        im = [Double](repeating: 0, count: largest)
    }

    /// Writes c[-1 ... length + 1] (length + 3 floats) to `slot`: the B-spline coefficients
    /// of the wave's partials up to `top`, sampled at `length` points per cycle.
    mutating func fill(_ wave: WaveType, top: Int, length: Int, into slot: UnsafeMutablePointer<Float>) {
        precondition(2 * top < length, "the table must sample the top partial more than twice per cycle")
        let fft: FFT
        if let cached = transforms[length] { fft = cached } else { fft = FFT(size: length); transforms[length] = fft }
        re.withUnsafeMutableBufferPointer { reBuf in
            im.withUnsafeMutableBufferPointer { imBuf in
                let re = reBuf.baseAddress!, im = imBuf.baseAddress!
                for j in 0..<length { re[j] = 0; im[j] = 0 }
                if top >= 1 {
                    for k in 1...top {
                        // The cubic B-spline through samples of sin(2 pi k j / L) has
                        // coefficients sin(2 pi k j / L) / B(k), B(k) = (2 + cos(2 pi k / L)) / 3.
                        let response = (2 + sin2pi(Double(k) / Double(length) + 0.25)) / 3
                        re[k] = FourierWavetables.amplitude(wave, k) / response
                    }
                }
                // Im of sum over k of X[k] e^(2 pi i k j / L) = sum over k of X[k] sin(2 pi k j / L).
                fft.inverse(re: re, im: im)
                for j in 0..<length { slot[1 + j] = Float(im[j]) }
            }
        }
        slot[0] = slot[length]
        slot[length + 1] = slot[1]
        slot[length + 2] = slot[2]
    }
}
