import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// SPEC 9: if the JACK server goes away the node says so, keeps its state, and
    /// reconnects when a server is back, restoring its connections.
    @Suite struct ServerLoss {
        @Test func reconnectsAndRestoresConnections() async throws {
            let fixture = try await NodeFixture(tone: 500, amplitude: 0.3, arguments: ["--osc-port", "0", "--connect", "system:playback_1"])
            let (server, node) = (fixture.server, fixture.node)
            #expect(server.connections()?["toneshaper:out"] == ["system:playback_1"])

            server.kill9()
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("JACK server went away") })
            #expect(node.process.isRunning)

            // Back, at another rate: the node must follow it.
            try server.start(rate: 44_100)
            let back = monotonicSeconds()
            let reconnected = await eventually(timeout: 20) {
                server.connections()?["toneshaper:out"] == ["system:playback_1"]
            }
            let took = monotonicSeconds() - back
            print(String(format: "server loss: reconnected %.2f s after the server was back, connection to system:playback_1 restored", took))
            // The node retries every second (printed above); 20 s tells a node that never
            // comes back from a slow host.
            #expect(reconnected, "not reconnected \(took) s after the server was back: \(node.stderr.text)")

            // Still the same sound, at the new rate. Playing at the wrong rate would read
            // 500 * 48000 / 44100 = 544 Hz.
            let (analysis, xruns) = try await retryingOnBusyHost("500 Hz at 44.1 kHz") { _ in
                let (samples, rate, xruns) = try await fixture.record(seconds: 1)
                #expect(rate == 44_100)
                let analysis = RecordingAnalysis(samples, sampleRate: rate)
                _ = try analysis.cleanStretch(atLeast: 8_820)
                return (analysis, xruns)
            }
            #expect(SignalAnalysis.allFinite(analysis.samples))
            let limit = clickLimit(frequency: 500, amplitude: 0.3, sampleRate: analysis.sampleRate)
            let clicks = analysis.unexplainedSteps(above: limit, frequency: 500, amplitudes: [0.3], period: server.period)
            #expect(clicks == [], "clicks: \(analysis.describe(steps: clicks, frequency: 500)); \(xruns) xruns")
            let frequency = try analysis.frequency(atLeast: 8_820)
            #expect(abs(frequency - 500) < 0.5, "\(frequency) Hz")
            #expect(abs(SignalAnalysis.peak(analysis.samples) - 0.3) < 0.005)
            #expect(await fixture.finish() == 0)
        }
    }
}
