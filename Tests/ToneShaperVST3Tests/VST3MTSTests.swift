import Foundation
import Testing
import ToneShaperTestSupport

/// Microtuning from outside in the VST 3 plugin, through the project's VST3 test host: a MIDI
/// Tuning Standard message as a DataEvent of type kMidiSysEx retunes a held note, and a
/// stand-in MTS-ESP master (Tests/MTSMaster) retunes it while it sounds, as in the CLAP and
/// LV2 plugins (Tests/ToneShaperCLAPTests/PluginMTSTests.swift).
@Suite("VST3 MTS", .serialized)
struct VST3MTSTests {
    static let rate = 48_000.0
    static let frames = 48_000

    static func play(_ arguments: [String], environment: [String: String] = [:]) throws -> (result: ToolResult, samples: [Float]) {
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tone = directory.appendingPathComponent("constant-440.toneshaper")
        try MTSMessages.constantTone.write(to: tone, atomically: true, encoding: .utf8)
        return try VST3Tools.playMono(
            "mono", ["--load-state", tone.path, "--note", "2400:69:100"] + arguments, frames: frames, environment: environment)
    }

    static func pitch(_ samples: [Float], _ range: Range<Int>) -> Double {
        SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: rate, range: range) ?? 0
    }

    @Test func mtsSysexRetunesAHeldNote() throws {
        let messages = [(1_000, MTSMessages.badDump), (24_000, MTSMessages.retune)].flatMap { ["--sysex", "\($0.0):\(MTSMessages.hex($0.1))"] }
        let (result, samples) = try Self.play(messages)
        try #require(result.status == 0 && samples.count == Self.frames, "\(result.output)")
        let before = Self.pitch(samples, 12_000..<23_900)
        let after = Self.pitch(samples, 24_200..<47_000)
        print("vst3 MTS SysEx: \(before) Hz before, \(after) Hz after")
        #expect(abs(before - 440) < 0.05, "\(before) Hz before the change")
        #expect(abs(after - MTSMessages.retunedHz) < 0.05, "\(after) Hz after the change, expected \(MTSMessages.retunedHz)")
        #expect(result.output.contains("MIDI tuning message"), "the bad dump was not reported: \(result.output)")
    }

    @Test func anMTSESPMasterRetunesAHeldNote() throws {
        let master = try MTSMessages.standInMaster()
        let environment = [
            "TONESHAPER_MTS_LIBRARY": master.path, "STAND_IN_MTS_RETUNE_KEY": "69", "STAND_IN_MTS_RETUNE_HZ": "495",
            "STAND_IN_MTS_RETUNE_AFTER": "90",
        ]
        let (result, samples) = try Self.play([], environment: environment)
        try #require(result.status == 0 && samples.count == Self.frames, "\(result.output)")
        let before = Self.pitch(samples, 8_000..<18_000)
        let after = Self.pitch(samples, 34_000..<47_000)
        print("vst3 MTS-ESP: \(before) Hz before, \(after) Hz after the master's change")
        #expect(abs(before - 440) < 0.05 && abs(after - 495) < 0.05, "\(before) Hz, then \(after) Hz (expected 440, then 495)")
        #expect(
            result.stderr.contains("stand-in master: registered 1") && result.stderr.contains("stand-in master: deregistered, 0 left"),
            "\(result.stderr)")
    }
}
