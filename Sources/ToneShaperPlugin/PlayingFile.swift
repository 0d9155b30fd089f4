/// The document file a plugin plays, for a host that is told which (LV2's patch:Set of the
/// file on the notify port): the path the work thread loaded, copied on the audio thread
/// from its answer, and whether it is still to be told. The memory is allocated with the
/// instance, so the audio thread's calls allocate nothing.
public struct PlayingFile {
    /// The longest path taken, with its NUL.
    public static var maximumPath: Int { 4096 }
    /// The path (NUL-terminated, ``maximumPath`` bytes of room).
    public let path: UnsafeMutableRawPointer
    /// The path's length with its NUL (0: no file plays).
    public private(set) var length = 0
    /// The path is still to be told (a new file, or the host asked).
    public private(set) var due = false

    public init() { path = .allocate(byteCount: PlayingFile.maximumPath, alignment: 8) }

    public func free() { path.deallocate() }

    /// Whether `bytes` are a path to take: not empty, NUL-terminated, at most ``maximumPath``.
    public static func isPath(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes.count <= maximumPath && bytes[bytes.count - 1] == 0 && bytes[0] != 0
    }

    /// On the audio thread: the work thread loaded the file at `bytes` (its path, with the NUL).
    public mutating func accepted(_ bytes: UnsafeRawBufferPointer) {
        guard PlayingFile.isPath(bytes), let source = bytes.baseAddress else { return }
        path.copyMemory(from: source, byteCount: bytes.count)
        length = bytes.count
        due = true
    }

    /// The host asked which file plays: told at the next chance, if one plays.
    public mutating func requestAnnouncement() { due = length > 0 }

    /// The path handed to `write` when it is to be told; told when `write` took it (else at
    /// the next call).
    public mutating func announce(_ write: (UnsafeRawPointer, Int) -> Bool) {
        guard due, length > 0, write(path, length) else { return }
        due = false
    }

    /// On the work thread: the document file at `path` (NUL-terminated) read whole and handed
    /// to `engine`; false (logged, the sound unchanged) when it cannot be read or is refused.
    public static func load<Host: PluginHost>(_ path: UnsafeRawBufferPointer, into engine: PluginEngine<Host>, answer: some PluginAnswer) -> Bool {
        guard let base = path.baseAddress, path.count >= 2, path.last == 0 else {
            engine.host.log(.error, "a document path reached the worker without its NUL; ignored")
            return false
        }
        let bytes: [UInt8]
        do throws(DocumentFile.Refusal) {
            bytes = try DocumentFile.read(base.assumingMemoryBound(to: CChar.self))
        } catch {
            engine.host.log(.error, "the document file " + error.reason + "; the sound is unchanged")
            return false
        }
        return bytes.withUnsafeBytes { engine.load(document: $0, answer: answer) }
    }
}
