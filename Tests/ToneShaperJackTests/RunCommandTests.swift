import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// `toneshaper run` as a user runs it, recorded with jack_capture.
    @Suite struct RunCommand {
        @Test func playsAConstantToneAtItsFrequencyAndLevelWithoutClicks() async throws {
            let fixture = try await NodeFixture(tone: 440, amplitude: 0.5)
            let node = fixture.node
            #expect(node.ports == ["toneshaper:out"])
            #expect(node.stdout.text.contains("MIDI: toneshaper:midi_in\n"))
            #expect(fixture.server.connections()?["toneshaper:out"] == [])

            let (analysis, xruns) = try await retryingOnBusyHost("a constant 440 Hz tone") { _ in
                let (samples, rate, xruns) = try await fixture.record(seconds: 2)
                #expect(rate == 48_000)
                #expect(samples.count > 90_000)
                let analysis = RecordingAnalysis(samples, sampleRate: rate)
                _ = try analysis.cleanStretch(atLeast: 4_800)
                return (analysis, xruns)
            }
            let samples = analysis.samples
            #expect(SignalAnalysis.allFinite(samples))
            let limit = clickLimit(frequency: 440, amplitude: 0.5, sampleRate: analysis.sampleRate)
            let clicks = analysis.unexplainedSteps(above: limit, frequency: 440, amplitudes: [0.5], period: fixture.server.period)
            #expect(clicks == [], "clicks: \(analysis.describe(steps: clicks, frequency: 440)); \(xruns) xruns")
            let frequency = try analysis.frequency(atLeast: 4_800)
            #expect(abs(frequency - 440) < 0.2)
            #expect(abs(SignalAnalysis.peak(samples) - 0.5) < 0.005)
            #expect(abs(try analysis.rms(atLeast: 4_800) - 0.5 / 2.0.squareRoot()) < 0.01)
            #expect(await fixture.finish() == 0)
        }

        /// An OSC change cannot be placed on JACK's timeline (it goes through the node's
        /// control thread), so it is found in the recording by its effect: the level leaves
        /// 0.4 within `bound` of the server's time after the frame it was sent at, and the
        /// levels are judged before the send and after the ramp.
        @Test func oscChangesRampWithoutAClick() async throws {
            let fixture = try await NodeFixture(tone: 330, amplitude: 0.4)
            let port = try fixture.oscPort
            var recorder: TimelineRecorder? = try fixture.timelineRecorder()
            let rate = 48_000.0
            let seconds = { (s: Double) in Int(s * rate) }
            let bound = 0.5
            // oscsend would do as well; this sends the same datagram. Each take starts at 0.4.
            let (recording, before, change, xruns) = try await retryingOnBusyHost("330 Hz, 0.4 then 0.1") { attempt in
                let recorder = try #require(recorder)
                if attempt > 1 {
                    _ = try OSCDatagram.request(OSCDatagram.message("/toneshaper/amplitude", [.float(0.4)]), toPort: port)
                    try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.1, of: fixture.server), port: port)
                }
                let xrunsBefore = try #require(try OSCDatagram.stats(port: port))["xruns"] ?? 0
                try await recorder.start()
                try await recorder.wait(untilRecorded: seconds(1.0))
                let sent = recorder.frameNow
                try OSCDatagram.send(OSCDatagram.message("/toneshaper/amplitude", [.float(0.1)]), toPort: port)
                let recording = try await recorder.finish(atFrame: sent &+ UInt32(seconds(1.5)))
                let xruns = Int((try #require(try OSCDatagram.stats(port: port))["xruns"] ?? 0) - xrunsBefore)
                let samples = recording.samples
                let sentIndex = try recording.requireIndex(ofFrame: sent, "the send's frame")
                // Where the level has left 0.4 for good: the first sample from which the next
                // 50 ms stay below 0.36 (a dropout's silent period is shorter).
                let change = try #require(
                    stride(from: sentIndex, to: samples.count - seconds(0.05), by: 16).first {
                        SignalAnalysis.peak(samples, range: $0..<($0 + seconds(0.05))) < 0.36
                    }, "the level never left 0.4 in the 1.5 s after the send (\(xruns) xruns)")
                let delay = Double(change - sentIndex) / rate
                if delay > bound {
                    throw HostTooBusy(String(format: "the change was heard %.2f s after its send, beyond %.1f s", delay, bound))
                }
                // Clean stretches on both sides of the change, for the levels and the pitch.
                let analysis = RecordingAnalysis(samples, sampleRate: rate)
                let before = recording.contiguousStretch(within: 0..<sentIndex)
                _ = try analysis.cleanStretch(within: before, atLeast: seconds(0.1))
                _ = try analysis.cleanStretch(
                    within: recording.contiguousStretch(within: (change + seconds(0.05))..<samples.count), atLeast: seconds(0.1))
                return (recording, before, change, xruns)
            }
            recorder = nil
            let samples = recording.samples
            let analysis = RecordingAnalysis(samples, sampleRate: rate)
            #expect(SignalAnalysis.allFinite(samples))
            let limit = clickLimit(frequency: 330, amplitude: 0.4, sampleRate: rate)
            let clicks = analysis.unexplainedSteps(above: limit, frequency: 330, amplitudes: [0.4, 0.1], period: fixture.server.period)
                .filter { recording.stepIsTrusted(at: $0) }  // not at a period the recorder missed or recorded twice
            #expect(clicks == [], "clicks: \(analysis.describe(steps: clicks, frequency: 330)); \(xruns) xruns")
            let early = try analysis.rms(within: before, atLeast: seconds(0.1))
            #expect(abs(early - 0.4 / 2.0.squareRoot()) < 0.01)
            let after = recording.contiguousStretch(within: (change + seconds(0.05))..<samples.count)
            let late = try analysis.rms(within: after, atLeast: seconds(0.1))
            #expect(abs(late - 0.1 / 2.0.squareRoot()) < 0.005)
            #expect(SignalAnalysis.peak(samples) <= 0.4 + 1e-6)
            let frequency = try analysis.frequency(within: before, atLeast: seconds(0.1))
            #expect(abs(frequency - 330) < 0.3)
            #expect(await fixture.finish() == 0)
        }

        @Test func connectsWhereItIsTold() async throws {
            let server = try PrivateJackServer()
            let automatic = try NodeProcess(["--no-osc", "--name", "auto"], server: server)
            let named = try NodeProcess(["--no-osc", "--name", "named", "--connect", "system:playback_2"], server: server)
            let stereo = try NodeProcess(["--no-osc", "--name", "wide", "--stereo"], server: server)
            try await automatic.waitUntilReady(osc: false)
            try await named.waitUntilReady(osc: false)
            try await stereo.waitUntilReady(osc: false)
            #expect(stereo.ports == ["wide:out_1", "wide:out_2"])
            let graph = try #require(server.connections())
            #expect(graph["auto:out"]?.sorted() == ["system:playback_1", "system:playback_2"])
            #expect(graph["named:out"] == ["system:playback_2"])
            #expect(graph["wide:out_1"] == ["system:playback_1"])
            #expect(graph["wide:out_2"] == ["system:playback_2"])
            for node in [automatic, named, stereo] { #expect(await node.stop(signal: SIGINT) == 0) }
            // Closed cleanly: the ports are gone from the graph.
            let after = try #require(server.connections())
            #expect(!after.keys.contains { $0.hasPrefix("auto:") || $0.hasPrefix("named:") || $0.hasPrefix("wide:") })
        }

        @Test func withoutAServerItSaysSoAndExits() async throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ExternalTools.toneshaperBinary)
            process.arguments = ["run", "--no-osc"]
            process.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": "ts-test-nobody-\(getpid())"]) { $1 }
            let errors = OutputCollector()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors.pipe
            try process.run()
            errors.start()
            #expect(await eventually(timeout: 10) { !process.isRunning })
            process.waitUntilExit()
            errors.finish()
            #expect(process.terminationStatus != 0)
            #expect(errors.text.contains("no JACK server is running (server name \"ts-test-nobody-\(getpid())\")"))
        }
    }
}
