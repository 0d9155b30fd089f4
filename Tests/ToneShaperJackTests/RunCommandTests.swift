import Foundation
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// `toneshaper run` as a user runs it, recorded with jack_capture.
    @Suite struct RunCommand {
        /// The steepest step a sine of frequency f and amplitude a takes at this rate, with
        /// a margin: anything above is a click.
        static func clickLimit(frequency: Double, amplitude: Double, sampleRate: Double) -> Double {
            2 * Double.pi * frequency * amplitude / sampleRate * 1.05
        }

        /// Records the node's port, asking the node how many xruns the server reported
        /// meanwhile; sends `message` to the node `delay` seconds into the recording.
        static func record(
            _ node: NodeProcess, on server: PrivateJackServer, seconds: Double, in scratch: ScratchDirectory,
            sending message: [UInt8]? = nil, after delay: Double = 0
        ) async throws -> (samples: [Float], rate: Double, xruns: Int) {
            let port = try #require(node.oscPort)
            let before = try #require(try OSCDatagram.stats(port: port))["xruns"] ?? 0
            let (portName, directory) = (node.ports[0], scratch.url)
            let recording = Task.detached { try server.record(portName, seconds: seconds, into: directory) }
            if let message {
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                try OSCDatagram.send(message, toPort: port)
            }
            let (samples, rate) = try await recording.value
            let after = try #require(try OSCDatagram.stats(port: port))["xruns"] ?? 0
            return (samples, rate, Int(after - before))
        }

        @Test func playsAConstantToneAtItsFrequencyAndLevelWithoutClicks() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let document = try scratch.constantTone(frequency: 440, amplitude: 0.5)
            let node = try NodeProcess([document, "--no-auto-connect", "--osc-port", "0"], server: server)
            try await node.waitUntilReady()
            #expect(node.ports == ["toneshaper:out"])
            #expect(node.stdout.text.contains("MIDI: toneshaper:midi_in\n"))
            #expect(server.connections()?["toneshaper:out"] == [])

            let (samples, rate, xruns) = try await Self.record(node, on: server, seconds: 2, in: scratch)
            #expect(rate == 48_000)
            #expect(samples.count > 90_000)
            #expect(SignalAnalysis.allFinite(samples))
            let analysis = RecordingAnalysis(samples, sampleRate: rate, clickLimit: Self.clickLimit(frequency: 440, amplitude: 0.5, sampleRate: rate))
            #expect(
                analysis.unexplainedJumps(frequency: 440, amplitudes: [0.5], period: server.period) == [],
                "jumps at \(analysis.jumps), \(xruns) xruns")
            let clean = analysis.longestCleanStretch
            #expect(clean.count > 12_000, "the server was too busy to judge: \(xruns) xruns")
            let frequency = try #require(analysis.frequency(in: clean))
            #expect(abs(frequency - 440) < 0.2)
            #expect(abs(SignalAnalysis.peak(samples) - 0.5) < 0.005)
            #expect(abs(SignalAnalysis.rms(samples, range: clean) - 0.5 / 2.0.squareRoot()) < 0.01)
            #expect(await node.stop() == 0)
        }

        @Test func oscChangesRampWithoutAClick() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let document = try scratch.constantTone(frequency: 330, amplitude: 0.4)
            let node = try NodeProcess([document, "--no-auto-connect", "--osc-port", "0"], server: server)
            try await node.waitUntilReady()

            // oscsend would do as well; this sends the same datagram.
            let (samples, rate, xruns) = try await Self.record(
                node, on: server, seconds: 3, in: scratch,
                sending: OSCDatagram.message("/toneshaper/amplitude", [.float(0.1)]), after: 1.5)
            #expect(SignalAnalysis.allFinite(samples))
            let analysis = RecordingAnalysis(samples, sampleRate: rate, clickLimit: Self.clickLimit(frequency: 330, amplitude: 0.4, sampleRate: rate))
            #expect(
                analysis.unexplainedJumps(frequency: 330, amplitudes: [0.4, 0.1], period: server.period) == [],
                "jumps at \(analysis.jumps), \(xruns) xruns")
            let half = Int(rate / 2)
            #expect(abs(SignalAnalysis.rms(samples, range: 0..<half) - 0.4 / 2.0.squareRoot()) < 0.01)
            let end = samples.count
            #expect(abs(SignalAnalysis.rms(samples, range: (end - half)..<end) - 0.1 / 2.0.squareRoot()) < 0.005)
            #expect(SignalAnalysis.peak(samples) <= 0.4 + 1e-6)
            let frequency = try #require(analysis.frequency(in: analysis.longestCleanStretch))
            #expect(abs(frequency - 330) < 0.3)
            #expect(await node.stop() == 0)
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
