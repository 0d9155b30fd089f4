import Foundation
import Testing
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperAudio
@testable import ToneShaperKernelBaseline

/// The Fourier wave of SPEC 4 summed over k = 1...top (odd k only for the square and the
/// triangle), straight from the formula with libm: the reference the tables must equal.
func fourierPartialSum(_ wave: WaveType, _ p: Double, top: Int) -> Double {
    guard top >= 1 else { return 0 }
    var sum = 0.0
    for k in 1...top {
        let s = sin(2 * .pi * Double(k) * p)
        switch wave {
        case .squareFourier: if k % 2 == 1 { sum += 4 / .pi * s / Double(k) }
        case .triangleFourier: if k % 2 == 1 { sum += 8 / (.pi * .pi) * (((k - 1) / 2) % 2 == 0 ? 1 : -1) * s / Double(k * k) }
        default: sum -= 2 / .pi * s / Double(k)
        }
    }
    return sum
}

/// k * v < nyquist in exact arithmetic (one rounding, by fused multiply-add, keeps the
/// sign right where k * v lies within an ulp of Nyquist), or k = 0.
func belowNyquist(_ k: Int, _ v: Double, _ nyquist: Double) -> Bool {
    k == 0 || (-nyquist).addingProduct(Double(k), v) < 0
}

let fourierWaves: [WaveType] = [.squareFourier, .triangleFourier, .sawtoothFourier]

@Suite struct FourierTables {
    /// Every K from 1 to 32 is a level (odd K for the odd-harmonic waves), then levels at
    /// most 2^(1/8) apart up to `maximumPartials`; the sizes stay within a few MB.
    @Test(arguments: fourierWaves)
    func levelsAreEveryKUpTo32ThenGeometric(_ wave: WaveType) {
        let tables = FourierWavetables.shared(for: wave)
        let tops = tables.tops
        let odd = wave != .sawtoothFourier
        #expect(tops.first == 0)
        let small = Array(1...32).filter { !odd || $0 % 2 == 1 }
        #expect(Array(tops[1...small.count]) == small)
        #expect(tops.last == (odd ? UnitWave.maximumPartials - 1 : UnitWave.maximumPartials))
        for (a, b) in zip(tops, tops.dropFirst()) {
            #expect(a < b)
            if a >= 31 { #expect(Double(b) <= Double(a) * FourierWavetables.levelRatio + 2, "\(a) -> \(b)") }
            if odd { #expect(b % 2 == 1) }
        }
        for i in tops.indices {
            let level = tables.level(i)
            #expect(level.top == tops[i])
            let length = Int(level.length)
            #expect(length >= 256 && length & (length - 1) == 0 && level.mask == length - 1)
            #expect(length >= (wave == .triangleFourier ? 16 : 32) * level.top)
        }
        // The K -> level lookup picks the largest level <= K.
        for k in 0...UnitWave.maximumPartials {
            let chosen = tables.level(Int(tables.levelIndex[k])).top
            #expect(chosen <= k)
            #expect(tops.allSatisfy { $0 <= chosen || $0 > k })
        }
        #expect(tables.bytes < 5_000_000, "\(wave): \(tables.bytes) bytes")
        let start = ContinuousClock.now
        _ = FourierWavetables(wave: wave)
        print("\(wave.rawValue): \(tops.count) levels, \(tables.bytes / 1000) kB, a set of its own built in \(ContinuousClock.now - start)")
    }

    /// Each level equals the formula summed over its partials: at the table's own points
    /// (where the spline passes through the samples) and anywhere between them, including
    /// close to the jumps, where the interpolation is hardest.
    @Test(arguments: fourierWaves)
    func eachLevelEqualsItsPartialSum(_ wave: WaveType) {
        let tables = FourierWavetables.shared(for: wave)
        var rng = SplitMix64(seed: 7)
        var worstOnPoints = 0.0
        var worstBetween = 0.0
        for i in tables.tops.indices {
            let level = tables.level(i)
            let length = Int(level.length)
            var onPoints = (0..<40).map { _ in Double(Int(rng.next() % UInt64(length))) / Double(length) }
            onPoints += [0, 0.25, 0.5, 0.75]
            var between = (0..<60).map { _ in rng.nextUnit() }
            // Near the jumps of the sawtooth (0) and the square (0, 1/2), in steps of a fraction
            // of the top partial's period, and at odd fractions of a table step.
            let k = Double(max(1, level.top))
            for m in -24...24 {
                for centre in [0.0, 0.5] {
                    let p = centre + Double(m) / (8 * k) + 0.37 / Double(length)
                    between.append(p - p.rounded(.down))
                }
            }
            for p in onPoints {
                worstOnPoints = max(worstOnPoints, abs(Double(level.value(at: p)) - fourierPartialSum(wave, p, top: level.top)))
            }
            for p in between {
                worstBetween = max(worstBetween, abs(Double(level.value(at: p)) - fourierPartialSum(wave, p, top: level.top)))
            }
        }
        print("\(wave.rawValue): largest error \(worstOnPoints) on table points, \(worstBetween) between them")
        #expect(worstOnPoints < 5e-7)
        #expect(worstBetween < 1e-6)
    }

    /// The evaluation works for any phase (periodic), and never reads outside the table.
    @Test func valueIsPeriodicAndSafe() {
        let level = FourierWavetables.shared(for: .sawtoothFourier).level(20)
        for p in [0.1, 0.5, 0.999, 0.0] {
            for shift in [-3.0, -1.0, 1.0, 2.0, 1000.0] {
                #expect(abs(level.value(at: p + shift) - level.value(at: p)) < 1e-5)
            }
        }
        // Non-finite phases give some value (the mix turns NaN into silence), without a trap.
        for p in [Double.nan, .infinity, -.infinity, 1e300, -1e300] { _ = level.value(at: p) }
    }

    /// The kernel's trap-free K is `UnitWave.highestHarmonicBelowNyquist` exactly,
    /// including on exact multiples (a partial on Nyquist goes) and odd inputs.
    @Test func highestHarmonicMatchesTheFormula() {
        var rng = SplitMix64(seed: 3)
        for nyquist in [24000.0, 22050, 48000, 96000] {
            var vs: [Double] = [0, -0.0, -5, 1e-300, .leastNonzeroMagnitude, nyquist, nyquist / 2, 11.7, 12, 13]
            for k in 1...2100 {
                let v = nyquist / Double(k)
                vs += [v, v.nextUp, v.nextDown]
            }
            for _ in 0..<5000 { vs.append(rng.nextUnit() * nyquist) }
            for v in vs {
                #expect(
                    FourierTablePlan.highestHarmonic(frequency: v, nyquist: nyquist)
                        == UnitWave.highestHarmonicBelowNyquist(frequency: v, nyquist: nyquist), "v = \(v)")
            }
        }
        #expect(FourierTablePlan.highestHarmonic(frequency: .nan, nyquist: 24000) == UnitWave.maximumPartials)
        // (Stage A clamps v to Nyquist; for v = +inf the formula's -1 becomes 0, never an index below 0.)
        #expect(FourierTablePlan.highestHarmonic(frequency: .infinity, nyquist: 24000) == 0)
    }

    /// The level choice: never a partial at or above Nyquist; below K only partials within
    /// 2^(1/8) of Nyquist are left out; every K <= 32 is exact; and when `fourierTerms` and
    /// not Nyquist limits the partials, the plan's table holds exactly those terms.
    @Test(arguments: fourierWaves)
    func levelChoiceKeepsEveryPartialBelowNyquist(_ wave: WaveType) {
        let nyquist = 24000.0
        var rng = SplitMix64(seed: 11)
        for terms in [FourierTerms.nyquist, .count(1), .count(3), .count(7), .count(40), .count(100), .count(1000), .count(5000)] {
            var shape = steadyTone(440, wave: wave)
            shape.fourierTerms = terms
            let plan = CurveStorage(shape: shape, sampleRate: 2 * nyquist, id: 2).plan
            let tables = plan.fourierTables!
            let termsTop = FourierTablePlan.termsTop(wave, terms: terms.limit)
            #expect(tables.termsLevel.top == FourierWavetables.effectiveTop(wave, termsTop))
            var vs: [Double] = [0, 1, 5, 11.71875, 20, nyquist, nyquist / 3, nyquist * 0.99]
            for k in 1...2100 { vs += [nyquist / Double(k), (nyquist / Double(k)).nextUp, (nyquist / Double(k)).nextDown] }
            for _ in 0..<3000 { vs.append(20 * pow(1000, rng.nextUnit())) }
            for v in vs {
                let highest = UnitWave.highestHarmonicBelowNyquist(frequency: v, nyquist: nyquist)
                let allowed = min(termsTop, highest)
                #expect(tables.allowedTop(frequency: v, nyquist: nyquist) == allowed)
                let top = tables.level(forFrequency: v, nyquist: nyquist).top
                #expect(top <= allowed, "\(wave) \(terms) at \(v) Hz: level \(top) above K = \(allowed)")
                #expect(belowNyquist(top, v, nyquist), "\(wave) \(terms) at \(v) Hz: partial \(top) at or above Nyquist")
                if allowed <= 32 || allowed == termsTop {
                    #expect(top == FourierWavetables.effectiveTop(wave, allowed), "\(wave) \(terms) at \(v) Hz: K = \(allowed), level \(top)")
                } else {
                    // Left out: the partials above the level, up to K; all close to Nyquist.
                    let step = wave == .sawtoothFourier ? 1 : 2
                    let firstLeftOut = top + step
                    if firstLeftOut <= allowed {
                        #expect(
                            Double(firstLeftOut) * v >= nyquist / FourierWavetables.levelRatio,
                            "\(wave) at \(v) Hz: partial \(firstLeftOut) left out at \(Double(firstLeftOut) * v) Hz")
                    }
                }
            }
        }
    }

    /// The chunked, four-at-a-time path gives the very samples of the per-sample choice,
    /// also for frequencies that cross level boundaries within a block.
    @Test(arguments: fourierWaves)
    func chunkedRenderEqualsPerSampleChoice(_ wave: WaveType) {
        var shape = steadyTone(440, wave: wave)
        shape.fourierTerms = .nyquist
        let storage = CurveStorage(shape: shape, sampleRate: 48000, id: 1)
        let tables = storage.plan.fourierTables!
        var rng = SplitMix64(seed: 5)
        for count in [1, 3, 4, 63, 64, 65, 255, 256] {
            for pattern in 0..<4 {
                var v = [Double](repeating: 0, count: count)
                var p = [Double](repeating: 0, count: count)
                for i in 0..<count {
                    switch pattern {
                    case 0: v[i] = 200  // steady
                    case 1: v[i] = 700 + 1000 * Double(i) / Double(count)  // crossing small-K levels
                    case 2: v[i] = 20 * pow(1000, rng.nextUnit())  // anything
                    default: v[i] = i % 7 == 3 ? .nan : 24000 / 31  // a NaN among them
                    }
                    p[i] = rng.nextUnit()
                }
                var fast = [Float](repeating: 0, count: count)
                v.withUnsafeBufferPointer { vb in
                    p.withUnsafeBufferPointer { pb in
                        fast.withUnsafeMutableBufferPointer { ob in
                            tables.render(
                                frequencies: vb.baseAddress!, phases: pb.baseAddress!, count: count, nyquist: 24000,
                                out: ob.baseAddress!)
                        }
                    }
                }
                for i in 0..<count where !v[i].isNaN {
                    let slow = tables.level(forFrequency: v[i], nyquist: 24000).value(at: p[i])
                    #expect(fast[i].bitPattern == slow.bitPattern, "\(wave) count \(count) pattern \(pattern) sample \(i)")
                }
            }
        }
    }
}

/// The engine's Fourier output against the formula, where the tables must be exact.
@Suite struct FourierTablesInTheEngine {
    let rate = 48000.0

    /// A sweep from 800 Hz to 12 kHz keeps K <= 29: every K is a level of its own, so the
    /// render equals the band-limited formula (all partials below Nyquist) sample by sample.
    @Test(arguments: fourierWaves)
    func smallPartialCountsAreExact(_ wave: WaveType) {
        let shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 800), CurvePoint(time: 1, frequency: 12000)], duration: 1,
            minFrequency: 800, maxFrequency: 12000, wave: wave, scale: .none, echoVolume: 0, amplitude: 1,
            fourierTerms: .nyquist)
        let frames = 48000
        let out = OfflineRenderer.render(shape, sampleRate: rate, frames: frames)
        var x = 0.0
        var vPrev = 800.0
        var worst = 0.0
        for n in 0..<frames {
            let v = 800 + (12000 - 800) * Double(n) / Double(frames - 1)
            if n > 0 { x += (vPrev + v) / (2 * rate) }
            vPrev = v
            guard n % 37 == 0 else { continue }
            let p = x - x.rounded(.down)
            let sum = fourierPartialSum(wave, p, top: UnitWave.highestHarmonicBelowNyquist(frequency: v, nyquist: rate / 2))
            worst = max(worst, abs(Double(out[n]) - sum / 2))
        }
        print("\(wave.rawValue), 800 Hz to 12 kHz: largest difference from the formula \(worst)")
        #expect(worst < 1e-6, "\(wave): largest difference from the formula \(worst)")
    }

    /// A `fourierTerms` count with the tone well below Nyquist is the formula's exact count
    /// of terms, also when it is not one of the shared levels (40 terms, 25 odd ones).
    @Test(arguments: [(WaveType.sawtoothFourier, 40), (.squareFourier, 25), (.triangleFourier, 100), (.sawtoothFourier, 3)])
    func termCountsAreExact(_ wave: WaveType, _ terms: Int) {
        var shape = steadyTone(110, wave: wave, amplitude: 1)
        shape.fourierTerms = .count(terms)
        let out = OfflineRenderer.render(shape, sampleRate: rate, frames: 4800)
        var worst = 0.0
        for n in 0..<out.count {
            let p = 110 * Double(n) / rate
            let want = UnitWave.fourier(wave, p - p.rounded(.down), terms: terms, highest: .max / 4) / 2
            worst = max(worst, abs(Double(out[n]) - want))
        }
        print("\(wave.rawValue), \(terms) terms at 110 Hz: largest difference from the formula \(worst)")
        #expect(worst < 1e-6, "\(wave), \(terms) terms: largest difference \(worst)")
    }
}
