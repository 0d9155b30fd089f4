import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

/// What most JACK tests start from: a private JACK server, a scratch directory, and
/// `toneshaper run` on that server playing a document, ready (its ready lines printed).
/// `finish()` stops the node (its exit status is returned) and then the server; a fixture
/// dropped without it (a failed test) kills both.
final class NodeFixture: @unchecked Sendable {
    let server: PrivateJackServer
    let scratch: ScratchDirectory
    let node: NodeProcess

    /// The arguments most tests give: the graph is the test's, the OSC port the system's.
    static let quietArguments = ["--no-auto-connect", "--osc-port", "0"]

    /// A node playing `document`, or, when it is nil, a constant sine of `frequency` and
    /// `amplitude` (written to the scratch directory), with `arguments` after it.
    init(
        tone frequency: Double = 440, amplitude: Double = 0.5, document: String? = nil, arguments: [String] = NodeFixture.quietArguments,
        environment: (ScratchDirectory) -> [String: String] = { _ in [:] }, server: PrivateJackServer? = nil, osc: Bool = true
    ) async throws {
        self.server = try server ?? PrivateJackServer()
        scratch = try ScratchDirectory()
        let played = try document ?? scratch.constantTone(frequency: frequency, amplitude: amplitude)
        node = try NodeProcess([played] + arguments, server: self.server, environment: environment(scratch))
        try await node.waitUntilReady(osc: osc)
    }

    deinit {
        node.terminate()
        server.stop()
    }

    var oscPort: Int {
        get throws { try #require(node.oscPort, "no OSC line: \(node.stdout.text)") }
    }

    /// Stops the node with `signal` and then the server; the node's exit status.
    @discardableResult
    func finish(signal: Int32 = SIGTERM) async -> Int32? {
        let status = await node.stop(signal: signal)
        server.stop()
        return status
    }

    /// Records the node's first port for `seconds` with jack_capture, for a steady tone
    /// judged anywhere in the take; also the xruns the server reported meanwhile (from
    /// /stats). A test that judges a window at a distance from an event records on JACK's
    /// timeline instead (``timelineRecorder(channels:)``).
    func record(seconds: Double) async throws -> (samples: [Float], rate: Double, xruns: Int) {
        let port = try oscPort
        let before = try #require(try OSCDatagram.stats(port: port))["xruns"] ?? 0
        let recording = try await server.startRecording(node.ports[0], seconds: seconds, into: scratch.url)
        let taken = try await recording.value
        let after = try #require(try OSCDatagram.stats(port: port))["xruns"] ?? 0
        return (taken.samples, taken.sampleRate, Int(after - before))
    }

    /// A recorder of the tests' own on the node's first `channels` ports, on JACK's
    /// timeline (``TimelineRecorder``): for a test that judges a window at a distance from
    /// an event. Close it (drop it) before the server stops.
    func timelineRecorder(channels: Int = 1) throws -> TimelineRecorder {
        let recorder = try TimelineRecorder(serverName: server.name, channels: channels)
        try recorder.connect(Array(node.ports.prefix(channels)))
        return recorder
    }

    /// Records the steady tone on the node's first port until a take holds `minimumClean`
    /// continuous samples (at most four takes), and returns its analysis.
    func recordSteady(seconds: Double, minimumClean: Int) async throws -> RecordingAnalysis {
        try await server.recordSteady(node.ports[0], seconds: seconds, minimumClean: minimumClean, into: scratch.url)
    }
}

extension PrivateJackServer {
    /// Records a steady tone on `port` until a take holds `minimumClean` continuous samples
    /// (at most `attempts` takes, each retry said on standard output), and returns its
    /// analysis; throws ``HostTooBusy`` when every take was spoilt.
    func recordSteady(_ port: String, seconds: Double, minimumClean: Int, into directory: URL, attempts: Int = 4) async throws -> RecordingAnalysis {
        try await retryingOnBusyHost("\(port), \(seconds) s", attempts: attempts) { _ in
            let take = try record(port, seconds: seconds, into: directory)
            let analysis = RecordingAnalysis(take.samples, sampleRate: take.sampleRate)
            _ = try analysis.cleanStretch(atLeast: minimumClean)
            return analysis
        }
    }
}

/// The steepest step a sine of frequency f and amplitude a takes at this rate, with a
/// margin: anything above is a click.
func clickLimit(frequency: Double, amplitude: Double, sampleRate: Double) -> Double {
    2 * Double.pi * frequency * amplitude / sampleRate * 1.05
}
