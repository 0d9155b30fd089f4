import FlyingFox
import Foundation
import ToneShaperControl

@testable import ToneShaperWeb

/// The web side's WebSocket session driven in this process: messages go in as the server's
/// WebSocket handler hands them over, and replies come out of the session's own stream.
actor WebSocketProbe {
    private let input: AsyncStream<WSMessage>.Continuation
    private var output: AsyncStream<WSMessage>.AsyncIterator
    private var nextID = 0

    init(controller: EngineController, prefix: String) async throws {
        let context = WebContext(
            controller: controller, namespace: OSCQueryNamespace(prefix: prefix), services: WebHostServices(), name: "probe",
            oscPort: nil, pages: EditorPages())
        let (messages, input) = AsyncStream<WSMessage>.makeStream()
        self.input = input
        output = try await WebSocketSession(context: context, onEnd: {}).makeMessages(for: messages).makeAsyncIterator()
    }

    /// Sends `{"address": path, "args": [...], "id": N}` and waits for the answer to N.
    func send(_ path: String, _ jsonArguments: [String]) async -> FrontEndAgreement.Outcome {
        nextID += 1
        let id = nextID
        input.yield(.text(#"{"address": "\#(path)", "args": [\#(jsonArguments.joined(separator: ","))], "id": \#(id)}"#))
        var replies = output
        defer { output = replies }
        while let message = await replies.next(isolation: self) {
            guard case .text(let text) = message,
                let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any], object["id"] as? Int == id
            else { continue }
            if let error = object["error"] as? String { return .refused(error) }
            return .accepted
        }
        return .refused("the WebSocket session ended")
    }

    nonisolated func close() { input.finish() }
}
