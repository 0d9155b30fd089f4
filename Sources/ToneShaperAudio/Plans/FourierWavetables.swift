import Synchronization
import ToneShaperDSP
import ToneShaperParameters

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
// coefficients). A live node builds all three at start-up on a background thread
// (`prepareInBackground`; one inverse FFT per level: 20-40 ms for a wave in a release build);
// otherwise a wave's tables are built the first time a plan needs them. Then they are kept,
// immutable, shared by every plan: for the life of the process, unless its host counts its
// instances (the LV2 plugin, SharedFourierTables.swift), in which case the cache lets them go
// when the last instance goes. Every plan's storage holds its set, so a set is freed only
// once no cache and no plan holds it; the audio thread only gets plain pointers through the
// `RenderPlan`.
//
// The kernel's read path (`WavetableLevel`, `FourierTablePlan`) is in ToneShaperDSP.

/// All the levels of one Fourier wave: built once, never changed; freed when neither the
/// cache nor a plan's storage holds it.
public final class FourierWavetables: @unchecked Sendable {
    public let wave: WaveType
    /// The levels' top harmonics, ascending, from 0 (a silent table). For the square and
    /// triangle only odd tops appear (an even K holds what K - 1 holds).
    public let tops: [Int]
    /// Bytes of table memory.
    public let bytes: Int

    private let levelBuffer: UnsafeMutableBufferPointer<WavetableLevel>
    private let indexBuffer: UnsafeMutableBufferPointer<UInt8>
    private let memory: UnsafeMutableBufferPointer<Float>

    /// Each level at most this factor above the one below, above 32.
    public static let levelRatio = 1.0905077326652577  // 2^(1/8)
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

    // MARK: The shared cache (off the audio thread only)

    static let sawtooth = Atomic<Unmanaged<FourierWavetables>?>(nil)
    static let square = Atomic<Unmanaged<FourierWavetables>?>(nil)
    static let triangle = Atomic<Unmanaged<FourierWavetables>?>(nil)
    /// Callers of `shared(for:)` between reading a slot and retaining what they read there;
    /// `releaseShared()` waits for none to be left before it lets a set go.
    static let readers = Atomic<Int>(0)

    /// The tables of a Fourier wave, built once by whoever asks first (a live node starts
    /// every wave's build at start-up, on a background thread; see ToneShaperControl's
    /// `prepareInBackground`), and kept by the cache for the process, or, in a host that
    /// counts its instances, until its last instance goes (`SharedFourierTables`). Two
    /// callers that ask for the same wave at the same moment may both build it: the first to
    /// finish is kept and the other's set freed, so nobody ever waits on a lock (the plugin's
    /// worker and the node's control thread share this code, and Embedded Swift has no lock
    /// to offer). The set returned is the caller's own reference: it stays valid as long as
    /// the caller holds it, whatever the cache does. Call off the audio thread.
    public static func shared(for wave: WaveType) -> FourierWavetables {
        precondition(wave.isFourier, "only the Fourier waves have tables")
        switch wave {
        case .sawtoothFourier: return shared(wave, in: sawtooth)
        case .squareFourier: return shared(wave, in: square)
        default: return shared(wave, in: triangle)
        }
    }

    private static func shared(_ wave: WaveType, in slot: borrowing Atomic<Unmanaged<FourierWavetables>?>) -> FourierWavetables {
        // Counted as a reader from before the slot is read until what it held is retained:
        // `releaseShared()` empties the slots first and then waits for the readers, so the
        // cache's reference, and with it the set, is never dropped between this load and
        // this retain. (Sequentially consistent: the release's emptying and its reading of
        // the count, and this count and this load, are then in one order for both threads.)
        readers.add(1, ordering: .sequentiallyConsistent)
        if let kept = slot.load(ordering: .sequentiallyConsistent) {
            let held = kept.retain().takeRetainedValue()
            readers.subtract(1, ordering: .sequentiallyConsistent)
            return held
        }
        readers.subtract(1, ordering: .sequentiallyConsistent)
        // `built` is this caller's reference, the cache's is taken apart: once in the slot,
        // the set may be let go by `releaseShared()` at any moment.
        let built = FourierWavetables(wave: wave)
        let cached = Unmanaged.passRetained(built)
        if slot.compareExchange(expected: nil, desired: cached, ordering: .sequentiallyConsistent).exchanged { return built }
        cached.release()
        // Another caller's set is in the slot (this one is freed on return): read again.
        return shared(wave, in: slot)
    }

    /// Empties the cache: each set is freed now, or when the last plan storage holding it
    /// goes. What `shared(for:)` returned before stays valid for whoever holds it; later
    /// calls build anew. Off the audio thread.
    static func releaseShared() {
        let dropped = [
            sawtooth.exchange(nil, ordering: .sequentiallyConsistent), square.exchange(nil, ordering: .sequentiallyConsistent),
            triangle.exchange(nil, ordering: .sequentiallyConsistent),
        ]
        // A reader that loaded a set before it left its slot has not necessarily retained it
        // yet: wait until every such reader has (a few instructions each; a reader that
        // comes later finds the slot empty and builds its own).
        while readers.load(ordering: .sequentiallyConsistent) != 0 {}
        for case let set? in dropped { set.release() }
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

    /// A set of its own (the shared ones come from `shared(for:)`): about 20-40 ms of one
    /// core in a release build.
    public init(wave: WaveType) {
        precondition(wave.isFourier, "only the Fourier waves have tables")
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
            levelBuffer.initializeElement(
                at: i,
                to: WavetableLevel(
                    coefficients: UnsafePointer(slot + 1), length: Double(lengths[i]),
                    mask: lengths[i] - 1, top: top))
            offset += lengths[i] + 3
        }
        var level = 0
        for k in 0...UnitWave.maximumPartials {
            while level + 1 < tops.count && tops[level + 1] <= k { level += 1 }
            indexBuffer[k] = UInt8(level)
        }
        bytes = total * MemoryLayout<Float>.stride + tops.count * MemoryLayout<WavetableLevel>.stride + indexBuffer.count
    }

    deinit {
        // No cache slot and no plan storage holds this set any more.
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
        level = WavetableLevel(
            coefficients: UnsafePointer(memory.baseAddress! + 1), length: Double(length),
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
        if let cached = transforms[length] {
            fft = cached
        } else {
            fft = FFT(size: length)
            transforms[length] = fft
        }
        re.withUnsafeMutableBufferPointer { reBuf in
            im.withUnsafeMutableBufferPointer { imBuf in
                let re = reBuf.baseAddress!
                let im = imBuf.baseAddress!
                for j in 0..<length {
                    re[j] = 0
                    im[j] = 0
                }
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
