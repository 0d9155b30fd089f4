import Foundation
import Testing
import ToneShaperModel
import ToneShaperTestSupport

@testable import ToneShaperAudio

/// Notes ended as a host's note-off or choke with wildcards asks
/// (``RealtimeRenderer/endNotes(key:channel:choke:)``): the notes of a key, of a channel, or
/// all; let go as a note-off lets them go (the pedal holds them) or choked (gone in a
/// stolen voice's 5 ms, pedal or not); in drone mode the keys are let go and the pitch
/// returns.
@Suite struct NoteEndTests {
    typealias Performance = MIDIPerformanceTests

    static func note(_ note: UInt8, channel: UInt8 = 0) -> MIDIEvent {
        MIDIEvent(frame: 0, size: 3, byte0: 0x90 | channel, byte1: note, byte2: 100)
    }

    /// Sounding notes as (channel, key), sorted.
    static func sounding(_ player: Performance.Player) -> [[Int]] {
        let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 32)
        defer { bits.deallocate() }
        bits.initialize(repeating: 0, count: 32)
        player.renderer.performer.markSoundingNotes(bits)
        return (0..<2048).filter { bits[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }.map { [$0 >> 7, $0 & 127] }
    }

    /// A3 and E4 on channel 0, C4 on channel 1, in instrument mode (release 30 ms: 23 periods).
    static func threeNotes(voices: Int = 16, release: Double = 30) -> Performance.Player {
        var shape = Performance.steady(instrument: true, voices: voices)
        shape.performance.release = release
        let player = Performance.Player(shape)
        player.play([note(57), note(64), note(60, channel: 1)], periods: 20)
        return player
    }

    @Test func aWildcardKeyEndsTheNotesOfItsChannelOnly() {
        let player = Self.threeNotes()
        #expect(Self.sounding(player) == [[0, 57], [0, 64], [1, 60]])
        player.renderer.endNotes(key: nil, channel: 0, choke: false)
        player.play(periods: 10)
        #expect(Self.sounding(player).count == 3, "released, fading over 30 ms")
        player.play(periods: 20)
        #expect(Self.sounding(player) == [[1, 60]])
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2, "no click")
    }

    @Test func aWildcardChannelEndsTheKeyOnEveryChannel() {
        let player = Self.threeNotes()
        player.play([Self.note(64, channel: 1)], periods: 5)
        player.renderer.endNotes(key: 64, channel: nil, choke: false)
        player.play(periods: 30)
        #expect(Self.sounding(player) == [[0, 57], [1, 60]])
    }

    @Test func everyFieldAWildcardEndsEveryNote() {
        let player = Self.threeNotes()
        player.renderer.endNotes(key: nil, channel: nil, choke: false)
        player.play(periods: 30)
        #expect(Self.sounding(player).isEmpty && player.rms(last: 256) == 0)
        #expect(player.renderer.performer.busyVoices == 0)
    }

    @Test func aChokeFadesAtOncePedalOrNot() {
        // A long release (2 s) under the sustain pedal: a note-off keeps the notes; a choke
        // ends them within 5 ms (240 frames: 4 periods).
        let player = Self.threeNotes(release: 2_000)
        player.play([Performance.cc(64, 127)], periods: 2)
        player.renderer.endNotes(key: nil, channel: nil, choke: false)
        player.play(periods: 10)
        #expect(Self.sounding(player).count == 3, "the pedal holds them")
        player.renderer.endNotes(key: 57, channel: 0, choke: true)
        player.play(periods: 5)
        #expect(Self.sounding(player) == [[0, 64], [1, 60]])
        player.renderer.endNotes(key: nil, channel: nil, choke: true)
        player.play(periods: 5)
        #expect(Self.sounding(player).isEmpty && player.rms(last: 64) == 0)
        #expect(SignalAnalysis.maximumStep(player.output) < 0.2, "a choke fades: no click")
    }

    @Test func monoLetsGoOfEveryKeyItHolds() throws {
        let player = Performance.Player(Performance.steady(instrument: true, voices: 1))
        player.play([Self.note(69)], periods: 10)
        player.play([Self.note(81)], periods: 100)
        player.renderer.endNotes(key: nil, channel: nil, choke: false)
        player.play(periods: 40)
        #expect(Self.sounding(player).isEmpty, "the voice was released, not handed back to A4")
        // No key is left held: a new note and its release leave silence, not A4.
        player.play([Self.note(76)], periods: 20)
        player.play([Performance.off(76)], periods: 40)
        #expect(Self.sounding(player).isEmpty)
        // One key of mono's held keys: the voice goes back to the other, as a note-off does.
        player.play([Self.note(69)], periods: 10)
        player.play([Self.note(81)], periods: 10)
        player.renderer.endNotes(key: 81, channel: nil, choke: false)
        player.play(periods: 200)
        #expect(player.renderer.performer.soundingNotes() == [69])
        try #expect(abs(player.pitch() - 440) < 3)
    }

    @Test func droneKeysAreLetGoAndThePitchReturns() throws {
        let player = Performance.Player(Performance.steady())
        player.play([Self.note(81), Self.note(76)], periods: 200)
        try #expect(abs(player.pitch() - 440 * pow(2, 7.0 / 12)) < 3)
        player.renderer.endNotes(key: 76, channel: nil, choke: true)
        player.play(periods: 200)
        try #expect(abs(player.pitch() - 880) < 3, "back to the key still held")
        player.renderer.endNotes(key: nil, channel: nil, choke: false)
        player.play(periods: 200)
        try #expect(abs(player.pitch() - 440) < 3, "every key let go")
        // Under the pedal a note-off holds the drone's key; a choke lets go at once.
        player.play([Performance.cc(64, 127), Self.note(81)], periods: 200)
        player.renderer.endNotes(key: nil, channel: nil, choke: false)
        player.play(periods: 200)
        try #expect(abs(player.pitch() - 880) < 3, "the pedal holds the key")
        player.renderer.endNotes(key: nil, channel: nil, choke: true)
        player.play(periods: 200)
        try #expect(abs(player.pitch() - 440) < 3)
    }
}
