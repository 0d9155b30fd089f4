import CPluginSupport

/// The built-in documents a plugin finds in a folder of its bundle (the node's Sessions,
/// copied there by the build), which MIDI program changes pick by name order, as the node
/// lists them: the folder's path, made once when the instance is (off the audio thread).
public struct BuiltInFolder {
    /// The folder, NUL-terminated.
    public let path: UnsafeMutablePointer<CChar>

    /// The folder `name` inside the bundle at `bundle` (nil: `name` alone, relative).
    public init(bundle: UnsafePointer<CChar>?, name: String) {
        var path = Array(name.utf8)
        if let bundle {
            let prefix = UnsafeBufferPointer(start: bundle, count: Int(strlen(bundle))).map { UInt8(bitPattern: $0) }
            path = prefix + (prefix.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + path
        }
        self.path = .allocate(capacity: path.count + 1)
        for (i, byte) in path.enumerated() { self.path[i] = CChar(bitPattern: byte) }
        self.path[path.count] = 0
    }

    public func free() { path.deallocate() }

    /// Document `index` in name order; nil when there is none, refused when it cannot be read.
    public func document(_ index: Int) throws(DocumentFile.Refusal) -> [UInt8]? {
        let capacity = 4096
        let file = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { file.deallocate() }
        guard index >= 0, index < Int(Int32.max), toneshaper_plugin_nth_document(path, Int32(index), file, capacity) != 0 else { return nil }
        return try DocumentFile.read(file)
    }
}
