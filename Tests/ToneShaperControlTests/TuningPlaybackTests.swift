import CAllocationCounter
import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperAudio

/// A shape's tuning played from MIDI through the controller's renderer: 12-EDO sounds
/// sample for sample as no tuning, a 19-EDO and a just scale are measured by pitch on
/// several keys, unmapped keys are silent, and bend, `tune` and a new tuning apply on top.
@Suite("Tuning playback")
struct TuningPlaybackTests {
    typealias Player = MIDIPerformanceTests.Player
    static let rate = MIDIPerformanceTests.rate

    static func edo(_ n: Int) -> String {
        "! \(n)-EDO\n\(n)-EDO\n\(n)\n" + (1...n).map { $0 == n ? "2/1" : "\(Double($0) * 1200 / Double(n))" }.joined(separator: "\n") + "\n"
    }
    /// The 5-limit just major-minor scale (Scala's ji_12).
    static let just = "! ji_12.scl\n5-limit 12\n12\n16/15\n9/8\n6/5\n5/4\n4/3\n45/32\n3/2\n8/5\n5/3\n9/5\n15/8\n2/1\n"
    static let justRatios: [Double] = [1, 16.0 / 15, 9.0 / 8, 6.0 / 5, 5.0 / 4, 4.0 / 3, 45.0 / 32, 3.0 / 2, 8.0 / 5, 5.0 / 3, 9.0 / 5, 15.0 / 8]
    /// Twelve keys on middle C, A4 = 440 Hz, the octave at degree 12.
    static let standardMap = "! standard\n12\n0\n127\n60\n69\n440.0\n12\n" + (0..<12).map(String.init).joined(separator: "\n") + "\n"
    /// The white keys play a 7-note scale on C; the black keys are x.
    static let whiteKeys = "12\n0\n127\n60\n69\n440.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n"
    static let major = "major\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n"

    static func shape(instrument: Bool = true, tuning: Tuning?) -> ToneShape {
        var shape = MIDIPerformanceTests.steady(instrument: instrument, voices: 8)
        shape.tuning = tuning
        return shape
    }

    static func bend(_ value: Int) -> MIDIEvent {
        let raw = value + 8192
        return MIDIEvent(frame: 0, size: 3, byte0: 0xE0, byte1: UInt8(raw & 0x7F), byte2: UInt8(raw >> 7))
    }

    /// A performance that goes through every path a note's pitch takes: chords, stealing,
    /// legato-free re-strikes, bend, glide, a per-note expression, drone and instrument.
    static func perform(_ shape: ToneShape) throws -> [Float] {
        var glided = try shape.setting(.glide, to: .real(0.05))
        glided.performance.voices = shape.performance.voices
        let player = Player(glided)
        player.play([MIDIPerformanceTests.note(69), MIDIPerformanceTests.note(76, at: 10), MIDIPerformanceTests.note(52, at: 33)], periods: 120)
        player.play([bend(3000), MIDIPerformanceTests.off(76)], periods: 60)
        player.play([MIDIPerformanceTests.note(83), MIDIPerformanceTests.note(61, at: 5)], periods: 80)
        player.renderer.performer.express(key: 83, channel: nil, tuning: 0.37, volume: 0.8)
        player.play([bend(-8192), MIDIPerformanceTests.off(69), MIDIPerformanceTests.note(45, at: 50)], periods: 150)
        player.play([MIDIPerformanceTests.cc(123, 0)], periods: 60)
        return player.output
    }

    @Test func twelveEDOIsSampleForSampleNoTuning() throws {
        for instrument in [true, false] {
            let plain = try Self.perform(Self.shape(instrument: instrument, tuning: nil))
            #expect(SignalAnalysis.rms(plain) > 0.01)
            for tuning in [try Tuning(scale: Self.edo(12)), try Tuning(scale: Self.edo(12), keyboardMap: Self.standardMap)] {
                let tuned = try Self.perform(Self.shape(instrument: instrument, tuning: tuning))
                #expect(tuned.count == plain.count)
                let differing = zip(tuned, plain).filter { $0.0.bitPattern != $0.1.bitPattern }.count
                #expect(differing == 0, "instrument \(instrument), map \(tuning.keyboardMapText != nil): \(differing) samples differ")
            }
            // The comparison sees a tuning that is not 12-EDO.
            let other = try Self.perform(Self.shape(instrument: instrument, tuning: try Tuning(scale: Self.edo(19))))
            #expect(zip(other, plain).filter { $0.0.bitPattern != $0.1.bitPattern }.count > plain.count / 2)
        }
    }

    /// The pitch key `key` plays, measured from zero crossings over 0.4 s once it settled.
    static func measure(_ shape: ToneShape, key: UInt8, before: [MIDIEvent] = []) throws -> Double {
        let player = Player(shape)
        if !before.isEmpty { player.play(before, periods: 10) }
        player.play([MIDIPerformanceTests.note(key)], periods: 600)
        let length = Int(0.4 * rate)
        let output = player.output
        guard let f = SignalAnalysis.zeroCrossingFrequency(output, sampleRate: rate, range: (output.count - length)..<output.count) else {
            throw AnalysisWindowError("key \(key) is silent")
        }
        return f
    }

    static func cents(_ measured: Double, _ expected: Double) -> Double { 1200 * log2(measured / expected) }

    /// Measured errors, for the report: `swift test --filter TuningPlayback` prints them.
    static func check(_ label: String, _ measured: Double, _ expected: Double) {
        let error = cents(measured, expected)
        print(
            "tuning pitch: \(label): \(String(format: "%.4f", measured)) Hz, expected \(String(format: "%.4f", expected)) Hz, \(String(format: "%+.5f", error)) cents"
        )
        #expect(abs(error) < 0.1, "\(label): \(measured) Hz, expected \(expected) Hz (\(error) cents)")
    }

    @Test func nineteenEDOByPitch() throws {
        let shape = Self.shape(tuning: try Tuning(scale: Self.edo(19)))  // root 69 plays 440 Hz
        for key: UInt8 in [57, 64, 69, 70, 75, 81, 88] {
            let expected = 440 * pow(2, Double(Int(key) - 69) / 19)
            Self.check("19-EDO key \(key)", try Self.measure(shape, key: key), expected)
        }
        // With twelve keys whose formal octave is degree 19, root + 12 is an octave.
        let twelve = "12\n0\n127\n69\n69\n440.0\n19\n" + [0, 2, 3, 5, 6, 8, 10, 11, 13, 14, 16, 17].map(String.init).joined(separator: "\n")
        let mapped = Self.shape(tuning: try Tuning(scale: Self.edo(19), keyboardMap: twelve))
        Self.check("19-EDO, 12-key map, key 81", try Self.measure(mapped, key: 81), 880)
        Self.check("19-EDO, 12-key map, key 76", try Self.measure(mapped, key: 76), 440 * pow(2, 11.0 / 19))
    }

    @Test func aJustScaleByPitch() throws {
        // No map: the scale starts on the root note (69), key 69 + k plays degree k.
        let shape = Self.shape(tuning: try Tuning(scale: Self.just))
        for k in [1, 4, 7, 9, 11, 12, 16, -5] {
            let degree = ((k % 12) + 12) % 12
            let octaves = Double((k - degree) / 12)
            let expected = 440 * Self.justRatios[degree] * pow(2, octaves)
            Self.check("just, root 69 + \(k)", try Self.measure(shape, key: UInt8(69 + k)), expected)
        }
        // The standard map puts degree 0 on middle C: key n plays f(n)/f(69) over the root.
        let mapped = Self.shape(tuning: try Tuning(scale: Self.just, keyboardMap: Self.standardMap))
        for key in [60, 64, 67, 72, 76] {
            let ratio = { (n: Int) in Self.justRatios[(n - 60 + 120) % 12] * pow(2, Double((n - 60 + 120) / 12 - 10)) }
            Self.check("just, standard map, key \(key)", try Self.measure(mapped, key: UInt8(key)), 440 * ratio(key) / ratio(69))
        }
    }

    /// Bend and `tune` add to the tuning's pitch in semitones and cents.
    @Test func bendAndTuneApplyOnTop() throws {
        var shape = Self.shape(tuning: try Tuning(scale: Self.edo(19)))
        shape.tune = 50
        Self.check("19-EDO key 75, tune +50", try Self.measure(shape, key: 75), 440 * pow(2, 6.0 / 19 + 50.0 / 1200))
        shape.tune = 0
        // Bend up 4096/8191 of 2 semitones.
        Self.check(
            "19-EDO key 75, bend", try Self.measure(shape, key: 75, before: [Self.bend(4096)]), 440 * pow(2, 6.0 / 19 + 2 * 4096.0 / 8191 / 12))
    }

    @Test func unmappedKeysAreSilent() throws {
        let tuning = try Tuning(scale: Self.major, keyboardMap: Self.whiteKeys)
        let player = Player(Self.shape(tuning: tuning))
        player.play([MIDIPerformanceTests.note(61), MIDIPerformanceTests.note(66), MIDIPerformanceTests.note(73)], periods: 200)
        #expect(player.output.allSatisfy { $0 == 0 })
        #expect(player.renderer.performer.soundingCount == 0)
        player.play([MIDIPerformanceTests.note(64)], periods: 400)
        #expect(player.renderer.performer.soundingNotes() == [64])
        // Key 64 is degree 2 (5/4) over C; the root 69 is degree 5 (5/3).
        let f = try SignalAnalysis.zeroCrossingFrequency(
            player.output, sampleRate: Self.rate, range: (player.output.count - 16_384)..<player.output.count)
        Self.check("major, white keys, key 64", try #require(f), 440 * (5.0 / 4) / (5.0 / 3))

        // A drone ignores them too: its pitch stays where the last mapped key put it.
        let drone = Player(Self.shape(instrument: false, tuning: tuning))
        drone.play([MIDIPerformanceTests.note(72)], periods: 300)
        let before = try #require(
            SignalAnalysis.zeroCrossingFrequency(drone.output, sampleRate: Self.rate, range: (drone.output.count - 16_384)..<drone.output.count))
        drone.play([MIDIPerformanceTests.note(73)], periods: 300)
        let after = try #require(
            SignalAnalysis.zeroCrossingFrequency(drone.output, sampleRate: Self.rate, range: (drone.output.count - 16_384)..<drone.output.count))
        Self.check("drone, key 72", before, 440 * 2 / (5.0 / 3))
        #expect(abs(Self.cents(after, before)) < 0.01)
    }

    /// A tuning loaded while playing arrives with a new plan: the next note takes it.
    @Test func aTuningChangedWhilePlayingTakesTheNextNote() throws {
        let player = Player(Self.shape(tuning: nil))
        player.play([MIDIPerformanceTests.note(81)], periods: 300)
        var shape = player.controller.shape
        shape.tuning = try Tuning(scale: Self.edo(19))
        try player.controller.load(shape)
        player.controller.collectHandback()
        player.play([MIDIPerformanceTests.off(81)], periods: 100)
        player.controller.collectHandback()
        player.play([MIDIPerformanceTests.note(81)], periods: 600)
        let f = try #require(
            SignalAnalysis.zeroCrossingFrequency(player.output, sampleRate: Self.rate, range: (player.output.count - 16_384)..<player.output.count))
        Self.check("19-EDO loaded while playing, key 81", f, 440 * pow(2, 12.0 / 19))
        #expect(player.controller.livePlanCount <= 2)
    }

    /// On the audio thread a tuning costs nothing: notes on mapped and unmapped keys, and a
    /// new tuning's plan taken while they sound, allocate nothing.
    @Test func tunedNotesAndANewTuningAllocateNothing() throws {
        let player = Player(Self.shape(tuning: try Tuning(scale: Self.major, keyboardMap: Self.whiteKeys)))
        var shape = player.controller.shape
        shape.tuning = try Tuning(scale: Self.edo(19))
        try player.controller.load(shape)  // its plan waits in the channel
        let notes = (0..<48).map { MIDIPerformanceTests.note(UInt8(48 + $0), at: $0) }
        let none = UnsafeBufferPointer<MIDIEvent>(start: nil, count: 0)
        let buffer = player.buffer
        allocation_counter_start()
        notes.withUnsafeBufferPointer { midi in
            for p in 0..<300 {
                player.renderer.renderPeriod(
                    into: buffer, frames: 64, clock: PeriodClock(startMicros: 0, microsPerFrame: 20),
                    midi: p == 0 || p == 150 ? midi : none, transport: nil)
            }
        }
        let allocations = allocation_counter_stop()
        #expect(allocations == 0)
        #expect(player.renderer.engine.plan.tuning != nil && player.renderer.performer.keyTuning?.isMapped(61) == true)
        #expect(player.renderer.performer.soundingCount > 0)
        player.controller.collectHandback()
    }

    /// A root note moved by a mapped controller (on the audio side) brings a scale without
    /// a map along: it starts on the new root.
    @Test func aRootMovedByAControllerMovesTheScale() throws {
        var shape = Self.shape(tuning: try Tuning(scale: Self.just))
        shape.midiMap[20] = .rootNote
        let player = Player(shape)
        player.play([MIDIPerformanceTests.cc(20, 60)], periods: 2)
        player.controller.collectHandback()
        #expect(player.controller.shape.performance.rootNote == 60)
        player.play([], periods: 50)  // the new plan's cross-fade
        player.controller.collectHandback()
        player.play([MIDIPerformanceTests.note(62)], periods: 600)
        let f = try #require(
            SignalAnalysis.zeroCrossingFrequency(player.output, sampleRate: Self.rate, range: (player.output.count - 16_384)..<player.output.count))
        Self.check("just, root moved to 60 by a controller, key 62", f, 440 * 9 / 8)
    }
}
