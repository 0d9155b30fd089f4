import Foundation
import Testing
import ToneShaperTestSupport

/// Hosts fill the input sequence's header in their own ways: unit 0, units:frame,
/// atom:frameTime, beats with a tempo, or nothing at all (a host that allocates the
/// sequence with malloc and writes only the atom header leaves stale bytes in the unit).
/// The plugin reads times as frames unless the unit says beats, so the same notes sound at
/// the same frames, sample for sample, whatever the host wrote there; and it says nothing
/// about a host's harmless habits.
@Suite struct LV2SequenceUnitTests {
    /// Instrument mode on a steady level; a tempo from the host's transport (the plugin needs
    /// it for events in beats; with the transport setting off it changes nothing else); notes
    /// in several blocks, one on a block's last frame (2303 = 9 * 256 - 1).
    static let script = [
        "--set", "instrument=1@0", "--set", "scale=0@0", "--position", "1:0:133@0", "--note", "64:69:100:3000", "--note", "1000:76:90:2500",
        "--note", "2303:81:80:4000",
    ]

    /// The C host's run with `unit` as the sequence's unit, its report and its samples.
    static func play(unit: String, _ arguments: [String]) throws -> (result: LV2Tools.ToolResult, samples: [Float]) {
        try LV2HostTests.play(LV2Tools.monoURI, ["--unit", unit] + arguments)
    }

    @Test
    func everyUnitAHostWritesPlaysTheNotesAtTheirFrames() throws {
        let (zero, baseline) = try Self.play(unit: "zero", Self.script)
        #expect(zero.status == 0 && zero.number("log_messages") == 0, "\(zero.output)")
        #expect(zero.number("first_nonzero").map { (64...65).contains($0) } == true, "\(zero.stdout)")
        #expect(SignalAnalysis.rms(baseline, range: 100..<4000) > 0.01)
        // Stale units: random bytes in the unit and pad before every run(), three seeds.
        for unit in ["frame", "frame-time", "stale:1", "stale:2", "stale:3", "beat:133", "beat-time:133"] {
            let (result, samples) = try Self.play(unit: unit, Self.script)
            #expect(result.status == 0, "\(unit): \(result.output)")
            let same = samples == baseline  // (a Bool: a failing #expect would print every sample)
            #expect(same, "\(unit): the notes did not sound as with unit 0 (\(result.stdout))")
            #expect(result.number("log_messages") == 0, "\(unit) was logged: \(result.stderr)")
        }
    }

    /// Events in beats before the host said a tempo: each is played at its block's start,
    /// and that is said once, not once a block.
    @Test
    func beatsWithoutATempoPlayAtTheirBlocksStartSaidOnce() throws {
        let notes = ["--set", "instrument=1@0", "--set", "scale=0@0"]
        let (result, samples) = try Self.play(
            unit: "beat:120", notes + ["--note", "64:69:100:3000", "--note", "1000:76:90:2500", "--note", "2303:81:80:4000"])
        // The same notes at the starts of their blocks (of 256 frames), in frames.
        let (_, expected) = try Self.play(unit: "zero", notes + ["--note", "0:69:100:2816", "--note", "768:76:90:2304", "--note", "2048:81:80:3840"])
        #expect(result.status == 0, "\(result.output)")
        let same = samples == expected
        #expect(same, "the notes in beats were not played at their blocks' starts")
        #expect(SignalAnalysis.rms(samples, range: 100..<2000) > 0.01)
        #expect(result.number("log_messages") == 1, "\(result.stderr)")
        #expect(result.stderr.contains("before any tempo"), "\(result.stderr)")
    }

    /// jalv writes its UI's events (a patch:Get when it starts) at the block's length: a
    /// note there plays at the block's last frame, as the same note at that frame, quietly.
    @Test
    func eventsAtTheBlocksLengthPlayAtItsLastFrameQuietly() throws {
        let steady = ["--set", "instrument=1@0", "--set", "scale=0@0"]
        for unit in ["zero", "stale:4"] {
            let (result, samples) = try Self.play(unit: unit, steady + ["--hostile", "ui-events-at-block-end@512"])
            let (_, expected) = try Self.play(unit: unit, steady + ["--note", "767:69:100"])
            #expect(result.status == 0, "\(unit): \(result.output)")
            let same = samples == expected
            #expect(same, "\(unit): the note at the block's length did not play at its last frame")
            #expect(result.number("first_nonzero").map { (767...768).contains($0) } == true, "\(unit): \(result.stdout)")
            #expect(result.number("log_messages") == 0, "\(unit) was logged: \(result.stderr)")
        }
    }
}
