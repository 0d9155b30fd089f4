import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// `tune`, the parameter added after the plugin's first release, end to end on the node's
/// side: a document key written only when it is not 0, an OSC address, an option, a MIDI
/// controller's curve, and a ramp that retunes everything played without a new plan.
@Suite struct TuneTests {
    static let rate = 48_000.0

    /// A 440 Hz sine played by the controller's own renderer, `periods` of 64 frames, with
    /// `change` applied before period `at`.
    static func play(shape: ToneShape, periods: Int, at: Int = 0, change: (EngineController) throws -> Void = { _ in }) throws -> [Float] {
        let controller = EngineController(shape: shape, sampleRate: rate, clock: { 0 })
        var renderer = controller.makeRenderer(rampLength: 64)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        var out: [Float] = []
        for period in 0..<periods {
            if period == at { try change(controller) }
            renderer.renderPeriod(into: buffer, frames: 64, clock: PeriodClock(startMicros: 0, microsPerFrame: 1_000_000 / rate))
            out += UnsafeBufferPointer(start: buffer, count: 64)
            controller.collectHandback()
        }
        return out
    }

    static let steady = ToneShape(
        points: [CurvePoint(time: 0, frequency: 440)], duration: 1, minFrequency: 20, maxFrequency: 2000, scale: .none, amplitude: 0.5)

    @Test func aDocumentsTuneMovesEveryFrequencyByItsCents() throws {
        for cents in [-100.0, -31.5, 0, 100] {
            var shape = Self.steady
            shape.tune = cents
            let samples = try Self.play(shape: shape, periods: 750)
            let measured = try RecordingAnalysis(samples, sampleRate: Self.rate).frequency(atLeast: 16_384)
            let expected = 440 * ToneEngine.tuningFactor(cents: cents)
            #expect(abs(measured / expected - 1) < 2e-4, "\(cents) cents: \(measured) Hz, expected \(expected) Hz")
        }
    }

    /// Moved while playing, it ramps (no new plan, no cross-fade): the controller sends a
    /// ramp command and the pitch lands a semitone up.
    @Test func movedWhilePlayingItRampsWithoutANewPlan() throws {
        let change = ShapeChange(from: Self.steady, to: try Self.steady.setting(.tune, to: .real(100)))
        #expect(!change.needsNewPlan && change.ramps.count == 1 && change.ramps[0].0 == .tune && change.ramps[0].1 == 100)
        let samples = try Self.play(shape: Self.steady, periods: 1000, at: 100) { try $0.set(.tune, to: .integer(100)) }
        let after = try RecordingAnalysis(Array(samples[(200 * 64)...]), sampleRate: Self.rate).frequency(atLeast: 16_384)
        #expect(abs(after / (440 * ToneEngine.tuningFactor(cents: 100)) - 1) < 2e-4, "\(after) Hz")
        // No step: the largest sample-to-sample change stays a sine's at that pitch.
        let largest = zip(samples.dropFirst(), samples).map { abs($0 - $1) }.max() ?? 0
        #expect(Double(largest) < 0.5 * 2 * .pi * 470 / Self.rate * 1.05)
    }

    @Test func theTableGivesItEveryFrontEnd() throws {
        let spec = ParameterTable.spec(.tune)
        #expect(spec.number == 19 && spec.symbol == "tune" && spec.addedIn == 4)
        #expect(ParameterTable.spec(oscPath: "tune")?.id == .tune)
        #expect(ParameterTable.spec(flag: "tune")?.id == .tune)
        #expect(ParameterTable.spec(documentKey: "tune")?.id == .tune)
        #expect(ControlAddress.named("tune")?.target == .parameter(.tune))
        #expect(throws: ControlError.self) { try Self.steady.setting(.tune, to: .real(100.5)) }
        // A controller spans -100...100 cents linearly.
        #expect(MIDIControllerMap.value(of: .tune, controllerValue: 0, shape: Self.steady) == .real(-100))
        #expect(MIDIControllerMap.value(of: .tune, controllerValue: 127, shape: Self.steady) == .real(100))
        #expect(MIDIControllerMap.canMap(.tune))
    }

    /// Documents that never used it read and write byte for byte as before (the built-ins
    /// and a minimal one); one that does keeps it.
    @Test func documentsWithoutItRoundTripByteForByte() throws {
        let text = #"{"points":[[0,100],[1,200]],"duration":1,"minFrequency":50,"maxFrequency":300}"#
        let once = ToneShapeDocument.encode(try ToneShapeDocument.decode(text, source: "d"))
        #expect(!String(decoding: once, as: UTF8.self).contains("tune"))
        #expect(ToneShapeDocument.encode(try ToneShapeDocument.decode(once, source: "again")) == once)
        #expect(throws: DocumentError.self) {
            try ToneShapeDocument.decode(#"{"points":[[0,1]],"duration":1,"minFrequency":0,"maxFrequency":9,"tune":300}"#, source: "d")
        }
    }
}
