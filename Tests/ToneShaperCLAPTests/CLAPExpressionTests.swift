import Foundation
import Testing
import ToneShaperTestSupport

/// CLAP note expressions in instrument mode: each voice its own tuning and volume.
@Suite struct CLAPExpressionTests {
    /// Peaks of the spectrum (local maxima above a tenth of the highest): (Hz, magnitude).
    static func peaks(_ samples: [Float], start: Int) throws -> [(hz: Double, level: Double)] {
        let size = 8192
        let spectrum = try SignalAnalysis.spectrum(samples, start: start, size: size)
        let top = spectrum.max() ?? 0
        var found: [(hz: Double, level: Double)] = []
        for k in 1..<(spectrum.count - 1) where spectrum[k] > top / 10 {
            let level = spectrum[k]
            if level > spectrum[k - 1] && level > spectrum[k + 1] { found.append((Double(k) * 48_000 / Double(size), level)) }
        }
        return found
    }

    /// Two held notes on a flat 220 Hz shape (A3: 110 Hz, E4: 164.8 Hz); at frame 9600 E4
    /// is tuned +12 semitones and A3 set to half its volume: E4 alone moves an octave, A3
    /// alone halves, by key and by the note id of its note-on.
    @Test(arguments: [false, true])
    func aTuningExpressionMovesOnlyItsVoiceAnOctave(byNoteID: Bool) throws {
        let flat = ["--flush", "11=1", "--flush", "3=0", "--flush", "0=220", "--flush", "1=220"]
        let notes = ["--note", "64:57:100:-1:7", "--note", "64:64:100:-1:8"]
        // By note id: the expression's key is -1, its note id the note-on's.
        let expressions =
            byNoteID
            ? ["--expression-id", "9600:8:tuning:12", "--expression-id", "9600:7:volume:0.5"]
            : ["--expression", "9600:64:tuning:12", "--expression", "9600:57:volume:0.5"]
        let (result, samples) = try CLAPTools.play(CLAPTools.monoID, flat + notes + expressions, frames: 19_200)
        #expect(result.status == 0 && result.number("log_messages") == 0, "\(result.output)")
        let before = try Self.peaks(samples, start: 1_200)
        let after = try Self.peaks(samples, start: 11_000)
        #expect(before.count == 2 && after.count == 2, "peaks \(before) then \(after)")
        guard before.count == 2, after.count == 2 else { return }
        #expect(abs(before[0].hz - 110) < 6 && abs(before[1].hz - 164.8) < 6, "\(before)")
        // A3 stays where it was, at half the level; E4 doubles, at its level.
        #expect(abs(after[0].hz - before[0].hz) < 1, "A3 moved: \(before) then \(after)")
        #expect(abs(after[0].level / before[0].level - 0.5) < 0.05, "A3's volume: \(before) then \(after)")
        #expect(abs(after[1].hz / before[1].hz - 2) < 0.04, "E4 did not move an octave: \(before) then \(after)")
        #expect(abs(after[1].level / before[1].level - 1) < 0.05, "E4's level changed: \(before) then \(after)")
    }

    /// The note ends the plugin sent: (frame, note id, port, channel, key) per note_end line.
    static func noteEnds(_ result: ToolResult) -> [[Int]] {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix("note_end: ") }.map { line in
            line.dropFirst("note_end: ".count).split(separator: " ").compactMap { Int($0) }
        }
    }

    /// In instrument mode a CLAP note's end is sent to the host (CLAP_EVENT_NOTE_END, with
    /// its note-on's id, port, channel and key) once its voice has faded out, in the block
    /// that rendered the fade's end: the 30 ms release (1,440 frames) after the note-off.
    /// A held note is not ended; a new note on a key still fading ends the earlier one at its
    /// frame (one voice per key and channel is what a note id can reach); notes in drone
    /// mode and notes of the MIDI dialect are not the host's to end.
    @Test func aNoteEndIsSentWhenItsVoiceHasFadedOut() throws {
        let instrument = ["--flush", "11=1", "--flush", "3=0"]
        let notes = ["--note", "100:60:100:2000:5", "--note", "100:64:100:-1:6", "--note", "300:67:100:400:7", "--note", "600:67:100:1000:8"]
        let (result, _) = try CLAPTools.play(CLAPTools.monoID, instrument + notes + ["--midi-note", "100:72:100:1000"], frames: 9_600)
        #expect(result.status == 0 && result.number("log_messages") == 0, "\(result.output)")
        let ends = Self.noteEnds(result)
        #expect(ends.map { $0[1] } == [7, 8, 5], "note ends: \(ends)")
        #expect(ends.allSatisfy { $0.count == 5 && $0[2] == 0 && $0[3] == 0 }, "port and channel as the note-on's: \(ends)")
        let end = Dictionary(uniqueKeysWithValues: ends.map { ($0[1], $0) })
        #expect(end[7]?[0] == 600 && end[7]?[4] == 67, "the earlier note on key 67 ends when the next starts: \(ends)")
        for (id, off, key) in [(8, 1_000, 67), (5, 2_000, 60)] {
            let frame = end[id]?[0] ?? -1
            #expect(end[id]?[4] == key && frame >= off + 1_440 && frame < off + 1_440 + 2 * 256, "note \(id) released at \(off): ended at \(frame)")
        }
        #expect(result.number("out_events") == 3, "\(result.stdout)")

        let (drone, _) = try CLAPTools.play(CLAPTools.monoID, ["--flush", "3=0"] + notes, frames: 9_600)
        #expect(drone.status == 0 && Self.noteEnds(drone).isEmpty && drone.number("out_events") == 0, "drone mode: \(drone.stdout)")
    }
}
