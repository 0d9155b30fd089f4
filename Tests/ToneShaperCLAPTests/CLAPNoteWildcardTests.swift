import Testing
import ToneShaperTestSupport

/// CLAP's note-off and note choke with wildcards (-1 for the port, the channel, the key or
/// the note id: "every note there", what hosts send to end all notes), through the
/// project's CLAP host: the notes each one reaches end (their NOTE_END frames say when),
/// the others play on. Instrument mode, a 30 ms release (1,440 frames); a choke fades as a
/// stolen voice, in 5 ms (240 frames).
@Suite struct CLAPNoteWildcardTests {
    static let instrument = ["--flush", "11=1", "--flush", "3=0"]
    /// Three notes from frame 100: A3 (id 7) and E4 (id 8) on channel 0, C4 (id 9) on channel 1.
    static let notes = ["--note", "100:57:100:-1:7", "--note", "100:64:100:-1:8", "--channel-note", "100:1:60:100:9"]
    static let at = 4_800

    /// The note ends the plugin sent, by note id: the frame each ended at.
    static func ends(_ event: [String]) throws -> [Int: Int] {
        let (result, _) = try CLAPTools.play(CLAPTools.monoID, instrument + notes + event, frames: 14_400)
        #expect(result.status == 0 && result.number("log_messages") == 0, "\(result.output)")
        return Dictionary(uniqueKeysWithValues: CLAPExpressionTests.noteEnds(result).map { ($0[1], $0[0]) })
    }

    /// Released: ended after the release, in the block that finished it (256 frames).
    static func released(_ frame: Int?) -> Bool { frame.map { $0 >= at + 1_440 && $0 < at + 1_440 + 2 * 256 } ?? false }
    /// Choked: ended within the 5 ms fade, in the block that finished it.
    static func choked(_ frame: Int?) -> Bool { frame.map { $0 >= at + 240 && $0 < at + 240 + 2 * 256 } ?? false }

    @Test func aNoteOffWithEveryFieldAWildcardEndsEveryNote() throws {
        let ends = try Self.ends(["--note-off", "\(Self.at):-1:-1:-1:-1"])
        #expect(ends.keys.sorted() == [7, 8, 9] && ends.values.allSatisfy(Self.released), "\(ends)")
    }

    @Test func aNoteOffForAChannelEndsThatChannelsNotesOnly() throws {
        let ends = try Self.ends(["--note-off", "\(Self.at):0:0:-1:-1"])
        #expect(ends.keys.sorted() == [7, 8] && ends.values.allSatisfy(Self.released), "\(ends)")
        let other = try Self.ends(["--note-off", "\(Self.at):-1:1:-1:-1"])
        #expect(other.keys.sorted() == [9] && Self.released(other[9]), "\(other)")
    }

    @Test func aNoteOffForAKeyOnEveryChannelEndsThatKey() throws {
        let ends = try Self.ends(["--note-off", "\(Self.at):-1:-1:64:-1"])
        #expect(ends.keys.sorted() == [8] && Self.released(ends[8]), "\(ends)")
    }

    @Test func aNoteOffByNoteIDEndsThatNoteWhenTheOtherFieldsAgree() throws {
        let ends = try Self.ends(["--note-off", "\(Self.at):-1:-1:-1:9"])
        #expect(ends.keys.sorted() == [9] && Self.released(ends[9]), "\(ends)")
        // The id names channel 1's note: a channel or a key that disagrees reaches nothing.
        #expect(try Self.ends(["--note-off", "\(Self.at):-1:0:-1:9"]).isEmpty)
        #expect(try Self.ends(["--note-off", "\(Self.at):-1:-1:61:9"]).isEmpty)
        // An id no note has (ended, or never given) reaches nothing.
        #expect(try Self.ends(["--note-off", "\(Self.at):-1:-1:-1:42"]).isEmpty)
    }

    @Test func anotherPortsNoteOffEndsNothing() throws {
        #expect(try Self.ends(["--note-off", "\(Self.at):1:-1:-1:-1"]).isEmpty)
    }

    @Test func aChokeWithWildcardsFadesAtOnce() throws {
        let all = try Self.ends(["--note-choke", "\(Self.at):-1:-1:-1:-1"])
        #expect(all.keys.sorted() == [7, 8, 9] && all.values.allSatisfy(Self.choked), "\(all)")
        let channel = try Self.ends(["--note-choke", "\(Self.at):0:1:-1:-1"])
        #expect(channel.keys.sorted() == [9] && Self.choked(channel[9]), "\(channel)")
        let key = try Self.ends(["--note-choke", "\(Self.at):-1:0:57:-1"])
        #expect(key.keys.sorted() == [7] && Self.choked(key[7]), "\(key)")
        let byID = try Self.ends(["--note-choke", "\(Self.at):-1:-1:-1:8"])
        #expect(byID.keys.sorted() == [8] && Self.choked(byID[8]), "\(byID)")
    }

    /// A field beyond CLAP's ranges is the host's fault: refused (and logged), nothing ends.
    @Test func aNoteOffOutOfRangeIsRefused() throws {
        let (result, _) = try CLAPTools.play(
            CLAPTools.monoID, Self.instrument + Self.notes + ["--note-off", "\(Self.at):-1:16:-1:-1", "--note-off", "\(Self.at):-1:-1:128:-1"],
            frames: 14_400)
        #expect(CLAPExpressionTests.noteEnds(result).isEmpty, "\(result.stdout)")
        #expect((1...3).contains(result.number("log_messages") ?? 0), "the refusals were not logged: \(result.output)")
    }
}
