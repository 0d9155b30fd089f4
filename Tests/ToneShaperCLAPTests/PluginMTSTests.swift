import Foundation
import Testing
import ToneShaperTestSupport

/// Microtuning from outside in the plugins, through the project's C test hosts: MIDI Tuning
/// Standard messages as CLAP_EVENT_MIDI_SYSEX events and as LV2 midi:MidiEvent atoms, and an
/// MTS-ESP master (a stand-in library the test builds, Tests/MTSMaster) retuning a held note
/// while it sounds and silencing a key it filters. A held A4 (key 69, the root) of a constant
/// 440 Hz shape is measured by pitch before and after.
@Suite("Plugin MTS", .serialized)
struct PluginMTSTests {
    static let rate = 48_000.0
    static let frames = 48_000

    /// The constant tone (``MTSMessages/constantTone``) as a document file.
    static func constantTone(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("constant-440.toneshaper").path
        try MTSMessages.constantTone.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    enum Format: String, CaseIterable { case clap, lv2 }

    /// A run of the held note (from frame 2400) in `format`, with `events` (script arguments
    /// of the hosts' common forms) and `environment`, from the constant tone.
    static func play(_ format: Format, key: Int = 69, sysex: [(frame: Int, bytes: [UInt8])] = [], environment: [String: String] = [:]) throws
        -> (result: ToolResult, samples: [Float])
    {
        let directory = try TestTools.temporaryDirectory("toneshaper-mts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tone = try constantTone(in: directory)
        let messages = sysex.flatMap { ["--sysex", "\($0.frame):\(MTSMessages.hex($0.bytes))"] }
        switch format {
        case .clap:
            return try CLAPTools.play(
                CLAPTools.monoID, ["--preset-file", tone, "--note", "2400:\(key):100"] + messages, frames: frames, environment: environment)
        case .lv2:
            return try CLAPTools.playLV2(
                ["--load-file", "\(tone)@0", "--note", "2400:\(key):100"] + messages, frames: frames, environment: environment)
        }
    }

    static func pitch(_ samples: [Float], _ range: Range<Int>) -> Double {
        SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: rate, range: range) ?? 0
    }

    @Test(arguments: Format.allCases)
    func mtsSysexRetunesAHeldNote(format: Format) throws {
        // The bad dump before the note changes nothing and is logged; the change at frame
        // 24000 retunes the held note from the next samples on (1 ms).
        let (result, samples) = try Self.play(format, sysex: [(1_000, MTSMessages.badDump), (24_000, MTSMessages.retune)])
        try #require(result.status == 0 && samples.count == Self.frames, "\(format): \(result.output)")
        let before = Self.pitch(samples, 12_000..<23_900)
        let after = Self.pitch(samples, 24_200..<47_000)
        print("\(format) MTS SysEx: \(before) Hz before, \(after) Hz after")
        #expect(abs(before - 440) < 0.05, "\(format): \(before) Hz before the change")
        let expected = MTSMessages.retunedHz
        #expect(abs(after - expected) < 0.05, "\(format): \(after) Hz after the change, expected \(expected)")
        #expect(result.output.contains("MIDI tuning message"), "\(format): the bad dump was not reported: \(result.output)")
    }

    @Test(arguments: Format.allCases)
    func anMTSESPMasterRetunesAHeldNote(format: Format) throws {
        let master = try MTSMessages.standInMaster()
        // 12-TET until the table has been read 90 times (a block each: about frame 23000),
        // then A4 at 495 Hz (9/8).
        let environment = [
            "TONESHAPER_MTS_LIBRARY": master.path, "STAND_IN_MTS_RETUNE_KEY": "69", "STAND_IN_MTS_RETUNE_HZ": "495",
            "STAND_IN_MTS_RETUNE_AFTER": "90",
        ]
        let (result, samples) = try Self.play(format, environment: environment)
        try #require(result.status == 0 && samples.count == Self.frames, "\(format): \(result.output)")
        let before = Self.pitch(samples, 8_000..<18_000)
        let after = Self.pitch(samples, 34_000..<47_000)
        print("\(format) MTS-ESP: \(before) Hz before, \(after) Hz after the master's change")
        #expect(abs(before - 440) < 0.05, "\(format): \(before) Hz before the master's change")
        #expect(abs(after - 495) < 0.05, "\(format): \(after) Hz after the master's change, expected 495")
        #expect(result.stderr.contains("stand-in master: registered 1"), "\(format): \(result.stderr)")
        #expect(result.stderr.contains("stand-in master: deregistered, 0 left"), "\(format): \(result.stderr)")

        // A key the master filters plays nothing; without the library the same key plays.
        let filtered = try Self.play(format, key: 72, environment: ["TONESHAPER_MTS_LIBRARY": master.path, "STAND_IN_MTS_FILTER": "72"])
        #expect(filtered.result.status == 0 && filtered.samples.count == Self.frames, "\(format): \(filtered.result.output)")
        // (From the note on: LV2's host loads the document through the worker, after a block of the default shape.)
        #expect(SignalAnalysis.peak(Array(filtered.samples[2_400...])) == 0, "\(format): the filtered key sounds")
        let plain = try Self.play(format, key: 72, environment: ["TONESHAPER_MTS_LIBRARY": "/nonexistent/libMTS.so", "STAND_IN_MTS_FILTER": "72"])
        #expect(abs(Self.pitch(plain.samples, 8_000..<40_000) - 440 * pow(2, 3.0 / 12)) < 0.05, "\(format): key 72 without a master")
    }
}
