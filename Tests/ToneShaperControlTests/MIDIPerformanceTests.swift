import CAllocationCounter
import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperAudio

/// MIDI through the renderer, without JACK: events at their frames, drone transposition,
/// instrument voices, controllers, program change, transport; and nothing allocates.
@Suite("MIDI performance")
struct MIDIPerformanceTests {
    static let rate = 48_000.0
    static let period = 64

    /// A steady 440 Hz sine, no scaling, no echo: pitch and level show at once.
    static func steady(instrument: Bool = false, voices: Int = 16) -> ToneShape {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 440)], duration: 1,
            minFrequency: 20, maxFrequency: 2000, scale: .none, echoVolume: 0, amplitude: 0.5)
        shape.performance.instrument = instrument
        shape.performance.voices = voices
        return shape
    }

    static func note(_ note: UInt8, velocity: UInt8 = 127, at frame: Int = 0) -> MIDIEvent {
        MIDIEvent(frame: frame, size: 3, byte0: 0x90, byte1: note, byte2: velocity)
    }
    static func off(_ note: UInt8, at frame: Int = 0) -> MIDIEvent { MIDIEvent(frame: frame, size: 3, byte0: 0x80, byte1: note, byte2: 0) }
    static func cc(_ controller: UInt8, _ value: UInt8, at frame: Int = 0) -> MIDIEvent {
        MIDIEvent(frame: frame, size: 3, byte0: 0xB0, byte1: controller, byte2: value)
    }

    /// A controller and its renderer, rendering periods with MIDI events in the first.
    final class Player {
        let controller: EngineController
        var renderer: RealtimeRenderer
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: MIDIPerformanceTests.period)
        var output: [Float] = []
        var transport: TransportState?

        init(_ shape: ToneShape, documents: (any DocumentStore)? = nil) {
            controller = EngineController(shape: shape, sampleRate: MIDIPerformanceTests.rate, documents: documents)
            renderer = controller.makeRenderer(rampLength: MIDIPerformanceTests.period)
        }
        deinit { buffer.deallocate() }

        func play(_ events: [MIDIEvent] = [], periods: Int = 1) {
            for p in 0..<periods {
                let now = p == 0 ? events : []
                now.withUnsafeBufferPointer { midi in
                    renderer.renderPeriod(
                        into: buffer, frames: MIDIPerformanceTests.period,
                        clock: PeriodClock(startMicros: 0, microsPerFrame: 1e6 / MIDIPerformanceTests.rate),
                        midi: midi, transport: transport)
                }
                output += UnsafeBufferPointer(start: buffer, count: MIDIPerformanceTests.period)
                if transport?.rolling == true { transport?.frame += MIDIPerformanceTests.period }  // JACK's transport rolls on
            }
        }

        /// The dominant frequency of the last `samples` rendered.
        func pitch(last samples: Int = 8192) throws -> Double {
            try SignalAnalysis.dominantFrequency(output, sampleRate: MIDIPerformanceTests.rate, start: output.count - samples, size: samples)
        }
        func rms(last samples: Int) -> Double { SignalAnalysis.rms(output, range: (output.count - samples)..<output.count) }
    }

    @Test func heldKeysGiveLastNotePriority() {
        var keys = HeldKeys()
        #expect(keys.latest == nil)
        for note: UInt8 in [60, 64, 67] { keys.press(note) }
        #expect(keys.latest == 67 && keys.count == 3)
        keys.press(64)  // pressed again: the latest, not twice
        #expect(keys.latest == 64 && keys.count == 3)
        keys.release(64)
        #expect(keys.latest == 67)
        keys.release(99)  // never down: nothing changes
        keys.release(67)
        #expect(keys.latest == 60 && keys.count == 1)
        for note in 0..<200 { keys.press(UInt8(note % 128)) }
        #expect(keys.count == 128 && keys.latest == 71, "bounded: every key at most once")
        keys.removeAll()
        #expect(keys.latest == nil)
    }

    @Test func droneNoteTransposesAndReleaseReturns() throws {
        let player = Player(Self.steady())
        player.play(periods: 200)
        try #expect(abs(player.pitch() - 440) < 3)
        player.play([Self.note(81)], periods: 200)  // an octave above A4
        try #expect(abs(player.pitch() - 880) < 3)
        player.play([Self.note(76)], periods: 200)  // last-note priority: E5
        try #expect(abs(player.pitch() - 440 * pow(2, 7.0 / 12)) < 3)
        player.play([Self.off(76)], periods: 200)  // back to the key still held
        try #expect(abs(player.pitch() - 880) < 3)
        player.play([Self.off(81)], periods: 200)
        try #expect(abs(player.pitch() - 440) < 3)
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2, "no click on a retune")
    }

    @Test func pitchBendMovesByTheRange() throws {
        let player = Player(Self.steady())
        player.play([MIDIEvent(frame: 0, size: 3, byte0: 0xE0, byte1: 127, byte2: 127)], periods: 200)
        try #expect(abs(player.pitch() - 440 * pow(2, 2.0 / 12)) < 3)
    }

    @Test func instrumentIsSilentUntilANoteAndAfterItsRelease() throws {
        let player = Player(Self.steady(instrument: true))
        player.play(periods: 50)
        #expect(SignalAnalysis.peak(player.output) == 0)
        player.play([Self.note(69)], periods: 200)
        #expect(player.rms(last: 4096) > 0.1)
        try #expect(abs(player.pitch() - 440) < 3)
        player.play([Self.off(69)], periods: 100)  // release 30 ms = 1440 samples
        #expect(player.rms(last: 2048) == 0)
        #expect(player.renderer.performer.soundingCount == 0)
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2, "no click at note-on or release")
    }

    @Test func aNoteStartsAtItsFrame() {
        let player = Player(Self.steady(instrument: true))
        player.play([Self.note(69, at: 37)], periods: 2)
        let first = player.output.firstIndex { $0 != 0 }
        #expect(first == 38, "the attack starts at frame 37 from level 0")
    }

    @Test func twoNotesGiveTwoPeaks() throws {
        let player = Player(Self.steady(instrument: true))
        player.play([Self.note(69), Self.note(76)], periods: 300)
        let spectrum = try SignalAnalysis.spectrum(player.output, start: player.output.count - 16384, size: 16384)
        let bin = Self.rate / 16384
        func level(_ hz: Double) -> Double { spectrum[Int((hz / bin).rounded())] }
        let fifth = 440 * pow(2, 7.0 / 12)
        #expect(level(440) > 100 * level(600))
        #expect(level(fifth) > 100 * level(600))
        #expect(SignalAnalysis.peak(player.output) <= 0.5 + 1e-6, "never beyond the amplitude")
    }

    @Test func velocityChangesTheLevel() {
        let loud = Player(Self.steady(instrument: true))
        let soft = Player(Self.steady(instrument: true))
        loud.play([Self.note(69, velocity: 127)], periods: 100)
        soft.play([Self.note(69, velocity: 64)], periods: 100)
        let ratio = soft.rms(last: 4096) / loud.rms(last: 4096)
        #expect(abs(ratio - Double(VelocityCurve.gain(64))) < 0.01)
    }

    @Test func voicesAreStolenReleasedFirstThenOldest() {
        var shape = Self.steady(instrument: true, voices: 2)
        shape.performance.release = 2000
        let player = Player(shape)
        player.play([Self.note(60), Self.note(62)], periods: 10)
        player.play([Self.off(60)], periods: 10)  // 60 released (a long fade)
        player.play([Self.note(64)], periods: 20)  // steals 60, the released one
        #expect(player.renderer.performer.soundingNotes().sorted() == [62, 64])
        player.play([Self.note(65)], periods: 20)  // none released: the oldest, 62
        #expect(player.renderer.performer.soundingNotes().sorted() == [64, 65])
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2, "stealing fades")
    }

    @Test func sustainHoldsUntilThePedalLifts() {
        let player = Player(Self.steady(instrument: true))
        player.play([Self.cc(64, 127), Self.note(69)], periods: 20)
        player.play([Self.off(69)], periods: 100)
        #expect(player.rms(last: 2048) > 0.1)
        player.play([Self.cc(64, 0)], periods: 100)
        #expect(player.rms(last: 2048) == 0)
    }

    /// The performer counts its busy voices as they start and end (a drone's block asks that
    /// count instead of scanning the pool): the count always agrees with the pool, through
    /// stealing, releases, the sustain pedal and all notes off.
    @Test func theBusyVoiceCountAgreesWithThePool() {
        let player = Player(Self.steady(instrument: true, voices: 4))
        func counts() -> (busy: Int, sounding: Int) {
            (player.renderer.performer.busyVoices, player.renderer.performer.soundingCount)
        }
        player.play((60..<70).map { Self.note(UInt8($0)) }, periods: 10)  // six stolen
        #expect(counts().busy == counts().sounding && counts().busy >= 4)
        player.play([Self.cc(64, 127), Self.off(68), Self.off(69)], periods: 20)
        #expect(counts().busy == counts().sounding)
        player.play([Self.cc(64, 0)], periods: 200)
        #expect(counts().busy == counts().sounding)
        player.play([Self.cc(123, 0)], periods: 400)
        #expect(counts().busy == 0 && counts().sounding == 0)
    }

    @Test func monoIsLegato() throws {
        let player = Player(Self.steady(instrument: true, voices: 1))
        player.play([Self.note(69)], periods: 100)
        player.play([Self.note(81)], periods: 200)
        #expect(player.renderer.performer.soundingCount == 1)
        try #expect(abs(player.pitch() - 880) < 3)
        player.play([Self.off(81)], periods: 200)
        try #expect(abs(player.pitch() - 440) < 3, "back to the key still held")
    }

    @Test func oneShotPlaysOneCycle() throws {
        var shape = Self.steady(instrument: true)
        shape.duration = 0.1
        shape.performance.oneShot = true
        let player = Player(shape)
        player.play([Self.note(69)], periods: 150)  // 0.2 s, the key still down
        #expect(player.rms(last: 2048) == 0)
        #expect(SignalAnalysis.rms(player.output, range: 1000..<4000) > 0.1)
    }

    /// A new plan (another wave) while notes sound is cross-faded in each voice as in the
    /// drone: no step larger than the drone's own across the same change.
    @Test func newPlanUnderHeldNotesIsCrossFaded() throws {
        func largestStepAcrossWaveChange(instrument: Bool) throws -> Double {
            let player = Player(Self.steady(instrument: instrument))
            player.play(instrument ? [Self.note(69)] : [], periods: 50)
            try player.controller.set(.wave, to: .text("Triangle"))
            player.play(periods: 20)
            #expect({ player.renderer.engine.plan.wave == .triangle }())
            let start = 49 * MIDIPerformanceTests.period
            return SignalAnalysis.maximumStep(player.output, range: start..<player.output.count)
        }
        let drone = try largestStepAcrossWaveChange(instrument: false)
        let voices = try largestStepAcrossWaveChange(instrument: true)
        #expect(voices <= drone * 1.1 + 1e-4, "instrument \(voices), drone \(drone)")
    }

    @Test func mappedControllerMovesARampParameterAndStateFollows() throws {
        let player = Player(Self.steady())
        try player.controller.perform(.mapController(controller: 7, parameter: .amplitude))
        player.play([Self.cc(7, 127, at: 10)], periods: 4)
        #expect(player.renderer.engine.amplitude.target == 1)
        player.controller.collectHandback()
        #expect(player.controller.shape.amplitude == 1)
    }

    @Test func controllerOfAPlanParameterIsPerformedByTheControlSide() throws {
        var shape = Self.steady()
        shape.midiMap[21] = .wave
        let player = Player(shape)
        player.play([Self.cc(21, 127)], periods: 2)
        player.controller.collectHandback()
        #expect(player.controller.shape.wave == WaveType.allCases.last)
    }

    @Test func learnMapsTheNextController() throws {
        let player = Player(Self.steady())
        try player.controller.perform(.learnController(.echoVolume))
        player.play([Self.cc(64, 127), Self.cc(20, 0)], periods: 2)  // the pedal is never learnt
        player.controller.collectHandback()
        #expect(player.controller.shape.midiMap[20] == .echoVolume)
        #expect(player.controller.shape.midiMap[64] == nil)
        player.play([Self.cc(20, 127)], periods: 2)
        player.controller.collectHandback()
        #expect(player.controller.shape.echoVolume == 1)
    }

    final class Store: DocumentStore {
        func loadDocument(named name: String) throws -> ToneShape {
            var shape = MIDIPerformanceTests.steady()
            shape.name = name
            return shape
        }
        func saveDocument(_ shape: ToneShape, named name: String) throws -> String { name }
        func documentNames() -> [String] { ["first", "second", "third"] }
    }

    @Test func programChangeLoadsTheNthDocument() {
        var shape = Self.steady(instrument: true, voices: 5)
        shape.midiMap[7] = .amplitude
        let player = Player(shape, documents: Store())
        player.play([MIDIEvent(frame: 0, size: 2, byte0: 0xC0, byte1: 1)], periods: 2)
        player.controller.collectHandback()
        #expect(player.controller.shape.name == "second")
        #expect(
            player.controller.shape.performance.instrument && player.controller.shape.performance.voices == 5,
            "the MIDI setup stays")
        #expect(player.controller.shape.midiMap[7] == .amplitude)
        player.play([MIDIEvent(frame: 0, size: 2, byte0: 0xC0, byte1: 99)], periods: 2)
        player.controller.collectHandback()
        #expect(player.controller.shape.name == "second", "a program beyond the list changes nothing")
    }

    @Test func channelFilter() {
        let player = Player(Self.steady(instrument: true))
        player.renderer.setMIDIChannel(2)
        player.play([Self.note(69)], periods: 50)
        #expect(SignalAnalysis.peak(player.output) == 0)
        player.play([MIDIEvent(frame: 0, size: 3, byte0: 0x92, byte1: 69, byte2: 100)], periods: 50)
        #expect(SignalAnalysis.peak(player.output) > 0.1)
    }

    /// Hostile input: random bytes, running status, sysex, truncated events, every
    /// channel, 10,000 events a period; the output stays finite, within the amplitude and
    /// without clicks beyond what the notes themselves make, and nothing allocates.
    @Test(arguments: [false, true])
    func floodLeavesTheOutputCleanAndAllocatesNothing(_ instrument: Bool) {
        let player = Player(Self.steady(instrument: instrument))
        var random = SplitMix64(seed: instrument ? 7 : 11)
        var periods: [[MIDIEvent]] = []
        for _ in 0..<20 {
            var events: [MIDIEvent] = []
            events.reserveCapacity(10_000)
            for i in 0..<10_000 {
                let kind = random.next() % 6
                let status = UInt8(0x80 + (random.next() % 0x70))  // every channel message and channel
                let byte0: UInt8 = kind == 0 ? UInt8(random.next() % 0x80) : (kind == 1 ? 0xF0 : status)
                let size = kind == 2 ? Int(random.next() % 3) : (kind == 1 ? 300 : 3)
                events.append(
                    MIDIEvent(
                        frame: i * MIDIPerformanceTests.period / 10_000, size: size, byte0: byte0,
                        byte1: UInt8(random.next() % 0x100), byte2: UInt8(random.next() % 0x80)))
            }
            periods.append(events)
        }
        let buffer = player.buffer
        var peak: Float = 0
        var finite = true
        allocation_counter_start()
        for p in 0..<(periods.count + 20) {
            let events = p < periods.count ? periods[p] : []
            events.withUnsafeBufferPointer { midi in
                player.renderer.renderPeriod(
                    into: buffer, frames: MIDIPerformanceTests.period,
                    clock: PeriodClock(startMicros: 0, microsPerFrame: 20), midi: midi, transport: nil)
            }
            for i in 0..<MIDIPerformanceTests.period {
                finite = finite && buffer[i].isFinite
                peak = max(peak, abs(buffer[i]))
            }
        }
        let allocations = allocation_counter_stop()
        #expect(allocations == 0)
        #expect(finite)
        #expect(peak <= 0.5 + 1e-6)
    }

    @Test func renderingVoicesAllocatesNothing() {
        let player = Player(Self.steady(instrument: true, voices: 64))
        let notes = (0..<64).map { Self.note(UInt8(36 + $0), velocity: 100, at: $0) }
        let buffer = player.buffer
        let none = UnsafeBufferPointer<MIDIEvent>(start: nil, count: 0)
        allocation_counter_start()
        notes.withUnsafeBufferPointer { midi in
            for p in 0..<400 {
                player.renderer.renderPeriod(
                    into: buffer, frames: 64, clock: PeriodClock(startMicros: 0, microsPerFrame: 20),
                    midi: p == 0 ? midi : none, transport: nil)
            }
        }
        let allocations = allocation_counter_stop()
        #expect(allocations == 0)
        #expect(player.renderer.performer.soundingCount == 64)
    }

    @Test func transportStartsAndStopsTheCycle() {
        var shape = Self.steady()
        shape.performance.transport = true
        let player = Player(shape)
        player.transport = TransportState(rolling: false, frame: 0)
        player.play(periods: 50)
        #expect(SignalAnalysis.peak(player.output) == 0)
        player.transport = TransportState(rolling: true, frame: 0)
        player.play(periods: 50)
        #expect(player.rms(last: 2048) > 0.1)
        player.transport = TransportState(rolling: false, frame: 3200)
        player.play(periods: 50)
        #expect(player.rms(last: 2048) == 0)
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2)
    }

    @Test func transportRelocationTakesTheNewPlaceInTheCycle() throws {
        var shape = Self.steady()
        shape.points = [CurvePoint(time: 0, frequency: 220), CurvePoint(time: 1, frequency: 880)]
        shape.performance.transport = true
        let player = Player(shape)
        player.transport = TransportState(rolling: true, frame: 0)
        player.play(periods: 10)
        player.transport = TransportState(rolling: true, frame: 36_000)  // located to 0.75 s
        player.play(periods: 40)
        // 0.75 s + about 30 periods into the 220 -> 880 Hz rise.
        try #expect(player.pitch(last: 1024) > 700)
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2, "faded over the jump")
    }

    @Test func transportTempoAsksForTheCycleInBeats() {
        var shape = Self.steady()
        shape.performance.transport = true
        shape.performance.beats = 4
        let player = Player(shape)
        player.transport = TransportState(
            rolling: true, frame: 0,
            bbt: BarsBeats(
                bar: 1, beat: 1, tick: 0, ticksPerBeat: 1920,
                beatsPerBar: 4, beatsPerMinute: 120))
        player.play(periods: 2)
        player.controller.collectHandback()
        #expect(player.controller.shape.duration == 2, "4 beats at 120 bpm")
    }
}
