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
            print(String(format: "server loss: reconnected %.2f s after the server was back, connection to system:playback_1 restored", took))
            #expect(reconnected)
            #expect(took < 3, "reconnected after \(took) s")

            // Still the same sound, at the new rate.
            let (samples, rate, xruns) = try await WithJackServer.RunCommand.record(node, on: server, seconds: 1, in: scratch)
            #expect(rate == 44_100)
            #expect(SignalAnalysis.allFinite(samples))
            let limit = WithJackServer.RunCommand.clickLimit(frequency: 500, amplitude: 0.3, sampleRate: rate)
            let analysis = RecordingAnalysis(samples, sampleRate: rate, clickLimit: limit)
            #expect(
                analysis.unexplainedJumps(frequency: 500, amplitudes: [0.3], period: server.period) == [],
                "jumps at \(analysis.jumps), \(xruns) xruns")
            // Playing at the wrong rate would read 500 * 48000 / 44100 = 544 Hz. Zero crossings
            // over a stretch of n samples are good to about a sample's worth of phase, so the
            // tolerance follows the clean stretch the busy dummy server left us.
            let stretch = analysis.longestCleanStretch
            #expect(stretch.count >= 2_205, "the server was too busy to judge: \(xruns) xruns")
            let frequency = try #require(analysis.frequency(in: stretch))
            let tolerance = max(0.5, 2 * rate / Double(stretch.count))
            #expect(abs(frequency - 500) < tolerance, "\(frequency) Hz over \(stretch.count) samples")
            #expect(abs(SignalAnalysis.peak(samples) - 0.3) < 0.005)
            #expect(await node.stop() == 0)
        }
    }
}
