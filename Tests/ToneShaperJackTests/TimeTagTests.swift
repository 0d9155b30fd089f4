import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// SPEC 8, 12: a change in an OSC bundle whose time tag lies ahead sounds at the sample
    /// of that time, not when the message arrives and not at a period boundary.
    ///
    /// The exact sample is proven without JACK (RealtimeRendererTests). Here, end to end,
    /// three bundles sent in one burst, due 0.4 s apart, must each sound at the frame its time
    /// fell on, and inside their periods. A time tag is wall-clock time, which the node maps
    /// onto JACK's frames: the changes are found in the recording by their effect, and where
    /// each due time fell on the server's timeline comes from the recorder, which stamps
    /// every period with the wall clock. A loaded dummy server does not keep 48,000 frames a
    /// second (a few percent slow was measured), so 0.4 s of wall clock are not 19,200
    /// frames there; the stamps measure what they are.
    @Suite struct TimeTags {
        static let frequency = 440.0

        @Test func timeTaggedChangesLandNearTheirTimeAndInsideThePeriod() async throws {
            let fixture = try await NodeFixture(tone: Self.frequency, amplitude: 0.5)
            let port = try fixture.oscPort
            var recorder: TimelineRecorder? = try fixture.timelineRecorder()
            let gains: [Float] = [0.1, 0.5, 0.1]

            // A busy machine may put a server xrun right where a change is, or lose a period
            // the recorder needed between the send and the period that took the bundles;
            // record again then. Eight takes: each needs three clean neighbourhoods, which a
            // loaded host spoils more often than one clean stretch.
            let (starts, dueFrames) = try await retryingOnBusyHost("three time-tagged gain changes", attempts: 8) { _ in
                let recorder = try #require(recorder)
                try await recorder.start()
                try await recorder.wait(untilRecorded: Int(0.3 * 48_000))
                let sent = recorder.frameNow
                let now = wallClockSeconds()
                let dues = [now + 0.4, now + 0.8, now + 1.2]
                for (due, gain) in zip(dues, gains) {
                    try OSCDatagram.send(OSCDatagram.bundle(at: due, [OSCDatagram.message("/toneshaper/amplitude", [.float(gain)])]), toPort: port)
                }
                // The node reads datagrams in order: the bundles were queued before its
                // answer to the first statistics request below, so a period that started
                // at or before the frame it reports two periods later took them.
                let takenBy = UInt32(try #require(try await OSCDatagram.waitForPeriods(2, port: port)["frame"]))
                let take = try await recorder.finish(atFrame: sent &+ UInt32(1.6 * 48_000))
                // Back to 0.5 for the next take, acknowledged before it starts.
                _ = try OSCDatagram.request(OSCDatagram.message("/toneshaper/amplitude", [.float(0.5)]), toPort: port)
                try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.1, of: fixture.server), port: port)
                guard let found = Self.changeStarts(in: take.samples, rate: take.sampleRate, gains: [0.5] + gains.map(Double.init)) else {
                    throw HostTooBusy("a server xrun next to a change, or a change not found")
                }
                let starts = try found.map { Int(try #require(take.frame(ofIndex: $0))) }
                // Where each due time falls on the server's timeline by JACK's clock, seen from
                // the period the node took the bundle in: it maps a time tag once, with that
                // period's cycle times carried forward (RealtimeRenderer.takeQueuedCommands),
                // and a loaded dummy server neither keeps 48,000 frames to a wall-clock second
                // nor the same rate from one period to the next, so where 0.4 s ahead falls
                // depends on the period. Which period took it lies between the send (50 ms
                // before, for the recorder's own lag) and `takenBy`, the node's own report
                // (nor later than the change itself). Of the places those periods give, the
                // one nearest the change found (a change that no period's clock places there,
                // at a period start, or late, still fails below).
                // A period the recorder missed there may be the one that took it: judged only
                // when every one of those periods was recorded.
                let dueFrames = try zip(dues, starts).map { due, start in
                    let between = take.blocks.filter {
                        TimelineRecorder.distance(from: sent, to: $0.frame) >= -2_400
                            && TimelineRecorder.distance(from: $0.frame, to: takenBy) >= 0
                            && TimelineRecorder.distance(from: $0.frame, to: UInt32(start)) > 0
                    }
                    for (previous, next) in zip(between, between.dropFirst()) where next.frame != previous.frame &+ UInt32(previous.count) {
                        let missed = previous.frame &+ UInt32(previous.count)
                        throw HostTooBusy(
                            "the recorder missed frames \(missed) to \(next.frame), between the send and frame \(takenBy), which took the bundles")
                    }
                    let seenFrom = between.map(\.frame)
                    let candidates = seenFrom.compactMap { take.frame(atWallMicros: Int64((due * 1e6).rounded()), seenFrom: $0) }
                    guard let nearest = candidates.min(by: { abs($0 - Double(start)) < abs($1 - Double(start)) }) else {
                        throw HostTooBusy("the periods after the send (frame \(sent)) were not recorded")
                    }
                    return nearest
                }
                return (starts, dueFrames)
            }
            let errors = zip(starts, dueFrames).map { Double($0) - $1 }
            let spacingErrors = (1..<starts.count).map { i in Double(starts[i] - starts[i - 1]) - (dueFrames[i] - dueFrames[i - 1]) }
            print(
                "time tags: changes at frames \(starts), due at frames \(dueFrames.map { Int($0.rounded()) }) by JACK's clock; "
                    + "off by \(errors.map { Int($0.rounded()) }), spacing off by \(spacingErrors.map { Int($0.rounded()) }) frames")
            // Each change sounds at the frame its time falls on by JACK's clock: most runs
            // measure 0 frames off. Some measured up to 53 frames (1.1 ms) off, and up to 47
            // in the spacing on a busy core: the node's own wall-minus-JACK offset and the
            // period it mapped the tag in, which this test can only approximate. The bound,
            // 3 ms for each change and between them, is against the 24 ms that "6 % of
            // 0.4 s" allowed before.
            let bound = 0.003 * 48_000
            for i in starts.indices {
                #expect(abs(errors[i]) <= bound, "change \(i) at frame \(starts[i]), due at \(dueFrames[i])")
            }
            for (i, error) in spacingErrors.enumerated() {
                #expect(abs(error) <= bound, "changes \(i) and \(i + 1): spacing off by \(error) frames")
            }
            // A change detected at most 3 samples after its sample (a ramp departs slowly
            // near a zero crossing): three changes all within 0...3 of a period start
            // would mean they were applied at period starts.
            let offsets = starts.map { $0 % fixture.server.period }
            #expect(offsets.contains { $0 > 3 }, "changes at period offsets \(offsets)")
            recorder = nil
            #expect(await fixture.finish() == 0)
        }

        /// The sample where each gain change begins (the ramp's first sample), or nil when a
        /// server glitch lies too close to one to judge.
        static func changeStarts(in samples: [Float], rate: Double, gains: [Double]) -> [Int]? {
            let omega = 2 * Double.pi * frequency / rate
            let analysis = RecordingAnalysis(samples, sampleRate: rate)
            // Server jumps: steps steeper than the sine at 0.5 can take (the gain ramps are gentler).
            let jumps = analysis.steps(above: omega * 0.5 * 1.05)
            var starts: [Int] = []
            var from = 0
            for i in 1..<gains.count {
                let (old, new) = (gains[i - 1], gains[i])
                // Coarse: the first 128-sample window (over a full cycle) whose peak has left the old gain.
                var coarse: Int?
                var b = from
                while b + 128 <= samples.count {
                    let peak = SignalAnalysis.peak(samples, range: b..<(b + 128))
                    if new < old ? peak < old * 0.99 : peak > old * 1.01 {
                        coarse = b
                        break
                    }
                    b += 32
                }
                guard let coarse else { return nil }
                // Fine: fit the steady sine before it and find where the recording leaves it.
                let steadyRange = (coarse - 700)..<(coarse - 200)
                let scan = (coarse - 200)..<min(samples.count, coarse + 200)
                guard steadyRange.lowerBound >= 0, !jumps.contains(where: { $0 >= steadyRange.lowerBound && $0 < scan.upperBound }) else {
                    return nil
                }
                let steady = analysis.fit(omega: omega, range: steadyRange)
                guard abs(steady.amplitude - old) < 0.002 * old + 1e-4,
                    let departure = scan.first(where: { n in
                        abs(Double(samples[n]) - steady.amplitude * sin(omega * Double(n) + steady.phase)) > 2e-4
                    })
                else { return nil }
                // A ramp's first sample still has the old gain.
                starts.append(departure - 1)
                from = coarse + 256
            }
            return starts
        }
    }
}
