import Foundation
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

        @Test func oscChangesRampWithoutAClick() async throws {
            let fixture = try await NodeFixture(tone: 330, amplitude: 0.4)
            let port = try fixture.oscPort
            let seconds = { (s: Double) in Int(s * 48_000) }
            // oscsend would do as well; this sends the same datagram. Each take starts at 0.4.
            let (analysis, xruns) = try await retryingOnBusyHost("330 Hz, 0.4 then 0.1") { attempt in
                if attempt > 1 {
                    _ = try OSCDatagram.request(OSCDatagram.message("/toneshaper/amplitude", [.float(0.4)]), toPort: port)
                    try await Task.sleep(for: .milliseconds(100))
                }
                let (samples, rate, xruns) = try await fixture.record(
                    seconds: 3, sending: OSCDatagram.message("/toneshaper/amplitude", [.float(0.1)]), after: 1.5)
                let analysis = RecordingAnalysis(samples, sampleRate: rate)
                // Clean stretches on both sides of the change, for the levels and the pitch.
                _ = try analysis.cleanStretch(within: 0..<seconds(1.0), atLeast: seconds(0.1))
                _ = try analysis.cleanStretch(within: (samples.count - seconds(0.8))..<samples.count, atLeast: seconds(0.1))
                return (analysis, xruns)
            }
            let samples = analysis.samples
            #expect(SignalAnalysis.allFinite(samples))
            let limit = clickLimit(frequency: 330, amplitude: 0.4, sampleRate: analysis.sampleRate)
            let clicks = analysis.unexplainedSteps(above: limit, frequency: 330, amplitudes: [0.4, 0.1], period: fixture.server.period)
            #expect(clicks == [], "clicks: \(analysis.describe(steps: clicks, frequency: 330)); \(xruns) xruns")
            let early = try analysis.rms(within: 0..<seconds(1.0), atLeast: seconds(0.1))
            #expect(abs(early - 0.4 / 2.0.squareRoot()) < 0.01)
            let late = try analysis.rms(within: (samples.count - seconds(0.8))..<samples.count, atLeast: seconds(0.1))
            #expect(abs(late - 0.1 / 2.0.squareRoot()) < 0.005)
            #expect(SignalAnalysis.peak(samples) <= 0.4 + 1e-6)
            let frequency = try analysis.frequency(within: 0..<seconds(1.0), atLeast: seconds(0.1))
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
