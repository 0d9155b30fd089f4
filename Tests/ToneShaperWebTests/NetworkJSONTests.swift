import FlyingFox
import Foundation
import Testing
import ToneShaperControl
import ToneShaperJSON
import ToneShaperWire

@testable import ToneShaperWeb

/// FlyingFox has a JSONValue of its own; these tests mean the core's.
typealias JSONValue = ToneShaperJSON.JSONValue

/// JSON from the network, read with the web side's limits (`WebLimits.json`): requests
/// nested too deep or too large are refused with what was wrong, before anything is
/// performed, and the node's state is unchanged; a request within the limits is performed
/// and answered as before.
@Suite struct NetworkJSONTests {
    let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)

    /// The web server's request handler as WebControlServer makes it (loopback only), without
    /// a socket: requests go straight to it.
    func routes() throws -> WebRoutes {
        let context = WebContext(
            controller: controller, namespace: OSCQueryNamespace(prefix: "/toneshaper"), services: WebHostServices(), name: "toneshaper",
            oscPort: nil, pages: EditorPages())
        return WebRoutes(context: context, guardian: RequestGuard(policy: try AccessPolicy(host: nil, allow: []), token: nil), load: WebLoad())
    }

    func post(_ routes: WebRoutes, _ path: String, _ body: [UInt8]) async throws -> (status: Int, error: String?) {
        let request = HTTPRequest(
            method: .POST, version: .http11, path: path, query: [], headers: HTTPHeaders([.host: "127.0.0.1:9001"]),
            body: HTTPBodySequence(data: Data(body)), remoteAddress: .ip4("127.0.0.1", port: 50_000))
        let response = try await routes.handleRequest(request)
        let data = try await response.bodyData
        let error = (try? JSONValue.parseRequest(data))?["error"]?.string ?? String(decoding: data, as: UTF8.self)
        return (response.statusCode.code, error)
    }

    /// `messages` sent in turn on one WebSocket session, and the session's replies.
    func webSocket(_ messages: [String]) async throws -> [JSONValue] {
        let session = WebSocketSession(context: try routes().context, onEnd: {})
        let client = AsyncStream<WSMessage> { continuation in
            for message in messages { continuation.yield(.text(message)) }
            continuation.finish()
        }
        var replies: [JSONValue] = []
        for await reply in try await session.makeMessages(for: client) {
            if case .text(let text) = reply { replies.append(try JSONValue.parseRequest(text.utf8)) }
        }
        return replies
    }

    static func nested(_ depth: Int, around inner: String) -> [UInt8] {
        Array((String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)).utf8)
    }

    @Test func theReaderRefusesTextsBeyondTheLimitsAndSaysWhy() throws {
        #expect(WebLimits.json.maximumDepth == 8)
        #expect(try JSONValue.parseRequest(Self.nested(8, around: "1")) != .null)
        do {
            _ = try JSONValue.parseRequest(Self.nested(9, around: "1"))
            Issue.record("nine levels were read")
        } catch {
            #expect(error.reason == .tooDeep(limit: 8))
            #expect(error.requestProblem.hasPrefix("refused (arrays and objects are nested more than 8 deep at line 1, column 9"))
        }
        let oversized = [UInt8](repeating: 0x20, count: WebLimits.json.maximumSize + 1)
        do {
            _ = try JSONValue.parseRequest(oversized)
            Issue.record("a text over the size limit was read")
        } catch {
            #expect(error.reason == .tooLarge(size: WebLimits.json.maximumSize + 1, limit: WebLimits.json.maximumSize))
            #expect(error.requestProblem.hasPrefix("refused (the text is"))
        }
        do {
            _ = try JSONValue.parseRequest(Array("[0.5".utf8))
            Issue.record("a truncated text was read")
        } catch {
            #expect(error.requestProblem.hasPrefix("not JSON (the text ends where"))
        }
    }

    @Test func anHTTPRequestNestedTooDeepOrTooLargeIsRefusedAndChangesNothing() async throws {
        let routes = try routes()
        let before = controller.state
        let deep = try await post(routes, "/control/amplitude", Self.nested(200, around: "0.5"))
        #expect(deep.status == 400)
        #expect(deep.error?.hasPrefix("the body is refused (arrays and objects are nested more than 8 deep") == true, "\(deep.error ?? "")")
        let nine = try await post(routes, "/control/points", Self.nested(9, around: "0, 100, 1, 200"))
        #expect(nine.status == 400 && nine.error?.contains("nested more than 8 deep") == true)
        let large = try await post(routes, "/control/points", Array(repeating: 0x20, count: WebLimits.maximumBodyBytes + 1))
        #expect(large.status == 413)
        #expect(large.error?.contains("too large") == true)
        let broken = try await post(routes, "/control/amplitude", Array("[0.5".utf8))
        #expect(broken.status == 400 && broken.error?.hasPrefix("the body is not JSON (the text ends where") == true)
        #expect(controller.state == before)

        // Within the limits, a request is performed as before.
        #expect(try await post(routes, "/control/amplitude", Array("[0.5]".utf8)).status == 200)
        #expect(controller.state.shape.amplitude == 0.5)
    }

    @Test func aWebSocketMessageNestedTooDeepOrTooLargeIsRefusedAndChangesNothing() async throws {
        let before = controller.state
        let deep = #"{"address": "amplitude", "args": "# + String(decoding: Self.nested(100, around: "0.5"), as: UTF8.self) + "}"
        let large = #"{"address": "amplitude", "args": [0.5], "pad": ""# + String(repeating: "x", count: WebLimits.maximumMessageBytes) + #""}"#
        let replies = try await webSocket([deep, large, #"{"address": "amplitude", "args": [0.25], "id": 7}"#])
        #expect(replies.count == 3)
        let refusal = replies.first?["error"]?.string ?? ""
        #expect(refusal.hasPrefix("refused (arrays and objects are nested more than 8 deep"), "\(refusal)")
        #expect(replies.dropFirst().first?["error"]?.string?.contains("too large") == true)
        // The third, within the limits, is performed and answered with its id, keys sorted.
        #expect(replies.last == .object(["id": .number(7), "notes": .array([]), "ok": .bool(true)]))
        #expect(controller.state.shape.amplitude == 0.25)
        var after = controller.state
        after.shape.amplitude = before.shape.amplitude
        #expect(after.shape == before.shape)
    }

    @Test func repliesAreWrittenAsTheEditorReadsThem() {
        // Compact, keys sorted, whole numbers without a fraction, slashes unescaped.
        let reply = JSONValue.object(["ok": .bool(true), "id": .number(7), "path": .string("/toneshaper/amplitude"), "value": .number(0.25)])
        #expect(reply.text == #"{"id":7,"ok":true,"path":"/toneshaper/amplitude","value":0.25}"#)
        #expect(reply.encoded == Data(reply.text.utf8))
    }
}

/// The editor's spectrum, through the project's FFT.
@Suite struct SpectrumTests {
    @Test func aFullScaleSineReadsAboutOneAtItsBin() {
        let size = ScopeFeed.analysisSize
        let bin = 93
        let sine = (0..<size).map { Float(sin(2 * Double.pi * Double(bin * $0) / Double(size))) }
        let magnitudes = Spectrum.magnitudes(sine)
        #expect(magnitudes.count == size / 2)
        #expect(abs(magnitudes[bin] - 1) < 0.01, "\(magnitudes[bin])")
        #expect(magnitudes.enumerated().allSatisfy { abs($0.offset - bin) <= 1 || $0.element < 1e-3 })
    }
}
