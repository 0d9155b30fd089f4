import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

/// The tests' JACK timeline: a recording's frames, gaps and repeated periods (no server
/// needed), then the recorder and the sender on a real server.
@Suite struct TimelineRecordingTests {
    /// Four 4-frame blocks from frame 100; the server skips frames 108...111 (a gap before
    /// the third block); the last two blocks hold the same samples (a period read twice).
    static func example() -> TimelineRecording {
        let samples: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 9, 8, 7, 6]
        let blocks = [
            TimelineRecorder.Block(frame: 100, index: 0, count: 4, rolling: false),
            TimelineRecorder.Block(frame: 104, index: 4, count: 4, rolling: true),
            TimelineRecorder.Block(frame: 112, index: 8, count: 4, rolling: true),
            TimelineRecorder.Block(frame: 116, index: 12, count: 4, rolling: false),
        ]
        return TimelineRecording(channels: [samples], sampleRate: 4, blocks: blocks)
    }

    @Test func framesMapToSamplesAcrossAGap() {
        let recording = Self.example()
        #expect(recording.firstFrame == 100 && recording.endFrame == 120)
        #expect(recording.index(ofFrame: 100) == 0)
        #expect(recording.index(ofFrame: 107) == 7)
        #expect(recording.index(ofFrame: 109) == nil, "a skipped frame was not recorded")
        #expect(recording.index(ofFrame: 113) == 9)
        #expect(recording.index(ofFrame: 99) == nil && recording.index(ofFrame: 120) == nil)
        #expect(recording.frame(ofIndex: 9) == 113)
        #expect(recording.indices(from: 102, to: 114) == 2..<10)
        #expect(recording.indices(from: 109, to: 111).isEmpty)
        #expect(recording.indices(after: 100, from: 1, length: 1) == 4..<8, "one second at 4 frames a second")
        #expect(recording.gaps == [8])
    }

    @Test func repeatedPeriodsAndGapsAreNotJudged() {
        let recording = Self.example()
        #expect(recording.repeatedBlocks == [8..<12, 12..<16])
        #expect(recording.trustedStretches(within: 0..<16) == [0..<8])
        #expect(recording.contiguousStretch(within: 2..<16) == 2..<8)
        #expect(recording.stepIsTrusted(at: 5) && !recording.stepIsTrusted(at: 8) && !recording.stepIsTrusted(at: 13))
        #expect(recording.trustedPeak(in: 0..<16) == 8)
        #expect(recording.transportStretches(rolling: true) == [4..<12])
        #expect(recording.transportStretches(rolling: false) == [0..<4, 12..<16])
    }

    /// Silence repeats itself without anything being wrong: two silent blocks in a row are
    /// no repeated period.
    @Test func silenceIsNoRepeatedPeriod() {
        let blocks = (0..<3).map { TimelineRecorder.Block(frame: UInt32(4 * $0), index: 4 * $0, count: 4, rolling: false) }
        let recording = TimelineRecording(channels: [[Float](repeating: 0, count: 12)], sampleRate: 4, blocks: blocks)
        #expect(recording.repeatedBlocks.isEmpty && recording.trustedStretches(within: 0..<12) == [0..<12])
    }
}

extension WithJackServer {
    /// The recorder and sender on a real server, with a node between them.
    @Suite struct Timeline {
        /// A steady 440 Hz tone recorded for two seconds of the server's time: the stamps
        /// follow the server's frames period by period, and every place where the recorded
        /// sine does not continue from the period before is one the recording can account
        /// for: a period the recorder missed, a pair of periods read twice, or samples from
        /// another cycle of the same port buffer (a late reader that JACK2's asynchronous
        /// mode let run while the writer filled the next period: the sine on, its phase
        /// moved by a whole number of periods, which the click analysis also tells apart).
        /// Anything else would be the recorder's own fault.
        @Test func recordsTheServersTimelineAndMarksEveryBreak() async throws {
            let fixture = try await NodeFixture(tone: 440, amplitude: 0.5)
            // Steady once the node's start (its first periods' fade-in) is behind it: 0.1 s of
            // its own periods, however late a busy host runs them (a busy-core run once
            // recorded the fade as a break at the first period).
            try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.1, of: fixture.server), port: try fixture.oscPort)
            var recorder: TimelineRecorder? = try fixture.timelineRecorder()
            let recording = try await #require(recorder).record(seconds: 2)
            recorder = nil
            let period = fixture.server.period
            #expect(recording.blocks.allSatisfy { $0.count == period && Int($0.frame) % period == 0 })
            #expect(TimelineRecorder.distance(from: recording.firstFrame, to: recording.endFrame) >= 96_000)
            let analysis = RecordingAnalysis(recording.samples, sampleRate: 48_000)
            let omega = 2 * Double.pi * 440 / 48_000
            var otherCycle = 0
            var unexplained: [String] = []
            for block in recording.blocks.dropFirst() where recording.stepIsTrusted(at: block.index) {
                let before = analysis.fit(omega: omega, range: (block.index - period)..<block.index)
                let here = analysis.fit(omega: omega, range: block.index..<(block.index + period))
                let shift = remainder(here.phase - before.phase, 2 * Double.pi)
                guard abs(shift) > 0.01 || abs(here.amplitude - 0.5) > 0.01 else { continue }
                let wholePeriods = (1...16).flatMap { [$0, -$0] }.contains { k in
                    abs(remainder(shift - omega * Double(period * k), 2 * Double.pi)) < 0.03
                }
                if wholePeriods && abs(here.amplitude - 0.5) <= 0.01 {
                    otherCycle += 1
                } else {
                    unexplained.append(
                        String(
                            format: "%d (block %d of the recording: amplitude %.4f after %.4f, phase moved %.4f rad)", block.index,
                            block.index / period, here.amplitude, before.amplitude, shift))
                }
            }
            print(
                "timeline: \(recording.blocks.count) periods, \(recording.gaps.count) missed, "
                    + "\(recording.repeatedBlocks.count) in repeated pairs, \(otherCycle) read from another cycle, \(unexplained.count) other breaks")
            #expect(unexplained.isEmpty, "the tone breaks inside trusted stretches at \(unexplained.prefix(8))")
            #expect(await fixture.finish() == 0)
        }

        /// An event queued for a frame ahead goes out at that frame, and the node hears it
        /// there: in instrument mode the note's first sample lies at the frame (the 2 ms
        /// attack starts from zero, so within a few samples).
        @Test func eventsGoOutAtTheirFrames() async throws {
            let fixture = try await NodeFixture(tone: 440, amplitude: 0.5, arguments: NodeFixture.quietArguments + ["--instrument"])
            // The clients live in this block: closed before the server stops.
            do {
                let midi = try MIDISender(serverName: fixture.server.name, connectTo: "toneshaper:midi_in")
                let recorder = try fixture.timelineRecorder()
                try await retryingOnBusyHost("four events at their frames") { _ in
                    try await recorder.start()
                    // A fifth of a second ahead of the frame now, then every fifth: none
                    // should go out late, unless the test's own thread was held that long.
                    let now = recorder.frameNow
                    let planned = (1...4).map { now &+ UInt32(9_600 * $0 + 17 * $0) }
                    let tickets = planned.enumerated().map { n, frame in midi.send([[n % 2 == 0 ? 0x90 : 0x80, 69, 100]], atFrame: frame) }
                    let queued = recorder.frameNow
                    let sent = try await midi.delivered(tickets)
                    let recording = try await recorder.finish(atFrame: sent[3] &+ 4_800)
                    if TimelineRecorder.distance(from: queued, to: planned[0]) <= 0 {
                        throw HostTooBusy("the test's thread queued the events after the first one's frame had passed")
                    }
                    #expect(sent == planned, "planned \(planned), went out at \(sent)")
                    for on in [sent[0], sent[2]] {
                        let at = try recording.requireIndex(ofFrame: on, "a note-on")
                        let delay = try #require(recording.samples[at...].firstIndex { $0 != 0 }, "the note at \(on) never sounded") - at
                        if recording.stepIsTrusted(at: at) {
                            #expect(delay >= 0 && delay < 4, "the note at \(on) sounds from \(delay) samples after it")
                        }
                        #expect(recording.trustedPeak(in: max(0, at - 2_400)..<at) == 0, "silent before the note at \(on)")
                    }
                }
            }
            #expect(await fixture.finish() == 0)
        }
    }
}
