import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// A steady tone: one point, no scaling, so levels and frequencies are easy to predict.
func steadyTone(
    _ f: Double = 1000, wave: WaveType = .sine, echoOffset: Double = 0, echoVolume: Double = 0,
    amplitude: Double = 0.5, duration: Double = 1
) -> ToneShape {
    ToneShape(
        points: [CurvePoint(time: 0, frequency: f)], duration: duration, minFrequency: f, maxFrequency: f,
        wave: wave, scale: .none, echoOffset: echoOffset, echoVolume: echoVolume, amplitude: amplitude)
}

/// Drives the audio side as the JACK callback does: period after period, the controller's
/// commands applied at each period's start.
final class EngineHarness {
    let controller: EngineController
    var renderer: RealtimeRenderer
    var output: [Float] = []
    let period: Int
    var engine: ToneEngine { _read { yield renderer.engine } }

    init(_ shape: ToneShape, period: Int = 64, rate: Double = 48000) {
        controller = EngineController(shape: shape, sampleRate: rate)
        renderer = controller.makeRenderer(rampLength: period)
        self.period = period
    }

    func run(periods: Int) {
        var buffer = [Float](repeating: 0, count: period)
        let clock = PeriodClock(startMicros: 0, microsPerFrame: 1_000_000 / controller.sampleRate)
        for _ in 0..<periods {
            buffer.withUnsafeMutableBufferPointer { renderer.renderPeriod(into: $0.baseAddress!, frames: period, clock: clock) }
            output += buffer
        }
        controller.collectHandback()
    }
}

@Suite struct EchoAndAmplitude {
    @Test func echoMixIsTheReferenceFormula() {
        // Offset 0 and volume 1: the echo is the main voice, the mix (m + e) / 2 is m.
        let same = OfflineRenderer.render(steadyTone(echoVolume: 1), sampleRate: 48000, frames: 48000)
        #expect(abs(SignalAnalysis.peak(same) - 0.5) < 1e-3)
        // Volume 0: half the level.
        let none = OfflineRenderer.render(steadyTone(echoVolume: 0), sampleRate: 48000, frames: 48000)
        #expect(abs(SignalAnalysis.peak(none) - 0.25) < 1e-3)
        // Half a period of 1 kHz ahead, volume 1: the echo cancels the main voice.
        let cancel = OfflineRenderer.render(steadyTone(echoOffset: 0.0005, echoVolume: 1), sampleRate: 48000, frames: 48000)
        #expect(SignalAnalysis.peak(cancel) < 1e-3)
        // Volume 0.5 in phase: (1 + 0.5) / 2 = 0.75 of the amplitude.
        let threeQuarters = OfflineRenderer.render(steadyTone(echoOffset: 0.001, echoVolume: 0.5), sampleRate: 48000, frames: 48000)
        #expect(abs(SignalAnalysis.peak(threeQuarters) - 0.375) < 1e-3)
    }

    @Test func echoReadsTheCycleAheadWithItsOwnScaling() {
        var shape = steadyTone(echoOffset: 0.5, echoVolume: 1)
        shape.scale = .linear
        let out = OfflineRenderer.render(shape, sampleRate: 48000, frames: 48000)
        // At the start the main voice scales by 1 and the echo (half a cycle ahead) by 0.5.
        let start = SignalAnalysis.peak(out, range: 0..<480)
        #expect(abs(start - 0.5 * (1 + 0.5) / 2) < 0.01)
    }

    @Test func noSampleGoesBeyondTheAmplitude() {
        for wave in WaveType.allCases {
            var shape = steadyTone(3000, wave: wave, echoOffset: 0, echoVolume: 1, amplitude: 0.3)
            shape.antiAliased = true
            let out = OfflineRenderer.render(shape, sampleRate: 48000, frames: 20000)
            #expect(SignalAnalysis.peak(out) <= 0.3 + 1e-7, "\(wave)")
            #expect(SignalAnalysis.allFinite(out))
        }
    }

    @Test func frequenciesAboveNyquistAreClamped() {
        let out = OfflineRenderer.render(steadyTone(30000), sampleRate: 48000, frames: 4800)
        #expect(SignalAnalysis.allFinite(out))
        let controller = EngineController(shape: steadyTone(30000), sampleRate: 48000)
        #expect(controller.exceedsNyquist)
    }
}

@Suite struct ChangesWhilePlaying {
    /// The steepest step a sine of amplitude a at f can take between two samples.
    func sineStep(_ f: Double, _ a: Double) -> Double { 2 * Double.pi * f * a / 48000 }

    @Test func rangeChangeMovesTheFrequencyWithoutAClick() throws {
        let h = EngineHarness(steadyTone(500, echoVolume: 1, amplitude: 1))
        h.run(periods: 100)
        try h.controller.setFrequencyRange(min: 1500, max: 1500)
        h.run(periods: 200)
        let before = SignalAnalysis.zeroCrossingFrequency(h.output, sampleRate: 48000, range: 1000..<6000)!
        let after = SignalAnalysis.zeroCrossingFrequency(h.output, sampleRate: 48000, range: 8000..<19000)!
        #expect(abs(before - 500) < 1 && abs(after - 1500) < 1, "\(before) -> \(after)")
        #expect(SignalAnalysis.maximumStep(h.output) <= sineStep(1500, 1) * 1.01)
    }

    @Test func amplitudeRampsAcrossThePeriod() throws {
        let h = EngineHarness(steadyTone(200, echoVolume: 1, amplitude: 0))
        h.run(periods: 10)
        try h.controller.set(.amplitude, to: .real(1))
        h.run(periods: 10)
        #expect(SignalAnalysis.peak(h.output, range: 0..<640) == 0)
        // The first period after the change ramps; the next ones play at full level.
        #expect(SignalAnalysis.maximumStep(h.output) <= sineStep(200, 1) + 1.0 / 64 + 1e-6)
        #expect(SignalAnalysis.peak(h.output, range: 704..<1280) > 0.99)
    }

    @Test(arguments: [ParameterID.wave, .echoOffset, .duration, .fidelity, .scale])
    func jumpsCrossfadeWithoutAClick(_ id: ParameterID) throws {
        var shape = steadyTone(300, echoVolume: 0.7, amplitude: 1)
        shape.points = [CurvePoint(time: 0, frequency: 300), CurvePoint(time: 1, frequency: 310)]
        shape.maxFrequency = 310
        let h = EngineHarness(shape)
        h.run(periods: 50)
        let values: [ParameterID: ParameterValue] = [
            .wave: .text("Triangle Fourier"), .echoOffset: .real(0.37), .duration: .real(2.5), .fidelity: .integer(3),
            .scale: .text("Parabolic"),
        ]
        try h.controller.set(id, to: values[id]!)
        h.run(periods: 50)
        // Crossfading two waves of amplitude 1 at ~300 Hz over 5 ms moves at most a few
        // times the sine's own steepest step; a hard switch could jump by up to 2.
        #expect(SignalAnalysis.maximumStep(h.output) < 4 * sineStep(310, 1), "\(id): \(SignalAnalysis.maximumStep(h.output))")
        #expect(h.controller.livePlanCount == 1, "the old plan was retired and freed")
    }

    @Test func stopFadesOutAndPlayFadesIn() throws {
        let h = EngineHarness(steadyTone(440, echoVolume: 1, amplitude: 1))
        h.run(periods: 20)
        try h.controller.stop()
        h.run(periods: 20)
        #expect(SignalAnalysis.peak(h.output, range: (20 * 64 + 300)..<(40 * 64)) == 0)
        try h.controller.play()
        h.run(periods: 20)
        #expect(SignalAnalysis.peak(h.output, range: (40 * 64 + 300)..<(60 * 64)) > 0.99)
        #expect(SignalAnalysis.maximumStep(h.output) <= sineStep(440, 1) * 1.2)
    }

    @Test func aNewDocumentWhileStoppedStartsAtTheCycleStart() throws {
        let h = EngineHarness(steadyTone(440, echoVolume: 1, amplitude: 1))
        try h.controller.stop()
        h.run(periods: 20)
        try h.controller.load(steadyTone(880, echoVolume: 1, amplitude: 1))
        try h.controller.play()
        h.run(periods: 40)
        let f = SignalAnalysis.zeroCrossingFrequency(h.output, sampleRate: 48000, range: (25 * 64)..<(60 * 64))!
        #expect(abs(f - 880) < 1)
        #expect(h.controller.livePlanCount == 1)
    }

    @Test func aFullQueueRefusesTheChangeWhole() throws {
        let controller = EngineController(shape: steadyTone(), sampleRate: 48000)
        let audio = controller.makeRenderer()  // never run: the channel fills up
        var refused = 0
        for i in 0..<2000 {
            do { try controller.set(.amplitude, to: .real(Double(i % 100) / 100)) } catch { refused += 1 }
        }
        #expect(refused > 0)
        // The shape holds the last value that was queued, not one that was refused.
        var last: EngineCommand?
        for c in audio.drainCommands() { last = c.command }
        if case .ramp(.amplitude, let a)? = last { #expect(a == controller.shape.amplitude) } else { Issue.record("no amplitude command") }
    }
}

@Suite struct ControllerLimits {
    @Test func plansPileUpOnlyToALimitWhenNobodyPlays() {
        let controller = EngineController(shape: steadyTone(), sampleRate: 48000)
        let audio = controller.makeRenderer()  // an audio side that never runs
        var refused = 0
        for i in 0..<50 {
            do { try controller.set(.fidelity, to: .integer(100 + i)) } catch { refused += 1 }
        }
        #expect(controller.livePlanCount <= EngineController.maximumLivePlans)
        #expect(refused > 0)
        // Ramped values still go through: they need no plan.
        #expect(throws: Never.self) { try controller.set(.amplitude, to: .real(0.1)) }
        _ = audio.pendingCount
    }

    @Test func withoutAnAudioSideChangesLandInTheShapeAndBuildNoPlans() throws {
        // No JACK server: the next audio side is built from the shape, so nothing is queued.
        let controller = EngineController(shape: steadyTone(), sampleRate: 48000)
        for i in 0..<50 { try controller.set(.fidelity, to: .integer(100 + i)) }
        #expect(controller.shape.fidelity == 149)
        #expect(controller.livePlanCount == 0)
    }

    @Test func severalValuesAtOnceAllOrNothing() throws {
        let controller = EngineController(shape: steadyTone(), sampleRate: 48000)
        try controller.set([(.echoOffset, .real(0.25)), (.echoVolume, .real(0.5))])
        #expect(controller.shape.echoOffset == 0.25 && controller.shape.echoVolume == 0.5)
        #expect(throws: ControlError.self) { try controller.set([(.echoOffset, .real(0.5)), (.echoVolume, .real(7))]) }
        #expect(controller.shape.echoOffset == 0.25)
    }
}

@Suite struct SilentEcho {
    /// An echo turned up from 0 sounds as if it had played all along: with offset half a
    /// period of 1 kHz it cancels the main voice, exactly as when it started audible.
    @Test func anEchoTurnedUpFromSilenceIsInPlace() throws {
        let h = EngineHarness(steadyTone(1000, echoOffset: 0.0005, echoVolume: 0, amplitude: 1))
        h.run(periods: 100)
        #expect(SignalAnalysis.peak(h.output, range: 0..<6400) > 0.49)
        try h.controller.set(.echoVolume, to: .real(1))
        h.run(periods: 100)
        #expect(SignalAnalysis.peak(h.output, range: 6500..<12800) < 1e-3)
    }
}

@Suite struct Rehearsal {
    /// `rehearse` leaves the engine exactly where it was: after it, the engine plays the
    /// same samples as one that never rehearsed.
    @Test func leavesTheEngineAsItWas() {
        var shape = ToneShape.defaultShape
        shape.echoOffset = 0.4
        shape.echoVolume = 0.5
        let controller = EngineController(shape: shape, sampleRate: 48000)
        var rehearsed = controller.makeEngine()
        var plain = controller.makeEngine()
        rehearsed.rehearse(frames: 5000)
        var a = [Float](repeating: 0, count: 4096)
        var b = a
        a.withUnsafeMutableBufferPointer { rehearsed.render(into: $0.baseAddress!, count: $0.count) }
        b.withUnsafeMutableBufferPointer { plain.render(into: $0.baseAddress!, count: $0.count) }
        #expect(a == b)
        #expect(a.contains { $0 != 0 })
    }
}
