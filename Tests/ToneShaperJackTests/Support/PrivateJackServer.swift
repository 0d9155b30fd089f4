import Foundation
import ToneShaperTestSupport

/// The node's tests record through jack_capture while they act: the shared server
/// (``ToneShaperTestSupport/PrivateJackServer``) with a recording that has begun before it
/// returns.
extension PrivateJackServer {
    /// Starts recording `port` with jack_capture and returns once the recorder is connected
    /// to it: the recording has begun, so anything sent from now on lands inside it, however
    /// slowly the busy host started the recorder.
    func startRecording(_ port: String, seconds: Double, into directory: URL) async throws -> Task<(samples: [Float], sampleRate: Double), any Error>
    {
        let recording = Task.detached { try self.record(port, seconds: seconds) }
        let connected = await eventually(timeout: 30) {
            connections()?[port]?.contains { $0.hasPrefix("jack_capture") } == true
        }
        guard connected else {
            recording.cancel()
            throw JackTestError("jack_capture did not connect to \(port) within 30 s")
        }
        return recording
    }

    /// Records `port` with jack_capture for `seconds` and returns the samples (mono).
    func record(_ port: String, seconds: Double, into directory: URL) throws -> (samples: [Float], sampleRate: Double) {
        try record(port, seconds: seconds)
    }
}

struct JackTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
