import Foundation
import Testing
import ToneShaperTestSupport

/// The recordings' judge must itself be right: it finds where a busy server broke a
/// recording and measures around it, it forgives a lost or repeated server period and
/// nothing else, and a window that does not fit is an error, not a crash.
@Suite struct RecordingAnalysisTests {
    static let rate = 48_000.0
    static let omega = 2 * Double.pi * 440 / rate

    /// A 440 Hz sine whose sample n is taken at position `position(n)`, times `gain(n)`.
    static func sine(_ count: Int, position: (Int) -> Double = { Double($0) }, gain: (Int) -> Double = { _ in 0.5 }) -> [Float] {
        (0..<count).map { Float(gain($0) * sin(omega * position($0))) }
    }

    /// A triangle of `frequency` Hz (a wave with corners), with one period of `period`
    /// frames lost at `lostAt`.
    static func triangle(_ count: Int, frequency: Double, lostAt: Int, period: Int) -> [Float] {
        (0..<count).map { n in
            let t = Double(n >= lostAt ? n + period : n) * frequency / rate
            let u = t - t.rounded(.down)
            return Float(0.3 * (u < 0.5 ? 4 * u - 1 : 3 - 4 * u))
        }
    }

    static let limit = 2 * Double.pi * 440 * 0.5 / rate * 1.05

    @Test func aLostPeriodNoLongerMovesThePitch() throws {
        // The case the issue simulated: one lost 64-frame period near the middle of a
        // 32,768-sample window. The plain FFT peak moves by about 1.6 Hz.
        let samples = Self.sine(40_000) { n in Double(n >= 20_000 ? n + 64 : n) }
        let fftPeak = try SignalAnalysis.dominantFrequency(samples, sampleRate: Self.rate, start: 4_000, size: 32_768)
        #expect(abs(fftPeak - 440) > 1, "the weakness the analysis is for: \(fftPeak) Hz")

        let analysis = RecordingAnalysis(samples, sampleRate: Self.rate)
        #expect(analysis.breaks.count == 1 && abs(analysis.breaks[0] - 20_000) <= 2, "\(analysis.breaks)")
        #expect(analysis.cleanStretches.allSatisfy { !$0.contains(20_000) || $0.lowerBound == 20_000 })
        #expect(abs(try analysis.frequency(atLeast: 16_000) - 440) < 1e-3)
        #expect(abs(try analysis.rms(atLeast: 16_000) - 0.5 / 2.0.squareRoot()) < 1e-3)
    }

    @Test func aRepeatedPeriodAGapAndAWaveWithCornersAreFound() throws {
        let repeated = Self.sine(30_000) { n in Double(n >= 10_000 ? n - 64 : n) }
        var gap = Self.sine(30_000)
        for n in 15_000..<15_064 { gap[n] = 0 }
        let triangle = Self.triangle(30_000, frequency: 330, lostAt: 12_345, period: 64)
        for (name, samples, at) in [("repeated", repeated, 10_000), ("gap", gap, 15_000), ("triangle", triangle, 12_345)] {
            let analysis = RecordingAnalysis(samples, sampleRate: Self.rate)
            #expect(analysis.breaks.count == 1, "\(name): \(analysis.breaks)")
            #expect(analysis.breaks.allSatisfy { abs($0 - at) <= 2 }, "\(name): \(analysis.breaks)")
            for stretch in analysis.cleanStretches {
                #expect(!(stretch.lowerBound < at && stretch.upperBound > at + 1), "\(name): \(stretch) spans the break")
            }
        }
        // Clean: one stretch, the whole recording.
        let clean = RecordingAnalysis(Self.sine(30_000), sampleRate: Self.rate)
        #expect(clean.breaks == [] && clean.cleanStretches == [0..<30_000])
        let cleanTriangle = RecordingAnalysis(Self.triangle(30_000, frequency: 330, lostAt: .max, period: 0), sampleRate: Self.rate)
        #expect(cleanTriangle.breaks == [], "a triangle's corners are no break")
    }

    @Test func aWrongPitchIsMeasuredNotMistakenForABrokenRecording() throws {
        // 438 Hz where the test expects 440: one clean stretch, measured as 438.
        let samples = (0..<30_000).map { Float(0.5 * sin(2 * Double.pi * 438 * Double($0) / Self.rate)) }
        let analysis = RecordingAnalysis(samples, sampleRate: Self.rate)
        #expect(analysis.breaks == [])
        #expect(abs(try analysis.frequency(atLeast: 20_000) - 438) < 1e-3)
    }

    @Test func tooShortAStretchIsAnErrorAndABadWindowIsNoCrash() async throws {
        let broken = Self.sine(20_000) { n in Double(n) + Double(n / 3_000) * 37 }  // a jump every 3000 samples
        let analysis = RecordingAnalysis(broken, sampleRate: Self.rate)
        #expect(throws: HostTooBusy.self) { try analysis.cleanStretch(atLeast: 5_000) }
        #expect(throws: AnalysisWindowError.self) { try SignalAnalysis.spectrum(broken, start: 19_000, size: 4_096) }
        #expect(throws: AnalysisWindowError.self) { try SignalAnalysis.spectrum(broken, start: -1, size: 4_096) }
        #expect(throws: AnalysisWindowError.self) { try SignalAnalysis.spectrum(broken, start: 0, size: 1_000) }
        #expect(throws: AnalysisWindowError.self) { try SignalAnalysis.medianSpectrum(broken, range: 0..<10_000, size: 4_096) }
        #expect(throws: HostTooBusy.self) { try analysis.harmonicProfile(of: 440, size: 16_384) }
    }

    @Test func aBusyHostIsRetriedThenReported() async throws {
        var attempts = 0
        let value = try await retryingOnBusyHost("self-test", attempts: 3) { attempt -> Int in
            attempts += 1
            if attempt < 3 { throw HostTooBusy("take \(attempt)") }
            return attempt
        }
        #expect(value == 3 && attempts == 3)
        attempts = 0
        await #expect(throws: HostTooBusy.self) {
            try await retryingOnBusyHost("self-test", attempts: 2) { _ -> Int in
                attempts += 1
                throw HostTooBusy("always")
            }
        }
        #expect(attempts == 2)
    }

    @Test func aRepeatedOrLostPeriodIsExplained() {
        // Past the settling time after the first sound (0.1 s), where steps are judged.
        let repeated = Self.sine(9_600) { n in Double(n >= 6_080 ? n - 64 : n) }
        let lost = Self.sine(9_600) { n in Double(n >= 7_360 ? n + 128 : n) }
        for samples in [repeated, lost] {
            let analysis = RecordingAnalysis(samples, sampleRate: Self.rate)
            #expect(!analysis.steps(above: Self.limit).isEmpty)
            #expect(analysis.unexplainedSteps(above: Self.limit, frequency: 440, amplitudes: [0.5], period: 64) == [])
        }
    }

    @Test func aRecorderConnectedLateIsNoClick() {
        // Two periods of silence, then the tone: the step into it is the recording's start,
        // and the graph settles for a moment after it (two periods of silence 8 ms in).
        var late = Self.sine(9_600)
        for n in 0..<128 { late[n] = 0 }
        for n in 512..<640 { late[n] = 0 }
        let analysis = RecordingAnalysis(late, sampleRate: Self.rate)
        #expect(!analysis.steps(above: Self.limit).isEmpty)
        #expect(analysis.unexplainedSteps(above: Self.limit, frequency: 440, amplitudes: [0.5], period: 64) == [])
        // But silence inside the tone, once it has settled, is a click.
        var gap = Self.sine(9_600)
        for n in 0..<128 { gap[n] = 0 }
        let settled = 128 + Int(RecordingAnalysis.settlingSeconds * Self.rate)
        for n in (settled + 64)..<(settled + 192) { gap[n] = 0 }
        let broken = RecordingAnalysis(gap, sampleRate: Self.rate)
        let clicks = broken.unexplainedSteps(above: Self.limit, frequency: 440, amplitudes: [0.5], period: 64)
        #expect(!clicks.isEmpty)
        #expect(clicks.first.map { broken.describe(steps: clicks, frequency: 440).hasPrefix("steps at \($0) (amplitude ") } == true)
    }

    @Test func aGainOrPhaseJumpIsAClick() {
        let gain = Self.sine(9_600, gain: { $0 >= 6_100 ? 0.1 : 0.5 })
        let phase = Self.sine(9_600) { n in Double(n) + (n >= 6_100 ? 17.3 : 0) }
        for samples in [gain, phase] {
            let analysis = RecordingAnalysis(samples, sampleRate: Self.rate)
            let steps = analysis.steps(above: Self.limit)
            #expect(analysis.unexplainedSteps(above: Self.limit, frequency: 440, amplitudes: [0.5, 0.1], period: 64).count == steps.count)
            #expect(!steps.isEmpty)
        }
    }
}
