import CAllocationCounter
import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperAudio

/// The MIDI Tuning Standard applied by the performer: each message form gives its keys
/// exact pitches (semitones from the root note), real-time ones retune what sounds, a bad
/// message is counted and changes nothing, resets drop the keys it set, an MTS-ESP table
/// overrides them while a master is there, and none of it allocates on the audio thread.
@Suite("MTS performance")
struct MTSPerformanceTests {
    typealias Player = MIDIPerformanceTests.Player
    typealias Tests = MIDIPerformanceTests

    /// System exclusive messages whose bytes live as long as the value (events point into them).
    final class Messages {
        private var buffers: [UnsafeMutableRawBufferPointer] = []
        deinit { for buffer in buffers { buffer.deallocate() } }

        func event(_ bytes: [UInt8], at frame: Int = 0) -> MIDIEvent {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            copy.copyBytes(from: bytes)
            buffers.append(copy)
            return MIDIEvent(frame: frame, bytes: copy.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        }
    }

    /// Real-time single note tuning change of `keys` (key, semitone, 14-bit fraction).
    static func singleNote(_ keys: [(UInt8, UInt8, Int)], realTime: Bool = true) -> [UInt8] {
        let data = keys.flatMap { [$0.0, $0.1, UInt8($0.2 >> 7), UInt8($0.2 & 0x7F)] }
        if realTime { return [0xF0, 0x7F, 0x7F, 0x08, 0x02, 0, UInt8(keys.count)] + data + [0xF7] }
        return [0xF0, 0x7E, 0x7F, 0x08, 0x07, 0, 0, UInt8(keys.count)] + data + [0xF7]
    }

    /// A bulk dump giving key k the pitch `pitch(k)` (semitone, fraction), its checksum right
    /// or one off.
    static func bulkDump(wrongChecksum: Bool = false, _ pitch: (Int) -> (UInt8, Int)) -> [UInt8] {
        var message: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x01, 0] + Array("mts test        ".utf8)
        for key in 0..<128 {
            let (semitone, fraction) = pitch(key)
            message += [semitone, UInt8(fraction >> 7), UInt8(fraction & 0x7F)]
        }
        var sum: UInt8 = 0
        for byte in message.dropFirst() { sum ^= byte }
        return message + [(wrongChecksum ? sum ^ 1 : sum) & 0x7F, 0xF7]
    }

    static func shape(instrument: Bool = true) -> ToneShape { Tests.steady(instrument: instrument, voices: 8) }

    func semitones(_ player: Player, _ key: UInt8, channel: UInt8 = 0) -> Double? {
        player.renderer.performer.keySemitones(key, channel: channel)
    }

    @Test func eachFormGivesItsKeysExactPitches() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        let root = Double(player.renderer.performer.settings.rootNote)
        // Single note, real-time: 69 a quarter tone up, 60 to 61 exactly, 62 left (7F 7F 7F).
        player.play([messages.event(Self.singleNote([(69, 69, 0x1000), (60, 61, 0), (62, 0x7F, 0x3FFF)]))])
        #expect(semitones(player, 69) == 69.25 - root)
        #expect(semitones(player, 60, channel: 9) == 61 - root)
        #expect(semitones(player, 62) == 62 - root)
        // With a bank, non-real-time.
        player.play([messages.event(Self.singleNote([(64, 64, 8192 + 4096)], realTime: false))])
        #expect(semitones(player, 64) == 64.75 - root)
        // A bulk dump: every key a third of a semitone up but key 0 ("no change").
        player.play([messages.event(Self.bulkDump { $0 == 0 ? (0x7F, 0x3FFF) : (UInt8($0), 16_384 / 4) })])
        #expect(semitones(player, 100, channel: 3) == 100.25 - root)
        #expect(semitones(player, 0) == 0 - root)
        // Scale/octave 1-byte on channels 0 and 15: C# −14 cents, D# +14; the others unchanged.
        let oneByte: [UInt8] = [0xF0, 0x7F, 0x7F, 0x08, 0x08, 0x02, 0x00, 0x01] + [64, 50, 64, 78, 64, 64, 64, 64, 64, 64, 64, 0] + [0xF7]
        player.play([messages.event(oneByte)])
        #expect(semitones(player, 61) == 61 - 0.14 - root)
        #expect(semitones(player, 63, channel: 15) == 63 + 0.14 - root)
        #expect(semitones(player, 71, channel: 15) == 71 - 0.64 - root)
        #expect(semitones(player, 61, channel: 1) == 61.25 - root)  // the dump's, channel 1 not chosen
        // 2-byte: every pitch class −50 cents (0x1000) on channel 1.
        let twoBytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x09, 0x00, 0x00, 0x02] + Array(repeating: [0x20, 0x00], count: 12).flatMap { $0 } + [0xF7]
        player.play([messages.event(twoBytes)])
        #expect(semitones(player, 61, channel: 1) == 60.5 - root)
        #expect(semitones(player, 61) == 61 - 0.14 - root)
        #expect(player.renderer.refusedTuningMessages == 0)
    }

    @Test func aBadMessageIsCountedAndChangesNothing() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        let root = Double(player.renderer.performer.settings.rootNote)
        player.play([messages.event(Self.bulkDump(wrongChecksum: true) { (UInt8($0), 8192) })])
        #expect(player.renderer.refusedTuningMessages == 1)
        #expect(semitones(player, 70) == 70 - root)
        // Truncated (a key's bytes cut short), and a byte above 7F inside.
        let truncated = Array(Self.singleNote([(70, 71, 0)]).dropLast(2)) + [0xF7]
        var high = Self.singleNote([(70, 71, 0)])
        high[9] = 0x80
        player.play([messages.event(truncated), messages.event(high)])
        #expect(player.renderer.refusedTuningMessages == 3)
        #expect(semitones(player, 70) == 70 - root)
        // Another manufacturer's message, or a dump request, is no fault.
        player.play([
            messages.event([0xF0, 0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]), messages.event([0xF0, 0x7E, 0x7F, 0x08, 0x00, 0x00, 0xF7]),
        ])
        #expect(player.renderer.refusedTuningMessages == 3)
    }

    /// The pitch of the last 0.1 s rendered.
    static func pitch(_ player: Player) throws -> Double {
        let n = Int(0.1 * Tests.rate)
        return try #require(
            SignalAnalysis.zeroCrossingFrequency(player.output, sampleRate: Tests.rate, range: (player.output.count - n)..<player.output.count))
    }

    /// A real-time change moves a held note within the retune time (1 ms, under a 64-frame
    /// period here); a non-real-time one leaves it and tunes the next note.
    @Test func realTimeRetunesWhatSoundsNonRealTimeTheNextNote() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        player.play([Tests.note(69)], periods: 200)
        TuningPlaybackTests.check("held 69 before", try Self.pitch(player), 440)
        // A whole tone up, at frame 0 of a period: the next period plays the new pitch.
        player.play([messages.event(Self.singleNote([(69, 71, 0)]))], periods: 1)
        // The retune (1 ms, 48 frames) ended inside that period.
        let voice = try #require((0..<8).first { player.renderer.performer.pool[$0].stage == .held })
        #expect(player.renderer.performer.pool[voice].ratioLeft == 0)
        #expect(abs(player.renderer.performer.pool[voice].ratio - pow(2, 2.0 / 12)) < 1e-12)
        player.play([], periods: 200)
        TuningPlaybackTests.check("held 69 retuned to 71", try Self.pitch(player), 440 * pow(2, 2.0 / 12))
        // Non-real-time: the sounding note stays; a new strike takes it.
        player.play([messages.event(Self.singleNote([(69, 72, 0)], realTime: false))], periods: 200)
        TuningPlaybackTests.check("held 69 after a non-real-time change", try Self.pitch(player), 440 * pow(2, 2.0 / 12))
        player.play([Tests.off(69)], periods: 100)
        player.play([Tests.note(69)], periods: 200)
        TuningPlaybackTests.check("69 struck again", try Self.pitch(player), 440 * pow(2, 3.0 / 12))
    }

    /// A real-time message moves the voices of its own keys only: a voice a non-real-time
    /// message left at its pitch keeps it.
    @Test func realTimeMovesItsOwnKeysOnly() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        player.play([Tests.note(69), Tests.note(76)], periods: 20)
        player.play([messages.event(Self.singleNote([(69, 70, 0)], realTime: false))], periods: 20)
        player.play([messages.event(Self.singleNote([(76, 77, 0)]))], periods: 20)
        let pool = player.renderer.performer.pool
        let voices = (0..<8).filter { pool[$0].stage == .held }
        let pitches = Dictionary(uniqueKeysWithValues: voices.map { (pool[$0].note, pool[$0].semitones) })
        #expect(pitches == [69: 0, 76: 8], "\(pitches)")
    }

    /// A drone's key follows a real-time change too.
    @Test func aDroneKeyIsRetuned() throws {
        let messages = Messages()
        let player = Player(Self.shape(instrument: false))
        player.play([Tests.note(81)], periods: 200)
        TuningPlaybackTests.check("drone 81", try Self.pitch(player), 880)
        player.play([messages.event(Self.singleNote([(81, 76, 0)]))], periods: 200)
        TuningPlaybackTests.check("drone 81 retuned to 76", try Self.pitch(player), 440 * pow(2, 7.0 / 12))
    }

    /// GM System On, a new tuning of the shape and OSC's tuning/reset each drop the keys MTS set.
    @Test func resetsDropTheTunedKeys() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        let root = Double(player.renderer.performer.settings.rootNote)
        let retune = messages.event(Self.singleNote([(72, 73, 0)]))
        player.play([retune])
        player.play([messages.event([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])])
        #expect(semitones(player, 72) == 72 - root)
        player.play([retune])
        player.play([messages.event([0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7])])
        #expect(semitones(player, 72) == 72 - root)
        // A new plan of the same (no) tuning keeps them; a new tuning drops them.
        player.play([retune])
        try player.controller.set(.amplitude, to: .real(0.4))
        try player.controller.set(.duration, to: .real(1.5))
        player.play([], periods: 20)
        player.controller.collectHandback()
        #expect(semitones(player, 72) == 73 - root)
        try player.controller.perform(.setTuningScale(TuningPlaybackTests.edo(19)))
        player.play([], periods: 20)
        player.controller.collectHandback()
        #expect(abs(try #require(semitones(player, 72)) - 3 * 12 / 19.0) < 1e-9)
        player.play([retune])
        #expect(semitones(player, 72) == 73 - root)
        try player.controller.perform(.resetTuning)
        player.play([], periods: 20)
        player.controller.collectHandback()
        #expect(semitones(player, 72) == 72 - root)
        // OSC's reset with no tuning to drop still drops the keys.
        player.play([retune])
        try player.controller.perform(.resetTuning)
        player.play([], periods: 2)
        #expect(semitones(player, 72) == 72 - root)
    }

    /// An MTS-ESP master's table overrides MTS while it is there, retunes what sounds when
    /// it changes, and gives way when the master goes.
    @Test func anExternalTableOverridesWhileThere() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        player.play([messages.event(Self.singleNote([(69, 70, 0)])), Tests.note(69)], periods: 200)
        TuningPlaybackTests.check("69 by MTS", try Self.pitch(player), 440 * pow(2, 1.0 / 12))
        var table = (0..<128).map { 440 * pow(2, (Double($0) - 69) / 12) }
        table[69] = 495  // 9/8
        table.withUnsafeBufferPointer { player.renderer.takeExternalTuning($0.baseAddress) }
        player.play([], periods: 200)
        TuningPlaybackTests.check("69 by the master", try Self.pitch(player), 495)
        player.renderer.takeExternalTuning(nil)
        player.play([], periods: 200)
        TuningPlaybackTests.check("69 by MTS again", try Self.pitch(player), 440 * pow(2, 1.0 / 12))
    }

    /// Tuning messages of every form, a refused one and a reset, among notes, and an
    /// external table, allocate nothing on the audio thread.
    @Test func tuningAllocatesNothing() throws {
        let messages = Messages()
        let player = Player(Self.shape())
        let events = [
            Tests.note(60), Tests.note(64, at: 3), messages.event(Self.singleNote([(60, 61, 5)]), at: 10),
            messages.event(Self.bulkDump { (UInt8($0), 100) }, at: 12), messages.event(Self.bulkDump(wrongChecksum: true) { (UInt8($0), 0) }, at: 13),
            messages.event([0xF0, 0x7F, 0x7F, 0x08, 0x08, 0x03, 0x7F, 0x7F] + Array(repeating: 70, count: 12) + [0xF7], at: 20),
            messages.event([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7], at: 30), messages.event(Self.singleNote([(64, 65, 0)]), at: 40),
        ]
        let table = (0..<128).map { 440 * pow(2, (Double($0) - 69.5) / 12) }
        let none = UnsafeBufferPointer<MIDIEvent>(start: nil, count: 0)
        let buffer = player.buffer
        allocation_counter_start()
        events.withUnsafeBufferPointer { midi in
            table.withUnsafeBufferPointer { external in
                for p in 0..<100 {
                    if p == 50 { player.renderer.takeExternalTuning(external.baseAddress) }
                    if p == 80 { player.renderer.takeExternalTuning(nil) }
                    player.renderer.renderPeriod(
                        into: buffer, frames: 64, clock: PeriodClock(startMicros: 0, microsPerFrame: 20), midi: p == 0 ? midi : none, transport: nil)
                }
            }
        }
        #expect(allocation_counter_stop() == 0)
        #expect(player.renderer.refusedTuningMessages == 1)
        #expect(player.renderer.performer.soundingCount == 2)
    }
}
