import Foundation
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@Suite struct UnitWaveFormulas {
    let phases = (0..<2000).map { Double($0) / 2000 } + [0.25, 0.5, 0.75, 0.999999, 1e-9]

    @Test func sineMatchesLibm() {
        for p in phases + [-3.3, 12.7, 1e6 + 0.1] {
            #expect(abs(sin2pi(p) - sin(2 * Double.pi * p)) < 1e-9, "p = \(p)")
        }
    }

    @Test func naiveShapesAreTheFormulas() {
        for p in phases {
            #expect(UnitWave.naive(.square, p) == (p < 0.5 ? 1 : -1))
            let tri = p < 0.25 ? 4 * p : (p < 0.75 ? 2 - 4 * p : 4 * p - 4)
            #expect(UnitWave.naive(.triangle, p) == tri)
            #expect(UnitWave.naive(.sawtooth, p) == 2 * p - 1)
        }
    }

    @Test func fourierShapesAreTheFormulas() {
        for terms in [1, 3, 7, 20] {
            for p in phases where Int(p * 2000) % 7 == 0 {
                var square = 0.0
                var triangle = 0.0
                var saw = 0.0
                for j in 0..<terms {
                    let k = Double(2 * j + 1)
                    square += sin(2 * .pi * k * p) / k
                }
                var k = 1
                while k <= terms {
                    let sign: Double = ((k - 1) / 2) % 2 == 0 ? 1 : -1
                    triangle += sign * sin(2 * .pi * Double(k) * p) / Double(k * k)
                    k += 2
                }
                for k in 1...terms { saw += sin(2 * .pi * Double(k) * p) / Double(k) }
                let big = Int.max / 4
                #expect(abs(UnitWave.fourier(.squareFourier, p, terms: terms, highest: big) - 4 / .pi * square) < 1e-9)
                #expect(abs(UnitWave.fourier(.triangleFourier, p, terms: terms, highest: big) - 8 / (.pi * .pi) * triangle) < 1e-9)
                #expect(abs(UnitWave.fourier(.sawtoothFourier, p, terms: terms, highest: big) + 2 / .pi * saw) < 1e-9)
            }
        }
    }

    @Test func partialsAtOrAboveNyquistAreLeftOut() {
        #expect(UnitWave.highestHarmonicBelowNyquist(frequency: 1000, nyquist: 24000) == 23)  // 24 * 1000 sits on Nyquist
        #expect(UnitWave.highestHarmonicBelowNyquist(frequency: 999, nyquist: 24000) == 24)
        #expect(UnitWave.highestHarmonicBelowNyquist(frequency: 24000, nyquist: 24000) == 0)
        #expect(UnitWave.highestHarmonicBelowNyquist(frequency: 13000, nyquist: 24000) == 1)
        // With only k = 1 allowed, a square of 3 terms is a pure sine.
        #expect(abs(UnitWave.fourier(.squareFourier, 0.1, terms: 3, highest: 1) - 4 / .pi * sin(0.2 * .pi)) < 1e-12)
        #expect(UnitWave.fourier(.sawtoothFourier, 0.1, terms: 3, highest: 0) == 0)
    }

    /// Anti-aliased shapes equal the naive ones more than one sample from a corner.
    @Test func antiAliasingOnlyTouchesTheCorners() {
        let dt = 0.01
        for p in phases {
            for wave in [WaveType.square, .triangle, .sawtooth] {
                let corners: [Double] = wave == .triangle ? [0.25, 0.75] : (wave == .square ? [0, 0.5, 1] : [0, 1])
                let far = corners.allSatisfy { abs(p - $0) >= dt }
                if far { #expect(UnitWave.antiAliased(wave, p, dt) == UnitWave.naive(wave, p), "\(wave) at \(p)") }
            }
        }
    }

    /// Rendered at 7 kHz (harmonics far past Nyquist), anti-aliasing cuts the energy that
    /// folds back between the true harmonics by a large factor.
    @Test func antiAliasingReducesAliases() throws {
        for wave in [WaveType.square, .sawtooth, .triangle] {
            func aliasEnergy(antiAliased: Bool) throws -> Double {
                let shape = ToneShape(
                    points: [CurvePoint(time: 0, frequency: 7000)], duration: 1, minFrequency: 7000,
                    maxFrequency: 7000, wave: wave, scale: .none, echoVolume: 1, amplitude: 1, antiAliased: antiAliased)
                let out = OfflineRenderer.render(shape, sampleRate: 48000, frames: 16384)
                let mags = try SignalAnalysis.spectrum(out, start: 0, size: 8192)
                let binHz = 48000.0 / 8192
                var alias = 0.0
                for (k, m) in mags.enumerated() {
                    let f = Double(k) * binHz
                    let nearest = (f / 7000).rounded() * 7000
                    if abs(f - nearest) > 200 && f < 20000 { alias += m * m }  // the audible aliases
                }
                return alias
            }
            let naive = try aliasEnergy(antiAliased: false)
            let smooth = try aliasEnergy(antiAliased: true)
            #expect(smooth < naive / 4, "\(wave): alias energy \(smooth) vs naive \(naive)")
        }
    }
}

@Suite struct ScalingFormulas {
    func smoothstep(_ x: Double) -> Double { 3 * x * x - 2 * x * x * x }

    @Test func everyScalingIsItsFormula() {
        for i in 0..<1000 {
            let u = Double(i) / 1000
            let expected: [ScaleType: Double] = [
                .none: 1, .linear: 1 - u, .sine: abs(sin(.pi * u)), .triangle: u <= 0.5 ? 2 * u : 2 * (1 - u),
                .parabolic: (u - 1) * (u - 1), .exponential: exp(-log(32767) * u),
                .twoStep: u < 0.2 ? smoothstep(u / 0.2) : (u <= 0.8 ? 1 : smoothstep((1 - u) / 0.2)),
                .wideTwoStep: u <= 0.5 ? smoothstep(u / 0.5) : smoothstep((1 - u) / 0.5),
            ]
            for type in ScaleType.allCases {
                let got = AmplitudeScaling.value(type, at: u)
                let want = expected[type]!
                #expect(abs(got - want) <= 1e-12 * max(1, abs(want)), "\(type) at \(u): \(got) vs \(want)")
            }
        }
    }
}

/// The Fourier waves stay band-limited while the frequency sweeps: every partial at or
/// above Nyquist is dropped sample by sample.
@Suite struct BandLimitedSweep {
    let rate = 48000.0

    func sweep(_ wave: WaveType, terms: FourierTerms) -> ToneShape {
        ToneShape(
            points: [CurvePoint(time: 0, frequency: 300), CurvePoint(time: 4, frequency: 9000)], duration: 4,
            minFrequency: 300, maxFrequency: 9000, wave: wave, scale: .none, echoVolume: 0, amplitude: 1,
            fourierTerms: terms)
    }

    /// Sample by sample, the render equals the formula summed over the partials of the
    /// band-limited table the kernel chose for that sample (see FourierWavetables), computed
    /// independently here with libm; and that table never holds a partial at or above
    /// Nyquist, nor leaves out one below Nyquist / 2^(1/8) (22 kHz at 48 kHz).
    @Test(arguments: [WaveType.squareFourier, .triangleFourier, .sawtoothFourier])
    func equalsTheBandLimitedFormula(_ wave: WaveType) {
        let shape = sweep(wave, terms: .nyquist)
        let out = OfflineRenderer.render(shape, sampleRate: rate, frames: 192_000)
        let tables = CurveStorage(shape: shape, sampleRate: rate, id: 1).plan.fourierTables!
        // Recompute the phase and frequency the engine used, then the sum.
        var x = 0.0
        var vPrev = 300.0
        var worst = 0.0
        for n in 0..<out.count {
            let v = 300 + (9000 - 300) * Double(n) / Double(192_000 - 1)
            if n > 0 { x += (vPrev + v) / (2 * rate) }
            vPrev = v
            guard n % 101 == 0 else { continue }
            let p = x - x.rounded(.down)
            let top = tables.level(forFrequency: v, nyquist: rate / 2).top
            #expect(belowNyquist(top, v, rate / 2), "partial \(top) at \(Double(top) * v) Hz")
            let highest = UnitWave.highestHarmonicBelowNyquist(frequency: v, nyquist: rate / 2)
            let firstLeftOut = top + (wave == .sawtoothFourier ? 1 : 2)
            #expect(firstLeftOut > highest || Double(firstLeftOut) * v >= rate / 2 / FourierWavetables.levelRatio)
            var sum = 0.0
            var k = 1
            while k <= top {
                let s = sin(2 * .pi * Double(k) * p)
                switch wave {
                case .squareFourier: if k % 2 == 1 { sum += 4 / .pi * s / Double(k) }
                case .triangleFourier: if k % 2 == 1 { sum += 8 / (.pi * .pi) * (((k - 1) / 2) % 2 == 0 ? 1 : -1) * s / Double(k * k) }
                default: sum -= 2 / .pi * s / Double(k)
                }
                k += 1
            }
            // Echo volume 0: the output is (main + 0) / 2 at amplitude 1.
            worst = max(worst, abs(Double(out[n]) - min(1, max(-1, sum / 2))))
        }
        print("\(wave.rawValue) sweep: largest difference from the formula over the chosen table's partials \(worst)")
        #expect(worst < 1e-6, "\(wave): largest difference from the band-limited formula \(worst)")
    }

    /// In the spectrum of short windows along the sweep, nothing stands between the
    /// harmonics: a partial past Nyquist would fold back there.
    @Test(arguments: [WaveType.squareFourier, .triangleFourier, .sawtoothFourier])
    func spectrumHasNoFoldedPartials(_ wave: WaveType) throws {
        let out = OfflineRenderer.render(sweep(wave, terms: .nyquist), sampleRate: rate, frames: 192_000)
        let size = 4096
        let binHz = rate / Double(size)
        for start in stride(from: 8000, to: 180_000, by: 24000) {
            let mags = try SignalAnalysis.spectrum(out, start: start, size: size)
            let centre = 300 + 8700 * Double(start + size / 2) / 191_999
            let spread = 8700 * Double(size) / 191_999  // how far f moves inside the window
            let fundamental = mags.max()!
            var worst = 0.0
            for (bin, m) in mags.enumerated() where bin > 2 {
                let f = Double(bin) * binHz
                let k = max(1, (f / centre).rounded())
                if abs(f - k * centre) > k * spread + 6 * binHz { worst = max(worst, m) }
            }
            // A folded partial of this sweep would stand at -38 dB or higher (the first one
            // past Nyquist at 300 Hz is k = 80, amplitude 1/80); partials that stop at
            // Nyquist mid-window leak a little, to about -55 dB.
            #expect(20 * log10(worst / fundamental) < -45, "\(wave), window at \(start): folded energy \(20 * log10(worst / fundamental)) dB")
        }
    }

    /// The check above has teeth: the same sum without the Nyquist test folds back.
    @Test func withoutTheLimitTheSpectrumFolds() throws {
        let size = 4096
        let f0 = 5000.0
        let binHz = rate / Double(size)
        var signal = [Float](repeating: 0, count: size)
        for n in 0..<size {
            let p = f0 * Double(n) / rate
            var sum = 0.0
            for k in 1...12 { sum -= 2 / .pi * sin(2 * .pi * Double(k) * p) / Double(k) }
            signal[n] = Float(sum / 2)
        }
        let mags = try SignalAnalysis.spectrum(signal, start: 0, size: size)
        var worst = 0.0
        for (bin, m) in mags.enumerated() where bin > 2 {
            let f = Double(bin) * binHz
            let k = max(1, (f / f0).rounded())
            if abs(f - k * f0) > 6 * binHz { worst = max(worst, m) }
        }
        #expect(20 * log10(worst / mags.max()!) > -40)
    }
}

/// The kernel's single-precision corners, computed from the fixed-point phase and step,
/// against the double-precision formulas of `UnitWave.antiAliased`, at every kernel level
/// this CPU runs.
@Suite struct FixedPointCorners {
    @Test(arguments: KernelLevel.available) func matchTheFormulas(level: KernelLevel) {
        let corners = CompiledCorners.at(level)
        var rng = SplitMix64(seed: 0xC0_4E45)
        let unit = PhaseIntegrator.unitsPerCycle
        var worst: [WaveType: Double] = [:]
        for frequency in [0.5, 20, 440, 5000, 15000, 23999] {
            let step = UInt64((frequency / 48000 * unit).rounded())
            let dt = Double(step) / unit
            for k in 0..<20_000 {
                // Half the phases near a corner (within two steps), where the polynomials act.
                let corner = [0.0, 0.25, 0.5, 0.75][k % 4]
                let near = corner + (rng.nextUnit() * 4 - 2) * dt
                let p = k % 2 == 0 ? near - near.rounded(.down) : rng.nextUnit()
                let x = UInt64(p * unit) & ((1 << 52) - 1)
                let exactPhase = PhaseIntegrator.cycles(x)
                for (wave, kernel) in [
                    (WaveType.square, corners.square), (.triangle, corners.triangle),
                    (.sawtooth, corners.sawtooth),
                ] {
                    let e = abs(Double(kernel(x, step)) - UnitWave.antiAliased(wave, exactPhase, dt))
                    worst[wave] = max(worst[wave] ?? 0, e)
                }
            }
        }
        for (wave, e) in worst {
            print("\(level) \(wave.rawValue): largest difference from the formula \(e)")
            #expect(e < 1e-5, "\(wave)")
        }
    }
}
