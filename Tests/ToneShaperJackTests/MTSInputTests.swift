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
}
