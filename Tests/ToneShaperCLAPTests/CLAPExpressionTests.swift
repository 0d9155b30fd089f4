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
}
