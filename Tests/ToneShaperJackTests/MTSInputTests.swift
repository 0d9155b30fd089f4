import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer.MIDIInput {
    /// A real-time MIDI Tuning Standard message from the tests' sender retunes the node's
    /// held key at the frame it went out at: the first 0.1 s after it already plays the new
    /// pitch (the retune takes 1 ms, inside the period). A bulk dump with a wrong checksum,
    /// sent before, changes nothing and is reported.
    @Test func mtsSysexRetunesTheNodeWithinAPeriod() async throws {
        try await Self.withRig { rig in
            let (retune, dump) = (MTSMessages.retune, MTSMessages.badDump)
            let take = try await rig.take([(0.3, [[0x90, 69, 100], dump]), (1.5, [retune])], tail: 0.8)
            let (note, change) = (take.sent[0], take.sent[1])
            let before = try take.pitch(in: take.window(from: note, to: change, margin: 0.15))
            #expect(abs(before - 440) < 0.05, "before the change: \(before) Hz; \(take.recording.keep(named: "mts-before"))")
            let expected = MTSMessages.retunedHz
            // The first 0.1 s after the change, from 2 ms on, in 20 ms pieces: already the new
            // pitch (the old one is 68 Hz away).
            let first = try RecordingAnalysis.medianFrequency(
                take.samples, sampleRate: Self.rate,
                stretches: take.recording.trustedStretches(within: take.window(after: change, from: 0.002, length: 0.1)), piece: Self.seconds(0.02))
            #expect(
                abs(first - expected) < 1, "0.1 s after the change: \(first) Hz, expected \(expected); \(take.recording.keep(named: "mts-first"))")
            let after = try take.pitch(in: take.window(after: change, from: 0.1, length: 0.6))
            #expect(abs(after - expected) < 0.05, "after the change: \(after) Hz, expected \(expected)")
            print("node MTS: \(before) Hz before, \(first) Hz in the first 0.1 s after, \(after) Hz after (expected \(expected))")
            let reported = await eventually(timeout: 5) { rig.node.stderr.text.contains("refused 1 MIDI tuning message") }
            #expect(reported, "the node's log: \(rig.node.stderr.text.suffix(600))")
        }
    }

    /// With an MTS-ESP master (the stand-in library, Tests/MTSMaster) whose A4 is 495 Hz, the
    /// drone's key 69 plays 495 Hz; a key the master filters (72) starts nothing, so the
    /// drone stays there.
    @Test func anMTSESPMasterTunesTheNode() async throws {
        let master = try MTSMessages.standInMaster()
        let environment = [
            "TONESHAPER_MTS_LIBRARY": master.path, "STAND_IN_MTS_RETUNE_KEY": "69", "STAND_IN_MTS_RETUNE_HZ": "495",
            "STAND_IN_MTS_RETUNE_AFTER": "1", "STAND_IN_MTS_FILTER": "72",
        ]
        try await Self.withRig(environment: environment) { rig in
            let take = try await rig.take([(0.3, [[0x90, 69, 100]]), (1.3, [[0x90, 72, 100]])], tail: 0.8)
            let (note, filtered) = (take.sent[0], take.sent[1])
            let tuned = try take.pitch(in: take.window(from: note, to: filtered, margin: 0.15))
            let after = try take.pitch(in: take.window(after: filtered, from: 0.05, length: 0.7))
            print("node MTS-ESP: key 69 plays \(tuned) Hz; after the filtered key 72, \(after) Hz")
            #expect(abs(tuned - 495) < 0.05, "key 69 with the master: \(tuned) Hz, expected 495")
            #expect(abs(after - 495) < 0.05, "after the filtered key: \(after) Hz, expected 495 still")
            #expect(rig.node.stderr.text.contains("stand-in master: registered 1"), "\(rig.node.stderr.text.suffix(600))")
        }
    }
}
