import CPluginSupport

/// A folder of the user's shapes (`.toneshaper` documents): `$XDG_DATA_HOME/toneshaper/shapes`
/// (XDG_DATA_HOME only if absolute, else `~/.local/share/toneshaper/shapes`), the node's too,
/// and the folder earlier versions saved in (`.../toneshaper/library`), still listed, read
/// only: nothing is moved out of it. One rule (``toneshaper_plugin_shapes_folder``) for the
/// window and the plugins' preset lists. Off the audio thread only.
public struct ShapeFolder {
    /// The folder's path (it may not exist yet).
    public let path: String
    /// The old folder's documents are listed and opened, never renamed or written.
    public let readOnly: Bool

    /// The folder at `path` (a plugin's bundle has its built-in shapes in one, read only).
    public init(path: String, readOnly: Bool) {
        self.path = path
        self.readOnly = readOnly
    }

    /// The user's folder of shapes; nil without XDG_DATA_HOME or HOME.
    public static var shapes: ShapeFolder? { find(old: false) }
    /// The folder earlier versions saved in; nil without XDG_DATA_HOME or HOME.
    public static var library: ShapeFolder? { find(old: true) }

    static func find(old: Bool) -> ShapeFolder? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard toneshaper_plugin_shapes_folder(old ? 1 : 0, &buffer, buffer.count) != 0 else { return nil }
        return ShapeFolder(path: buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, readOnly: old)
    }

    static let suffix = ".toneshaper"

    /// The documents' names (without `.toneshaper`) in byte order, as the node lists them; at
    /// most `limit`.
    public func names(limit: Int = 500) -> [String] {
        var names: [String] = []
        var file = [CChar](repeating: 0, count: 4096)
        while names.count < limit, toneshaper_plugin_nth_document(path, Int32(names.count), &file, file.count) != 0 {
            let full = file.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let leaf = Array(full.utf8.dropFirst(path.utf8.count + 1).dropLast(ShapeFolder.suffix.utf8.count))
            names.append(String(decoding: leaf, as: UTF8.self))
        }
        return names
    }

    /// The file of shape `name`.
    public func file(_ name: String) -> String { path + "/" + name + ShapeFolder.suffix }

    /// What a name cannot be, as a sentence's end; nil when it can be a shape's file name.
    public static func problem(with name: String) -> String? {
        let bytes = Array(name.utf8)
        if bytes.isEmpty { return "a name is needed" }
        if bytes.count > 100 { return "the name is longer than 100 bytes" }
        if bytes[0] == UInt8(ascii: ".") { return "a name cannot start with a dot" }
        if bytes.contains(where: { $0 == UInt8(ascii: "/") || $0 < 32 }) { return "a name cannot hold a slash or a control character" }
        return nil
    }

    /// How a save or a rename went.
    public enum Outcome: Equatable {
        case done
        /// A shape of that name is there already: nothing changed.
        case exists
        /// Refused: why, as a sentence's end (nothing changed).
        case refused(String)
    }

    /// `document` written as shape `name`, atomically and never over another file.
    public func save(_ document: [UInt8], as name: String) -> Outcome {
        if let problem = ShapeFolder.problem(with: name) { return .refused(problem) }
        if readOnly { return .refused("the old folder is read only") }
        let result = document.withUnsafeBufferPointer { toneshaper_plugin_save_file(path, file(name), $0.baseAddress, $0.count) }
        return ShapeFolder.outcome(result, "cannot be written in " + path)
    }

    /// Shape `name` renamed `new`, never over another file.
    public func rename(_ name: String, to new: String) -> Outcome {
        if let problem = ShapeFolder.problem(with: new) { return .refused(problem) }
        if readOnly { return .refused("the old folder's shapes are read only") }
        return ShapeFolder.outcome(toneshaper_plugin_rename_file(file(name), file(new)), "cannot be renamed in " + path)
    }

    static func outcome(_ result: Int32, _ failure: String) -> Outcome {
        switch Int(result) {
        case Int(TONESHAPER_PLUGIN_SAVED): return .done
        case Int(TONESHAPER_PLUGIN_SAVE_EXISTS): return .exists
        default: return .refused(failure)
        }
    }
}
