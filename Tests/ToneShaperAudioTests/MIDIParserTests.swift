import Foundation
import Testing
import ToneShaperAudio
import ToneShaperParameters

@Suite("MIDI parser")
struct MIDIParserTests {
    private func event(_ bytes: [UInt8], size: Int? = nil) -> MIDIEvent {
        MIDIEvent(
            frame: 0, size: size ?? bytes.count, byte0: bytes.count > 0 ? bytes[0] : 0,
            byte1: bytes.count > 1 ? bytes[1] : 0, byte2: bytes.count > 2 ? bytes[2] : 0)
    }

    @Test func channelMessages() {
        var parser = MIDIParser()
        #expect(parser.parse(event([0x93, 60, 100])) == .noteOn(channel: 3, note: 60, velocity: 100))
        #expect(parser.parse(event([0x83, 60, 0])) == .noteOff(channel: 3, note: 60))
        #expect(parser.parse(event([0x90, 60, 0])) == .noteOff(channel: 0, note: 60), "velocity 0 is a note-off")
        #expect(parser.parse(event([0xB1, 74, 127])) == .controlChange(channel: 1, controller: 74, value: 127))
        #expect(parser.parse(event([0xCF, 5])) == .programChange(channel: 15, program: 5))
        #expect(parser.parse(event([0xE0, 0, 64])) == .pitchBend(channel: 0, value: 0))
        #expect(parser.parse(event([0xE0, 127, 127])) == .pitchBend(channel: 0, value: 8191))
        #expect(parser.parse(event([0xE0, 0, 0])) == .pitchBend(channel: 0, value: -8192))
        #expect(parser.parse(event([0xD0, 40])) == nil, "channel pressure is read and ignored")
    }

    @Test func runningStatus() {
        var parser = MIDIParser()
        #expect(parser.parse(event([61, 90])) == nil, "data without any status before it")
        _ = parser.parse(event([0x92, 60, 100]))
        #expect(parser.parse(event([62, 80])) == .noteOn(channel: 2, note: 62, velocity: 80))
        #expect(parser.parse(event([0xF8])) == nil)
        #expect(parser.parse(event([63, 70])) == .noteOn(channel: 2, note: 63, velocity: 70), "a clock byte keeps the running status")
        #expect(parser.parse(event([0xF0, 0x7E, 0x7F], size: 40)) == nil, "sysex is skipped")
        #expect(parser.parse(event([64, 70])) == nil, "sysex cancels the running status")
    }

    @Test func brokenEventsAreDropped() {
        var parser = MIDIParser()
        #expect(parser.parse(event([0x90, 60])) == nil, "a note-on cut short")
        #expect(parser.parse(event([0x90])) == nil)
        #expect(parser.parse(event([], size: 0)) == nil)
        #expect(parser.parse(event([0x90, 0x80, 0x40])) == nil, "a data byte with the top bit set")
        #expect(parser.parse(event([0xB0, 7, 0xFF])) == nil)
        #expect(parser.parse(event([0xC0])) == nil)
        #expect(parser.parse(event([0x90, 60, 100])) == .noteOn(channel: 0, note: 60, velocity: 100), "and it goes on after them")
    }

    @Test func powerOfTwo() {
        for x in stride(from: -30.0, through: 30.0, by: 0.37) {
            let exact = pow(2.0, x)
            #expect(abs(FastPower.exp2(x) - exact) <= 1e-12 * exact, "2^\(x)")
        }
    }
}
