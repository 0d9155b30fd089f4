import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// A seeded corpus of hostile OSC sent at full speed while the node plays and a JACK
    /// recorder records it. Afterwards the node is alive, answers /state, its state is what
    /// the valid messages alone produce, and the recording is clean. CI sends 20,000
    /// messages; Scripts/soak.sh sends 1,000,000 or more (TONESHAPER_FUZZ_MESSAGES).
    @Suite struct OSCFuzz {
        static var messages: Int { Int(ProcessInfo.processInfo.environment["TONESHAPER_FUZZ_MESSAGES"] ?? "") ?? 20_000 }
        static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["TONESHAPER_FUZZ_SEED"] ?? "") ?? 0x70_4E5A }

        @Test func hostileControllerChangesOnlyWhatValidMessagesSay() async throws {
            let fixture = try await NodeFixture(tone: 440, amplitude: 0.25)
            let (server, scratch, node) = (fixture.server, fixture.scratch, fixture.node)
            let port = try fixture.oscPort
            let client = try FuzzClient(port: port)
            let initial = try #require(client.state())
            let statsBefore = try #require(try OSCDatagram.stats(port: port))

            // Record while the corpus is sent; the recording covers the whole flood.
            let total = Self.messages
            let seconds = 3 + Double(total) / 8_000
            let recording = try await server.startRecording(node.ports[0], seconds: seconds, into: scratch.url)

            var corpus = FuzzCorpus(seed: Self.seed)
            let started = Date()
            var sent = 0
            var barriers = 0
            while sent < total {
                // Bursts at full speed, then a /state round trip as a barrier, so the
                // node's receive buffer never overflows and drops a valid message.
                for _ in 0..<min(500, total - sent) {
                    client.send(corpus.next().packet)
                    sent += 1
                }
                client.drain()
                _ = try #require(client.state(), "the node stopped answering after \(sent) messages")
                barriers += 1
            }
            let elapsed = Date().timeIntervalSince(started)
            let (samples, _) = try await recording.value
            let final = try #require(client.state())
            let statsAfter = try #require(try OSCDatagram.stats(port: port))
            client.drain()

            print(
                """
                fuzz: \(sent) messages (\(corpus.validCount) valid) in \(String(format: "%.1f", elapsed)) s, \
                \(client.errorReplies) /error replies, \(client.okReplies) /ok, \(barriers + 2) state checks; \
                xruns \(Int(statsBefore["xruns"] ?? 0)) -> \(Int(statsAfter["xruns"] ?? 0)), \
                callback max \(statsAfter["max"] ?? -1) µs
                """)

            // Alive, and the state is what the valid messages alone produce.
            #expect(node.process.isRunning)
            for (key, want) in corpus.expected {
                let got = try #require(final[key]?.number, "/state has no \(key)")
                #expect(abs(got - want) <= 1e-5 * max(1, abs(want)), "\(key): \(got), expected \(want)")
            }
            for key in ["wave", "scale", "duration", "fidelity", "echo/offset", "fourier-terms", "anti-alias", "points"] {
                #expect("\(String(describing: final[key]))" == "\(String(describing: initial[key]))", "\(key) changed")
            }
            // Errors were answered, but rate-limited: no more than the limiter's 200/s plus its burst.
            #expect(client.errorReplies > 0)
            #expect(Double(client.errorReplies) <= 200 * (elapsed + 1) + 200)
            // The recording: no NaN or infinity, nothing beyond the largest amplitude set.
            #expect(samples.count > 48_000)
            #expect(SignalAnalysis.allFinite(samples))
            // Two runs on 2026-11-24 saw 0.85 and 1.36 here, with 200 and more server xruns:
            // the node summed its voices in the port buffer, and a late period let
            // jack_capture read that sum. The sum now has a buffer of its own (see
            // `OutputBufferTests`); where the loudest sample lies is reported all the same.
            let loudest = samples.indices.max { abs(samples[$0]) < abs(samples[$1]) } ?? 0
            #expect(
                SignalAnalysis.peak(samples) <= FuzzCorpus.amplitudeCeiling + 1e-6,
                "peak \(samples.isEmpty ? 0 : samples[loudest]) at sample \(loudest) of \(samples.count): \(samples[max(0, loudest - 4)..<min(samples.count, loudest + 5)].map { $0 })"
            )
            // The node kept playing through the flood. Its callback times are printed, not
            // asserted: on a shared 2-core host a preempted callback can outlast the period
            // whatever the node does (a CI run saw 1594 µs, with 53 xruns on the server's
            // side). That the callback never waits on the OSC thread is what the release
            // build's real-time proof (`@_noLocks`, `@_noAllocation`) establishes.
            #expect((statsAfter["periods"] ?? 0) > (statsBefore["periods"] ?? .infinity))
            #expect(await fixture.finish() == 0)
        }
    }
}
