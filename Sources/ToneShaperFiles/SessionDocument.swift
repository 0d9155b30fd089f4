import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel

#if canImport(Glibc)
    import Glibc
#endif

/// What a node keeps in a session (NSM): the tone shape as an ordinary `.toneshaper`
/// document, so `toneshaper render` and the original app read it as they read any other,
/// plus the node's own settings under one extra key, which documents keep and ignore.
public struct SessionDocument: Equatable, Sendable {
    public static let fileExtension = DocumentLibrary.fileExtension
    /// The key the node's settings live under.
    public static let settingsKey = "toneshaperSession"

    public var shape: ToneShape
    public var settings: NodeSettings

    public init(shape: ToneShape, settings: NodeSettings = NodeSettings()) {
        var shape = shape
        shape.extraKeys[SessionDocument.settingsKey] = nil
        self.shape = shape
        self.settings = settings
    }

    /// The node around the shape. `playing` and `stereo` are restored on open; the rest
    /// records where the node was when saved, for the person reading the file (and the OSC
    /// and HTTP ports are tried again first, so a controller or a bookmarked editor pointed
    /// at them keeps working).
    public struct NodeSettings: Equatable, Sendable {
        public var playing = true
        public var stereo = false
        public var jackClient: String?
        public var jackPorts: [String] = []
        public var oscURL: String?
        public var oscPort: Int?
        public var editorURL: String?
        public var httpPort: Int?
        public var savedBy: String?

        public init(
            playing: Bool = true, stereo: Bool = false, jackClient: String? = nil, jackPorts: [String] = [],
            oscURL: String? = nil, oscPort: Int? = nil, editorURL: String? = nil, httpPort: Int? = nil,
            savedBy: String? = nil
        ) {
            self.playing = playing
            self.stereo = stereo
            self.jackClient = jackClient
            self.jackPorts = jackPorts
            self.oscURL = oscURL
            self.oscPort = oscPort
            self.editorURL = editorURL
            self.httpPort = httpPort
            self.savedBy = savedBy
        }

        var json: JSONValue {
            var object: [String: JSONValue] = [
                "playing": .bool(playing), "stereo": .bool(stereo),
                "jackPorts": .array(jackPorts.map { .string($0) }),
            ]
            if let jackClient { object["jackClient"] = .string(jackClient) }
            if let oscURL { object["oscURL"] = .string(oscURL) }
            if let oscPort { object["oscPort"] = .number(Double(oscPort)) }
            if let editorURL { object["editorURL"] = .string(editorURL) }
            if let httpPort { object["httpPort"] = .number(Double(httpPort)) }
            if let savedBy { object["savedBy"] = .string(savedBy) }
            return .object(object)
        }

        /// Settings read leniently: they never make a session unusable, a value of the
        /// wrong type is left at its default.
        init(_ json: JSONValue?) {
            guard case .object(let o)? = json else { return }
            if case .bool(let b)? = o["playing"] { playing = b }
            if case .bool(let b)? = o["stereo"] { stereo = b }
            if case .string(let s)? = o["jackClient"] { jackClient = s }
            if case .array(let a)? = o["jackPorts"] { jackPorts = a.compactMap { if case .string(let s) = $0 { s } else { nil } } }
            if case .string(let s)? = o["oscURL"] { oscURL = s }
            oscPort = NodeSettings.port(o["oscPort"])
            if case .string(let s)? = o["editorURL"] { editorURL = s }
            httpPort = NodeSettings.port(o["httpPort"])
            if case .string(let s)? = o["savedBy"] { savedBy = s }
        }

        private static func port(_ json: JSONValue?) -> Int? {
            guard case .number(let n)? = json, n == n.rounded(), (1...65_535).contains(n) else { return nil }
            return Int(n)
        }
    }

    /// The session's file for an NSM path (the manager's path plus the extension).
    public static func path(forSession base: String) -> String { base + fileExtension }

    /// The document as written: the shape's keys and the settings.
    public func encoded() -> [UInt8] {
        var document = shape
        document.extraKeys[SessionDocument.settingsKey] = settings.json
        return ToneShapeDocument.encode(document)
    }

    public static func decode(_ bytes: [UInt8], source: String) throws(DocumentError) -> SessionDocument {
        let shape = try ToneShapeDocument.decode(bytes, source: source)
        return SessionDocument(shape: shape, settings: NodeSettings(shape.extraKeys[settingsKey]))
    }

    /// Reads the session at `path`; nil when there is no file there yet (a new session).
    public static func read(path: String) throws(LibraryError) -> SessionDocument? {
        var st = stat()
        if lstat(path, &st) != 0 && errno == ENOENT { return nil }
        let bytes = try DocumentFile.readBytes(path: path, limit: ToneShapeDocument.maximumSize)
        do { return try decode(bytes, source: path) } catch { throw .invalidDocument(error) }
    }

    /// Writes the session to `path` atomically and durably: a crash or a full disk leaves
    /// the previous save in place, never half a file.
    public func write(to path: String) throws(LibraryError) {
        do {
            let file = try AtomicFile(targetPath: path)
            try file.writeAll(encoded())
            try file.commit()
        } catch {
            throw .saveFailed(path: path, reason: error.message)
        }
    }
}
