import Foundation
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// SPEC 9: if the JACK server goes away the node says so, keeps its state, and
    /// reconnects when a server is back, restoring its connections.
    @Suite struct ServerLoss {
        @Test func reconnectsWithinThreeSecondsAndRestoresConnections() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let document = try scratch.constantTone(frequency: 500, amplitude: 0.3)
            let node = try NodeProcess([document, "--osc-port", "0", "--connect", "system:playback_1"], server: server)
            try await node.waitUntilReady()
            #expect(server.connections()?["toneshaper:out"] == ["system:playback_1"])

            server.kill9()
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("JACK server went away") })
            #expect(node.process.isRunning)

            // Back, at another rate: the node must follow it.
            try server.start(rate: 44_100)
            let back = monotonicSeconds()
            let reconnected = await eventually(timeout: 6) {
                server.connections()?["toneshaper:out"] == ["system:playback_1"]
            }
            let took = monotonicSeconds() - back
            #expect(reconnected)
            #expect(took < 3, "reconnected after \(took) s")

            // Still the same sound, at the new rate.
            let (samples, rate, xruns) = try await WithJackServer.RunCommand.record(node, on: server, seconds: 1, in: scratch)
            #expect(rate == 44_100)
            #expect(SignalAnalysis.allFinite(samples))
            let limit = WithJackServer.RunCommand.clickLimit(frequency: 500, amplitude: 0.3, sampleRate: rate)
            let analysis = RecordingAnalysis(samples, sampleRate: rate, clickLimit: limit)
            #expect(analysis.unexplainedJumps(frequency: 500, amplitudes: [0.3], period: server.period) == [],
                    "jumps at \(analysis.jumps), \(xruns) xruns")
            let frequency = try #require(analysis.frequency(in: analysis.longestCleanStretch))
            #expect(abs(frequency - 500) < 0.5)
            #expect(abs(SignalAnalysis.peak(samples) - 0.3) < 0.005)
            #expect(await node.stop() == 0)
        }
    }
}
