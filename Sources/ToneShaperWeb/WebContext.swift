import Foundation
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters

/// What the host (the JACK node) lends the web server beyond the controller.
public struct WebHostServices: Sendable {
    /// Callback timing and the frames played, for `/stats` and the page's playhead.
    public var statistics: (@Sendable () -> NodeStatistics?)?
    /// The document library, for the page's load menu (names only).
    public var library: DocumentLibrary?
    /// The output, for the page's oscilloscope and spectrum.
    public var scope: ScopeFeed?

    public init(statistics: (@Sendable () -> NodeStatistics?)? = nil, library: DocumentLibrary? = nil, scope: ScopeFeed? = nil) {
        self.statistics = statistics
        self.library = library
        self.scope = scope
    }
}

/// A request refused, in the page's words.
struct WebRefusal: Error {
    let message: String
}

/// What every request handler shares: the controller, the namespace, the host's services.
struct WebContext: Sendable {
    let controller: EngineController
    let namespace: OSCQueryNamespace
    let services: WebHostServices
    let name: String
    let oscPort: Int?
    let pages: EditorPages

    var surface: ControlSurface { ControlSurface(controller: controller, statistics: services.statistics) }

    /// Performs `arguments` sent to `address` (relative, "frequency/range", or full,
    /// "/toneshaper/frequency/range"): the meaning is the core's. The answer is the fields
    /// of the reply object: `ok`, the notes the user should know (a clamp), and what a
    /// query asked for (`state`, `stats`, `points`).
    func perform(address: String, arguments: [JSONValue]) -> Result<[String: JSONValue], WebRefusal> {
        var path = address
        if path.hasPrefix(namespace.prefix + "/") { path.removeFirst(namespace.prefix.count + 1) }
        while path.hasPrefix("/") { path.removeFirst() }
        guard let target = ControlAddress.named(path) else {
            return .failure(WebRefusal(message: "\(address): unknown address; see \(namespace.prefix)/ in the namespace (GET /)"))
        }
        var values: [ParameterValue] = []
        values.reserveCapacity(arguments.count)
        for (i, argument) in arguments.enumerated() {
            guard let value = argument.parameterValue else {
                return .failure(WebRefusal(message: "\(namespace.prefix)/\(path): argument \(i + 1) must be a number, a string or a boolean"))
            }
            values.append(value)
        }
        do {
            var fields: [String: JSONValue] = ["ok": .bool(true), "notes": .array([])]
            switch try surface.perform(target, values) {
            case .done(let notes): fields["notes"] = .array(notes.map(JSONValue.string))
            case .state(let state): fields["state"] = StateJSON.object(state)
            case .stats(let figures): fields["stats"] = StateJSON.stats(figures)
            case .points(let points, let curvatures):
                fields["points"] = StateJSON.points(points)
                if !curvatures.isEmpty { fields["curvatures"] = .array(curvatures.map(JSONValue.number)) }
            }
            return .success(fields)
        } catch {
            return .failure(WebRefusal(message: error.phrased(addressPrefix: namespace.prefix)))
        }
    }

    /// Renames a shape of the user's library (the built-ins are read-only).
    func rename(_ name: String, to newName: String) -> Result<Void, WebRefusal> {
        guard let library = services.library else { return .failure(WebRefusal(message: "this node has no library")) }
        do throws(LibraryError) {
            try library.rename(name, to: newName)
            return .success(())
        } catch {
            return .failure(WebRefusal(message: error.description))
        }
    }

    /// The library, built-ins and the user's, for the page's shape library: each entry's
    /// name, description and thumbnail (``ShapeThumbnail``: x0 y0 x1 y1 ... in 0...1, y up),
    /// or, for a file that does not read, why; `olderFolder` marks a user's shape read from
    /// the folder earlier versions saved into (not renamed there).
    func libraryJSON() -> JSONValue {
        guard let library = services.library else { return .object(["builtIn": .array([]), "user": .array([])]) }
        let entry = { (e: DocumentLibrary.Entry) -> JSONValue in
            var object: [String: JSONValue] = ["name": .string(e.name)]
            if e.inOlderFolder { object["olderFolder"] = .bool(true) }
            switch e.shape {
            case .success(let shape):
                if let text = shape.description { object["description"] = .string(text) }
                // Four decimals: a tenth of a pixel on any thumbnail, and a short reply.
                let rounded = { (v: Double) -> JSONValue in .number((v * 10_000).rounded() / 10_000) }
                object["thumbnail"] = .array(ShapeThumbnail.outline(shape).flatMap { [rounded($0.x), rounded($0.y)] })
            case .failure(let error):
                object["problem"] = .string(error.description)
            }
            return .object(object)
        }
        return .object([
            "builtIn": .array(library.entries(.builtIn).map(entry)),
            "user": .array(library.entries(.user).map(entry)),
        ])
    }
}
