import FlyingFox
import Foundation
import Synchronization
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJSON
import ToneShaperParameters

/// What the server is busy with: open sockets, and whether an export renders.
final class WebLoad: Sendable {
    let sockets = Atomic<Int>(0)
    let exporting = Atomic<Bool>(false)
}

/// Every HTTP request, after the guard: the editor page, OSCQuery, the state as JSON,
/// control over POST, the library's names, exports, and WebSocket upgrades.
struct WebRoutes: HTTPHandler {
    let context: WebContext
    let guardian: RequestGuard
    let load: WebLoad

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let refusal = guardian.check(request) {
            return WebRoutes.text(refusal.status, refusal.reason)
        }
        if request.headers[.upgrade]?.lowercased() == "websocket" { return await upgrade(request) }
        if let length = request.bodySequence.count, length > WebLimits.maximumBodyBytes {
            return WebRoutes.text(.payloadTooLarge, "a request body of \(length) bytes is too large (at most \(WebLimits.maximumBodyBytes))")
        }
        switch (request.method, request.path) {
        case (.GET, "/editor"), (.GET, "/editor/"): return WebRoutes.page(PackageResources.editor_html, "text/html; charset=utf-8")
        case (.GET, "/editor/editor.js"): return WebRoutes.page(PackageResources.editor_js, "text/javascript; charset=utf-8")
        case (.GET, "/editor/tuning.js"): return WebRoutes.page(PackageResources.tuning_js, "text/javascript; charset=utf-8")
        case (.GET, "/editor/curve-view.js"): return WebRoutes.page(PackageResources.curve_view_js, "text/javascript; charset=utf-8")
        case (.GET, "/editor/curve-editing.js"): return WebRoutes.page(PackageResources.curve_editing_js, "text/javascript; charset=utf-8")
        case (.GET, "/editor/curve-selection.js"):
            return WebRoutes.page(PackageResources.curve_selection_js, "text/javascript; charset=utf-8")
        case (.GET, "/editor/library.js"): return WebRoutes.page(PackageResources.library_js, "text/javascript; charset=utf-8")
        case (.GET, "/editor/editor.css"): return WebRoutes.page(PackageResources.editor_css, "text/css; charset=utf-8")
        case (.GET, "/state"): return WebRoutes.json(StateJSON.object(context.controller.state))
        case (.GET, "/stats"):
            do throws(ControlError) {
                return WebRoutes.json(StateJSON.stats(try context.surface.currentStatistics()))
            } catch {
                return WebRoutes.text(.serviceUnavailable, error.problem)
            }
        case (.GET, "/library"): return WebRoutes.json(context.libraryJSON())
        case (.GET, "/export"): return await export(request)
        case (.POST, let path) where path.hasPrefix("/control/"):
            return try await control(request, address: String(path.dropFirst("/control/".count)))
        case (.GET, _), (.HEAD, _): return oscQuery(request)
        default: return WebRoutes.text(.methodNotAllowed, "\(request.method.rawValue) \(request.path) is not served here")
        }
    }

    // MARK: OSCQuery

    /// `GET /path[?ATTRIBUTE]`: a node of the namespace, one of its attributes, or `?HOST_INFO`.
    private func oscQuery(_ request: HTTPRequest) -> HTTPResponse {
        let attributes = request.query.map(\.name).filter { $0 != "token" }
        if attributes.contains("HOST_INFO") {
            return WebRoutes.json(OSCQueryNamespace.hostInfo(name: context.name, oscPort: context.oscPort))
        }
        guard let node = context.namespace.node(at: request.path, state: context.controller.state) else {
            return WebRoutes.text(.notFound, "\(request.path): no such node; GET / lists the namespace")
        }
        guard let attribute = attributes.first else { return WebRoutes.json(node) }
        // The proposal: an attribute the node lacks is "no content", not an error.
        guard let value = node[attribute] else { return HTTPResponse(statusCode: .noContent) }
        return WebRoutes.json(.object([attribute: value]))
    }

    // MARK: Control over HTTP

    /// `POST /control/<address>` with a JSON array of arguments (or one value, or nothing).
    private func control(_ request: HTTPRequest, address: String) async throws -> HTTPResponse {
        // Read as it comes, up to the limit: a chunked body declares no length up front.
        var body = Data()
        for try await chunk in request.bodySequence {
            body.append(chunk)
            if body.count > WebLimits.maximumBodyBytes {
                return WebRoutes.text(.payloadTooLarge, "a request body of more than \(WebLimits.maximumBodyBytes) bytes is too large")
            }
        }
        var arguments: [JSONValue] = []
        if !body.isEmpty {
            do throws(JSONError) {
                switch try JSONValue.parseRequest(body) {
                case .array(let list): arguments = list
                case let single: arguments = [single]
                }
            } catch {
                return WebRoutes.json(
                    .object(["error": .string("the body is \(error.requestProblem); send a JSON array of arguments, such as [110, 880]")]),
                    status: .badRequest)
            }
        }
        switch context.perform(address: address, arguments: arguments) {
        case .success(let fields): return WebRoutes.json(.object(fields))
        case .failure(let refusal): return WebRoutes.json(.object(["error": .string(refusal.message)]), status: .badRequest)
        }
    }

    // MARK: WebSocket

    private func upgrade(_ request: HTTPRequest) async -> HTTPResponse {
        let open = load.sockets.add(1, ordering: .relaxed).newValue
        guard open <= WebLimits.maximumSockets else {
            load.sockets.subtract(1, ordering: .relaxed)
            return WebRoutes.text(
                .serviceUnavailable, "too many WebSocket connections (at most \(WebLimits.maximumSockets)); close another page first")
        }
        let load = self.load
        let session = WebSocketSession(context: context) { load.sockets.subtract(1, ordering: .relaxed) }
        do {
            let response = try await WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: session)).handleRequest(request)
            if case .webSocket = response.payload {} else { load.sockets.subtract(1, ordering: .relaxed) }
            return response
        } catch {
            load.sockets.subtract(1, ordering: .relaxed)
            return WebRoutes.text(.badRequest, "WebSocket handshake failed: \(error)")
        }
    }

    // MARK: Export

    /// `GET /export?cycles=N&format=wav|flac|ogg`: the current shape rendered by the same
    /// renderer as `toneshaper render`, at the node's rate, as a download.
    private func export(_ request: HTTPRequest) async -> HTTPResponse {
        let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        guard let container = AudioContainer(fileExtension: query["format"] ?? "wav") else {
            return WebRoutes.text(.badRequest, "format must be wav, flac or ogg")
        }
        guard let cycles = Int(query["cycles"] ?? "1"), cycles >= 1 else {
            return WebRoutes.text(.badRequest, "cycles must be a whole number of at least 1")
        }
        let shape = context.controller.shape
        let rate = Int(context.controller.sampleRate.rounded())
        let seconds = Double(cycles) * shape.duration
        guard seconds <= WebLimits.maximumExportSeconds else {
            return WebRoutes.text(
                .badRequest,
                "\(cycles) cycles last \(Int(seconds)) s; an export may last at most \(Int(WebLimits.maximumExportSeconds)) s (use toneshaper render for longer)"
            )
        }
        guard load.exporting.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return WebRoutes.text(.tooManyRequests, "an export is already being rendered; try again when it is done")
        }
        defer { load.exporting.store(false, ordering: .releasing) }
        let path = NSTemporaryDirectory() + "toneshaper-export-\(UUID().uuidString).\(container.rawValue)"
        let frames = Int((seconds * Double(rate)).rounded())
        // Rendering is blocking work: off the server's threads, so pages stay served.
        let result: Result<Data, any Error> = await withCheckedContinuation { done in
            DispatchQueue.global(qos: .utility).async {
                done.resume(
                    returning: Result {
                        defer { try? FileManager.default.removeItem(atPath: path) }
                        try FileRenderer.render(shape, to: path, format: AudioFileFormat(container: container), sampleRate: rate, frames: frames)
                        return try Data(contentsOf: URL(fileURLWithPath: path))
                    })
            }
        }
        switch result {
        case .success(let data):
            let name = (shape.name ?? "toneshaper").filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
            return HTTPResponse(
                statusCode: .ok,
                headers: [
                    .contentType: container == .wav ? "audio/wav" : container == .flac ? "audio/flac" : "audio/ogg",
                    .contentDisposition: "attachment; filename=\"\(name.isEmpty ? "toneshaper" : name)-\(cycles).\(container.rawValue)\"",
                ], body: data)
        case .failure(let error):
            return WebRoutes.text(.internalServerError, "export failed: \(error)")
        }
    }

    // MARK: Responses

    static func json(_ value: JSONValue, status: HTTPStatusCode = .ok) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: value.encoded)
    }

    static func text(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data((message + "\n").utf8))
    }

    static func page(_ bytes: [UInt8], _ type: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-cache",
                // The page loads nothing from elsewhere, and no other site may frame it.
                HTTPHeader("Content-Security-Policy"):
                    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data: blob:; frame-ancestors 'none'",
                HTTPHeader("X-Content-Type-Options"): "nosniff",
            ], body: Data(bytes))
    }
}
