import FlyingFox
import Foundation
import Synchronization
import ToneShaperControl
import ToneShaperJSON
import ToneShaperParameters
import ToneShaperWire

/// One WebSocket connection: the editor page's, or an OSCQuery controller's.
///
/// In (JSON text):
/// - `{"address": "points", "args": [t0, f0, ...], "id": 7}`: any address of
///   `ControlAddress.all`, performed by the controller; answered `{"id": 7, "ok": true}` or
///   `{"id": 7, "error": "..."}`.
/// - `{"watch": "state"}`: from now on, the whole state after every change (`{"state": ...}`).
/// - `{"COMMAND": "LISTEN" | "IGNORE", "DATA": "/toneshaper/amplitude"}` (OSCQuery): value
///   changes of that parameter as binary OSC messages.
/// - `{"query": "stats", "id": 8}`: the audio callback's figures (the page's playhead).
/// - `{"edit": "stretch", "points": [...], "selection": [...], ...}`: an edit of the page's
///   selection by the editing model both editors share (``CurveEdits``).
/// - `{"grid": true, "times": [...], ...}`: the zoomed view's grid lines (``CurveGrid``).
/// - `{"rename": "old", "to": "new", "id": 9}`: renames a shape of the user's library;
///   answered with the library as `GET /library` lists it (`"library": ...`).
/// - `{"hide": "..."}` is pushed to a page when the session manager hides the node's GUI.
/// - `{"watch": "scope"}`: about 30 frames a second of the output's wave and spectrum
///   (`{"scope": ...}`), while the host can listen to the output.
///
/// Every change is pushed from the controller's change feed, whoever made it; the session
/// holds no state of the node's.
final class WebSocketSession: WSMessageHandler, Sendable {
    private let context: WebContext
    private let onEnd: @Sendable () -> Void

    init(context: WebContext, onEnd: @escaping @Sendable () -> Void) {
        self.context = context
        self.onEnd = onEnd
    }

    /// What this connection asked to hear, read by the change feed's queue.
    private struct Interest {
        var state = false
        var listening: Set<String> = []
    }
    private final class InterestBox: Sendable {
        let guarded = Mutex(Interest())
        /// The task pushing scope frames, while this page watches them.
        let scope = Mutex<Task<Void, Never>?>(nil)
        /// This connection's number among the editor pages, once it watches the state.
        let page = Mutex<Int?>(nil)
        func withLock<R>(_ body: (inout Interest) -> R) -> R { guarded.withLock { body(&$0) } }
    }

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        // A slow page gets the newest messages: every state message is whole, so nothing
        // is lost by dropping older ones, and memory stays bounded.
        let (output, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let interest = InterestBox()
        let context = self.context
        let subscription = context.controller.changes.subscribe { update in
            let wanted = interest.withLock { $0 }
            if wanted.state {
                continuation.yield(.text(JSONValue.object(["state": StateJSON.object(update.state)]).text))
            }
            for key in update.changed {
                guard case .parameter(let id) = key else { continue }
                let spec = ParameterTable.spec(id)
                let path = context.namespace.fullPath(of: spec)
                guard wanted.listening.contains(path) else { continue }
                let argument = OSCQueryNamespace.oscArgument(spec, spec.value(in: update.state.shape))
                if let packet = OSCPacket.encode(OSCMessage(path: path, arguments: [argument])) { continuation.yield(.data(Data(packet))) }
            }
        }
        let onEnd = self.onEnd
        Task {
            var limiter = MessageRateLimiter()
            for await message in client {
                switch message {
                case .text(let text):
                    guard limiter.admit(now: Date().timeIntervalSince1970) else {
                        if limiter.shouldReport {
                            continuation.yield(
                                .text(
                                    WebSocketSession.error(
                                        nil,
                                        "too many messages: at most \(Int(WebLimits.messagesPerSecond)) a second are taken; this one changed nothing")
                                ))
                        }
                        continue
                    }
                    if let reply = handle(text, interest: interest, output: continuation) { continuation.yield(.text(reply)) }
                case .data:
                    continuation.yield(.text(WebSocketSession.error(nil, "binary messages are not taken; send JSON text")))
                case .close:
                    break
                }
            }
            subscription.cancel()
            if let page = interest.page.withLock({ $0 }) { context.pages.closed(page) }
            if let scope = interest.scope.withLock({ task in
                defer { task = nil }
                return task
            }) {
                scope.cancel()
                context.services.scope?.release()
            }
            continuation.finish()
            onEnd()
        }
        return output
    }

    /// The reply to one message, if it gets one.
    private func handle(_ text: String, interest: InterestBox, output: AsyncStream<WSMessage>.Continuation) -> String? {
        guard text.utf8.count <= WebLimits.maximumMessageBytes else {
            return WebSocketSession.error(nil, "a message of \(text.utf8.count) bytes is too large (at most \(WebLimits.maximumMessageBytes))")
        }
        let message: JSONValue
        do throws(JSONError) { message = try JSONValue.parseRequest(text.utf8) } catch {
            return WebSocketSession.error(nil, "\(error.requestProblem): \(text.prefix(80))")
        }
        guard case .object = message else { return WebSocketSession.error(nil, "expects a JSON object") }
        let id = message["id"]
        if let command = message["COMMAND"]?.string {
            guard let path = message["DATA"]?.string, context.namespace.parameter(at: path) != nil else {
                return WebSocketSession.error(
                    id, "\(command) needs DATA, the full path of a parameter (such as \(context.namespace.prefix)/amplitude)")
            }
            switch command {
            case "LISTEN": interest.withLock { _ = $0.listening.insert(path) }
            case "IGNORE": interest.withLock { _ = $0.listening.remove(path) }
            default: return WebSocketSession.error(id, "unknown COMMAND \(command); LISTEN and IGNORE are known")
            }
            return nil
        }
        if message["watch"]?.string == "state" {
            interest.withLock { $0.state = true }
            // Messages of one connection are handled one at a time: no race here.
            if interest.page.withLock({ $0 == nil }) {
                let page = context.pages.opened(output)
                interest.page.withLock { $0 = page }
            }
            return JSONValue.object(["state": StateJSON.object(context.controller.state)]).text
        }
        if message["watch"]?.string == "scope" {
            guard interest.scope.withLock({ $0 == nil }) else { return nil }
            guard let feed = context.services.scope, feed.acquire() else {
                return WebSocketSession.error(id, "no scope: the node cannot listen to its output (is the JACK server running?)")
            }
            let task = Task {
                while !Task.isCancelled {
                    if let (samples, rate) = feed.latest(ScopeFeed.analysisSize) {
                        output.yield(.text(ScopeFeed.frame(samples, sampleRate: rate).text))
                    }
                    try? await Task.sleep(for: .milliseconds(Int(1000 / ScopeFeed.framesPerSecond)))
                }
            }
            interest.scope.withLock { $0 = task }
            return nil
        }
        if message["unwatch"]?.string == "scope" {
            if let task = interest.scope.withLock({ task in
                defer { task = nil }
                return task
            }) {
                task.cancel()
                context.services.scope?.release()
            }
            return nil
        }
        if message["query"]?.string == "stats" {
            do throws(ControlError) {
                return JSONValue.object(["id": id ?? .null, "stats": StateJSON.stats(try context.surface.currentStatistics())]).text
            } catch {
                return WebSocketSession.error(id, error.problem)
            }
        }
        if message["grid"] != nil {
            return JSONValue.object(["id": id ?? .null, "grid": CurveGrid.reply(message, shape: context.controller.shape)]).text
        }
        if message["edit"] != nil {
            switch CurveEdits.perform(message, context: context) {
            case .success(var fields):
                fields["id"] = id ?? .null
                return JSONValue.object(fields).text
            case .failure(let refusal): return WebSocketSession.error(id, refusal.message)
            }
        }
        if let name = message["rename"]?.string {
            guard let newName = message["to"]?.string else { return WebSocketSession.error(id, "rename needs \"to\", the new name") }
            switch context.rename(name, to: newName) {
            case .success: return JSONValue.object(["id": id ?? .null, "ok": .bool(true), "library": context.libraryJSON()]).text
            case .failure(let refusal): return WebSocketSession.error(id, refusal.message)
            }
        }
        guard let address = message["address"]?.string else {
            return WebSocketSession.error(id, "expects {\"address\": ..., \"args\": [...]}, {\"watch\": \"state\"} or an OSCQuery COMMAND")
        }
        let arguments: [JSONValue]
        switch message["args"] {
        case .none, .null?: arguments = []
        case .array(let list)?: arguments = list
        case let single?: arguments = [single]
        }
        switch context.perform(address: address, arguments: arguments) {
        case .success(var fields):
            fields["id"] = id ?? .null
            return JSONValue.object(fields).text
        case .failure(let reason):
            return WebSocketSession.error(id, reason.message)
        }
    }

    static func error(_ id: JSONValue?, _ text: String) -> String {
        JSONValue.object(["id": id ?? .null, "error": .string(text)]).text
    }
}

/// A token bucket per connection: a drag's 60 messages a second pass, a flood is dropped
/// (and said so at most once a second) before it reaches the controller.
struct MessageRateLimiter {
    private var tokens = WebLimits.messageBurst
    private var last = 0.0
    private var lastReport = -1.0
    private(set) var shouldReport = false

    mutating func admit(now: Double) -> Bool {
        if last > 0 { tokens = min(WebLimits.messageBurst, tokens + (now - last) * WebLimits.messagesPerSecond) }
        last = now
        if tokens >= 1 {
            tokens -= 1
            return true
        }
        shouldReport = now - lastReport >= 1
        if shouldReport { lastReport = now }
        return false
    }
}
