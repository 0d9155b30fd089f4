import Dispatch
import Synchronization
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// The command model, the change feed and the ownership of the audio side, without JACK.
@Suite struct ControlCoreTests {
    /// Collects the updates an observer is given.
    final class Recorder: Sendable {
        let updates = Mutex<[StateUpdate]>([])
        func record(_ update: StateUpdate) { updates.withLock { $0.append(update) } }
        var all: [StateUpdate] { updates.withLock { $0 } }
    }

    static func settle(_ queue: DispatchQueue) { queue.sync {} }

    @Test func everyObserverHearsEveryChangeWhoeverMadeIt() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let a = Recorder()
        let b = Recorder()
        let qa = DispatchQueue(label: "a")
        let qb = DispatchQueue(label: "b")
        let sa = controller.changes.subscribe(on: qa) { a.record($0) }
        let sb = controller.changes.subscribe(on: qb) { b.record($0) }
        try controller.perform(.setAmplitudeDecibels(.real(-6)))
        Self.settle(qa)
        Self.settle(qb)
        for recorder in [a, b] {
            let last = try #require(recorder.all.last)
            #expect(last.changed == [.parameter(.amplitude)])
            #expect(abs(last.state.shape.amplitude - 0.501187) < 1e-6)
        }
        // A refused change tells nobody anything.
        #expect(throws: ControlError.self) { try controller.perform(.set(.amplitude, .real(3))) }
        Self.settle(qa)
        #expect(a.all.count == 1)
        sa.cancel()
        try controller.perform(.play)  // already playing: no change, no update
        try controller.perform(.stop)
        Self.settle(qa)
        Self.settle(qb)
        #expect(a.all.count == 1)
        #expect(b.all.last?.changed == [.playing])
        _ = sb
    }

    @Test func aBusyObserverGetsChangesCoalescedAndTheLastValue() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let recorder = Recorder()
        let queue = DispatchQueue(label: "slow")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // the observer is busy while the changes arrive
        let subscription = controller.changes.subscribe(on: queue) { recorder.record($0) }
        for i in 1...200 { try controller.set(.amplitude, to: .real(Double(i) / 1000)) }
        try controller.set(.wave, to: .text("Square"))
        gate.signal()
        Self.settle(queue)
        let updates = recorder.all
        #expect(updates.count == 1)
        #expect(updates.first?.changed == [.parameter(.amplitude), .parameter(.wave)])
        #expect(updates.first?.state.shape.amplitude == 0.2)
        _ = subscription
    }

    @Test func changesTheAudioSideMakesComeBackIntoTheState() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        var renderer = controller.makeRenderer(rampLength: 64)
        let recorder = Recorder()
        let queue = DispatchQueue(label: "observer")
        let subscription = controller.changes.subscribe(on: queue) { recorder.record($0) }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        let clock = PeriodClock(startMicros: 0, microsPerFrame: 1_000_000 / 48_000)
        // A flood of audio-side changes in one period is reported as the last value.
        for i in 1...10_000 { renderer.applyAudioSideChange(.parameter(.amplitude, Double(i % 100) / 100)) }
        renderer.applyAudioSideChange(.parameter(.amplitude, 0.3))
        renderer.applyAudioSideChange(.playing(false))
        renderer.renderPeriod(into: buffer, frames: 64, clock: clock)
        controller.collectHandback()
        Self.settle(queue)
        #expect(controller.shape.amplitude == 0.3)
        #expect(!controller.isPlaying)
        #expect(recorder.all.last?.changed == [.parameter(.amplitude), .playing])
        #expect(renderer.engine.amplitude.target == 0.3)
        _ = subscription
    }

    @Test func aDestroyedRendererHandsBackEveryPlanItHeld() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        do {
            var renderer = controller.makeRenderer(rampLength: 64)
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 64)
            defer { buffer.deallocate() }
            try controller.set(.wave, to: .text("Square"))
            renderer.renderPeriod(into: buffer, frames: 64, clock: PeriodClock(startMicros: 0, microsPerFrame: 20.8))
            try controller.set(.wave, to: .text("Triangle"))  // waits in the channel, never taken
            #expect(controller.livePlanCount == 3)
        }
        controller.collectHandback()
        #expect(controller.livePlanCount == 0)
    }

    @Test func aNewRendererTakesTheCommandsAndTheOldOneNoLonger() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let old = controller.makeRenderer()
        let new = controller.makeRenderer()
        try controller.set(.amplitude, to: .real(0.1))
        #expect(old.drainCommands().isEmpty)
        #expect(new.drainCommands().count == 1)
    }

    @Test func everyParameterHasOneAddressOptionAndKey() {
        #expect(Set(ControlAddress.all.map(\.path)).count == ControlAddress.all.count)
        for spec in ParameterTable.all {
            #expect(ControlAddress.named(spec.oscPath)?.target == .parameter(spec.id))
            #expect(ParameterTable.spec(flag: spec.flag)?.id == spec.id)
            #expect(ParameterTable.spec(documentKey: spec.documentKey)?.id == spec.id)
        }
    }

    @Test func aDocumentWithOnlyTheRequiredKeysTakesTheTablesDefaults() throws {
        let shape = try ToneShapeDocument.decode(#"{"points":[[0,100],[1,200]],"duration":1,"minFrequency":50,"maxFrequency":300}"#, source: "d")
        for spec in ParameterTable.all {
            if let value = spec.defaultValue { #expect(spec.value(in: shape) == value, "\(spec.documentKey)") }
        }
        // Every key of the first release is written back from the table; a row added since
        // only when it differs from its default (so older documents round-trip byte for byte).
        let text = String(decoding: ToneShapeDocument.encode(shape), as: UTF8.self)
        for spec in ParameterTable.all {
            #expect(text.contains("\"\(spec.documentKey)\"") == (spec.addedIn == ParameterTable.firstRelease), "\(spec.documentKey)")
        }
        var tuned = shape
        tuned.tune = -12.5
        let tunedText = String(decoding: ToneShapeDocument.encode(tuned), as: UTF8.self)
        #expect(tunedText.contains("\"tune\" : -12.5"), "\(tunedText)")
        #expect(try ToneShapeDocument.decode(tunedText, source: "tuned").tune == -12.5)
    }

    @Test func misspeltKeysAndShortCurvesAreWarnedAbout() throws {
        let shape = try ToneShapeDocument.decode(
            #"{"points":[[0,300],[1,700]],"duration":2,"minFrequency":50,"maxFrequency":800,"ampltude":0.5}"#, source: "d")
        let warnings = ToneShapeDocument.warnings(for: shape)
        #expect(warnings.contains { $0.contains("unknown key \"ampltude\"; did you mean \"amplitude\"?") })
        #expect(warnings.contains { $0.contains("the points span 0...1 s of a 2 s cycle") })
        #expect(shape.extraKeys["ampltude"] == .number(0.5))
    }

    @Test func aClampedCurveIsSaidInTheReceipt() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let receipt = try controller.perform(.setFrequencyRange(min: .real(100), max: .real(60_000)))
        #expect(receipt.notes.first?.contains("above 24000 Hz") == true)
        #expect(try controller.perform(.set(.amplitude, .real(0.2))).notes.isEmpty)
    }
}
