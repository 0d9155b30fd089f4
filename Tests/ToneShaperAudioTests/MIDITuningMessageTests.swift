import Testing
import ToneShaperAudio

/// The MIDI Tuning Standard's messages, byte for byte as the MMA specifies them: each form
/// read, every refusal, and the bulk dump's checksum.
@Suite struct MIDITuningMessageTests {
    func read(_ bytes: [UInt8]) -> Result<MIDITuningMessage.Change, MIDITuningMessage.Refusal> {
        bytes.withUnsafeBytes { MIDITuningMessage.read($0) }
    }

    func retunings(_ bytes: [UInt8]) -> [Int: Double] {
        var found: [Int: Double] = [:]
        bytes.withUnsafeBytes { MIDITuningMessage.retunings($0) { found[$0] = $1 } }
        return found
    }

    /// A semitone and a 14-bit fraction: 69 00 00 is A4 (440 Hz), 3C 7F 7F just under
    /// C#4, 7F 7F 7F no change.
    @Test func pitchBytes() {
        #expect(MIDITuningMessage.pitch(69, 0, 0) == 69)
        #expect(MIDITuningMessage.pitch(60, 0x40, 0) == 60.5)
        #expect(MIDITuningMessage.pitch(60, 0x7F, 0x7F) == 60 + 16_383.0 / 16_384)
        #expect(MIDITuningMessage.pitch(0x7F, 0x7F, 0x7F) == nil)
    }

    /// Real-time single note tuning change: key 69 a quarter tone up, key 60 to 61 exactly,
    /// key 62 left as it is (7F 7F 7F); and the same with a bank, real-time and not.
    @Test func singleNoteChanges() {
        let keys: [UInt8] = [69, 69, 0x20, 0, 60, 61, 0, 0, 62, 0x7F, 0x7F, 0x7F]
        let plain: [UInt8] = [0xF0, 0x7F, 0x7F, 0x08, 0x02, 0, 3] + keys + [0xF7]
        #expect(read(plain) == .success(.keys))
        #expect(retunings(plain) == [69: 69.25, 60: 61])
        for realTime: UInt8 in [0x7E, 0x7F] {
            let banked: [UInt8] = [0xF0, realTime, 0x10, 0x08, 0x07, 2, 5, 3] + keys + [0xF7]
            #expect(read(banked) == .success(.keys))
            #expect(retunings(banked) == [69: 69.25, 60: 61])
        }
        // The non-real-time form has no 02 (that is the dump request's 00/dump's 01 space).
        #expect(read([0xF0, 0x7E, 0x7F, 0x08, 0x02, 0, 1, 69, 69, 0, 0, 0xF7]) == .failure(.unsupported))
    }

    /// A bulk dump: 128 keys a quarter tone up but key 0 left alone, with its checksum;
    /// the same with a wrong checksum, or a byte short, is refused whole.
    @Test(arguments: [UInt8(0x01), 0x04])
    func bulkDump(form: UInt8) {
        var message: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, form] + (form == 0x04 ? [1] : []) + [3] + Array("quarter tones   ".utf8)
        message += [0x7F, 0x7F, 0x7F]
        for key in 1..<128 { message += [UInt8(key), 0x20, 0] }
        var sum: UInt8 = 0
        for byte in message.dropFirst() { sum ^= byte }
        let whole = message + [sum & 0x7F, 0xF7]
        #expect(read(whole) == .success(.keys))
        let found = retunings(whole)
        #expect(found.count == 127 && found[0] == nil && found[69] == 69.25 && found[127] == 127.25)
        #expect(read(message + [(sum ^ 1) & 0x7F, 0xF7]) == .failure(.checksum))
        #expect(read(Array(message.dropLast()) + [sum & 0x7F, 0xF7]) == .failure(.malformed))
    }

    /// Scale/octave tuning, 1-byte (cents − 64) and 2-byte (14 bits, 0x2000 at 0, ±100 cents)
    /// forms, on the channels their three bytes set (15–14, 13–7, 6–0).
    @Test func scaleOctave() {
        let oneByte: [UInt8] = [0xF0, 0x7F, 0x7F, 0x08, 0x08, 0x03, 0x00, 0x01] + [64, 50, 64, 78, 64, 64, 64, 64, 64, 64, 64, 0] + [0xF7]
        guard case .success(.scaleOctave(let channels, let cents)) = read(oneByte) else {
            Issue.record("1-byte form not read")
            return
        }
        #expect(channels == 0b1100_0000_0000_0001)
        #expect(cents[0] == 0 && cents[1] == -14 && cents[3] == 14 && cents[11] == -64)
        var twoBytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x09, 0x00, 0x7F, 0x7F]
        for k in 0..<12 {
            let value = [0, 0x3FFF, 0x2000, 0x1000][k % 4]
            twoBytes += [UInt8(value >> 7), UInt8(value & 0x7F)]
        }
        guard case .success(.scaleOctave(let channels2, let cents2)) = read(twoBytes + [0xF7]) else {
            Issue.record("2-byte form not read")
            return
        }
        #expect(channels2 == 0x3FFF)
        #expect(cents2[0] == -100 && abs(cents2[1] - 100 * 8191 / 8192) < 1e-12 && cents2[2] == 0 && cents2[3] == -50)
    }

    /// What is not a tuning message, or not whole, changes nothing.
    @Test func refusals() {
        #expect(read([0xF0, 0x43, 0x10, 0x4C, 0xF7]) == .failure(.notTuning))  // a Yamaha message
        #expect(read([0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]) == .failure(.notTuning))  // an identity request
        #expect(read([0xF0, 0x7E, 0x7F, 0x08, 0x00, 0x03, 0xF7]) == .failure(.unsupported))  // a dump request
        #expect(read([0xF0, 0x7F, 0x7F, 0x08, 0x02, 0, 2, 69, 69, 0, 0, 0xF7]) == .failure(.malformed))  // says 2, holds 1
        #expect(read([0xF0, 0x7F, 0x7F, 0x08, 0x02, 0, 1, 69, 0x80, 0, 0, 0xF7]) == .failure(.malformed))  // a data byte above 7F
        #expect(read([0xF0, 0x7F, 0x7F, 0x08, 0x02, 0, 1, 69, 69, 0, 0]) == .failure(.malformed))  // no F7
    }
}
