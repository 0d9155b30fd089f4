import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// A flood of hostile OSC mixed with many valid time-tagged changes (the kind that left
    /// a recording silent once: a far-off scheduled /stop firing after later changes). The
    /// behaviour is now deterministic: at most 64 scheduled changes wait, one more is
    /// refused with a reason; `/schedule/clear` forgets them; and every change acknowledged
    /// afterwards is heard.
    @Suite struct ScheduledFlood {
        @Test func acknowledgedChangesAreHeardAfterAFlood() async throws {
            let fixture = try await NodeFixture(tone: 440, amplitude: 0.25)
            let port = try fixture.oscPort
            let client = try FuzzClient(port: port)

            var rng = SplitMix64(seed: 0x5C4E_D01E)
            var corpus = FuzzCorpus(seed: 0xF100D)
            let now = Date().timeIntervalSince1970
            let silencing = [
                OSCDatagram.message("/toneshaper/stop", []),
                OSCDatagram.message("/toneshaper/amplitude", [.float(0)]),
                OSCDatagram.message("/toneshaper/wave", [.string("Square")]),
                OSCDatagram.message("/toneshaper/frequency/range", [.float(20), .float(30)]),
            ]
            for sent in 0..<6_000 {
                switch rng.below(3) {
                case 0:  // valid, scheduled 10 to 50 s ahead: the first 64 are taken, the rest refused
                    client.send(OSCDatagram.bundle(at: now + 10 + 40 * rng.nextUnit(), [silencing[rng.below(silencing.count)]]))
                case 1:  // too far ahead: refused
                    client.send(OSCDatagram.bundle(at: now + 61 + 3600 * rng.nextUnit(), [silencing[0]]))
                default:
                    client.send(corpus.next().packet)
                }
                if sent % 500 == 499 {
                    client.drain()
                    _ = try #require(client.state(), "the node stopped answering after \(sent + 1) messages")
                }
            }
            client.drain()
            // The schedule is full: one more scheduled change is refused, with the reason. Error
            // replies are rate-limited per sender host, and the flood used them up: the probe
            // (which changes nothing) is sent again until the refilled limiter lets its answer out.
            let probe = OSCDatagram.bundle(at: now + 30, [OSCDatagram.message("/toneshaper/amplitude", [.float(0.1)])])
            var answer: [OSCDatagram.Argument]?
            let deadline = monotonicSeconds() + 120
            while answer == nil && monotonicSeconds() < deadline { answer = try OSCDatagram.request(probe, toPort: port, timeout: 1) }
            let refusal = try #require(answer, "no answer to the probe within 120 s")
            #expect(Self.text(refusal).contains("scheduled changes are waiting already"), "\(Self.text(refusal))")

            // Forget them, then make changes at once: each is acknowledged and heard.
            let changes: [[UInt8]] = [
                OSCDatagram.message("/toneshaper/schedule/clear", []),
                OSCDatagram.message("/toneshaper/play", []),
                OSCDatagram.message("/toneshaper/wave", [.string("Sine")]),
                OSCDatagram.message("/toneshaper/points", [.float(0), .float(660)]),
                OSCDatagram.message("/toneshaper/scale", [.string("None")]),
                OSCDatagram.message("/toneshaper/echo", [.float(0), .float(0)]),
                OSCDatagram.message("/toneshaper/amplitude", [.float(0.3)]),
            ]
            for change in changes {
                // An /ok reply carries the address alone; an /error one adds the reason.
                let reply = try #require(try OSCDatagram.request(change, toPort: port, timeout: 30))
                #expect(reply.count == 1, "\(Self.text(reply))")
            }
            // After a clear the schedule takes changes again. The clear reaches the schedule
            // through the audio thread, which a loaded host runs late: until then the probe is
            // refused, and its refusal's answer may be held back by the limiter the flood
            // emptied; so it is sent again (each second, up to 120 s) until it is taken.
            var again: [OSCDatagram.Argument]?
            let takenBy = monotonicSeconds() + 120
            repeat {
                again = try OSCDatagram.request(probe, toPort: port, timeout: 1)
            } while again.map({ !Self.text($0).hasPrefix("/toneshaper/amplitude") }) ?? true && monotonicSeconds() < takenBy
            let taken = try #require(again, "the probe got no answer after the clear")
            #expect(Self.text(taken).hasPrefix("/toneshaper/amplitude"), "\(Self.text(taken))")
            _ = try OSCDatagram.request(OSCDatagram.message("/toneshaper/schedule/clear", []), toPort: port)

            // Every change above was acknowledged, so queued for the audio thread: a tenth of
            // a second of the server's time later (its 5 ms cross-fade long over) the
            // recording is judged, on the tests' own recorder.
            var recorder: TimelineRecorder? = try fixture.timelineRecorder()
            let (analysis, recording) = try await retryingOnBusyHost("660 Hz at 0.3 after the flood") { _ in
                let recording = try await #require(recorder).record(seconds: 1.6)
                let judged = recording.indices(after: recording.firstFrame, from: 0.1, length: 1.5)
                let analysis = RecordingAnalysis(recording.samples, sampleRate: recording.sampleRate, range: judged)
                _ = try analysis.cleanStretch(atLeast: 9_600)
                return (analysis, recording)
            }
            recorder = nil
            let (samples, rate) = (analysis.samples, analysis.sampleRate)
            #expect(SignalAnalysis.allFinite(samples))
            // Heard all the way through: no silent stretch, the new pitch, the new level.
            let window = Int(rate / 4)
            for run in recording.trustedStretches(within: analysis.range) {
                var start = run.lowerBound
                while start + window <= run.upperBound {
                    let rms = SignalAnalysis.rms(samples, range: start..<(start + window))
                    #expect(rms > 0.08, "silent from \(Double(start) / rate) s: rms \(rms)")
                    start += window
                }
            }
            let pitch = try analysis.frequency(atLeast: 9_600)
            #expect(abs(pitch - 660) < 0.5, "pitch \(pitch)")
            #expect(SignalAnalysis.peak(samples) <= 0.3 * 0.5 + 1e-4)
            #expect(await fixture.finish() == 0)
        }

        static func text(_ arguments: [OSCDatagram.Argument]) -> String {
            arguments.map { argument -> String in
                switch argument {
                case .string(let s): return s
                case .float(let f): return String(f)
                case .int(let i): return String(i)
                }
            }.joined(separator: " ")
        }
    }
}
