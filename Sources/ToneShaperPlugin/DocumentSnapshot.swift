import CPluginSupport

/// A copy of the document a plugin plays, written on request to a file that its editor
/// window reopens later: what makes opening a shape in an LV2 window one undo step. An LV2
/// UI has no call that gives it the plugin's document; so, before it opens a shape, the
/// window names a snapshot (a patch:Set of `urn:toneshaper:snapshot`), the plugin's worker
/// writes its document there (what its state would save), and an undo reopens that file
/// as a host's file chooser opens one. The control port's messages reach the worker in
/// order, so the snapshot is the document from before the open.
///
/// A message names a snapshot, never a path: 1 to ``maximumName`` letters, digits and
/// dashes, in ``folder`` alone, so nothing a host sends can make the plugin write
/// anywhere else. Off the audio thread only (the worker, the window).
public enum DocumentSnapshot {
    /// The longest name, in bytes (without its NUL).
    public static var maximumName: Int { 64 }

    /// Whether `name` can name a snapshot: 1 to ``maximumName`` of A-Z, a-z, 0-9 and '-'.
    public static func isName(_ name: some Collection<UInt8>) -> Bool {
        !name.isEmpty && name.count <= maximumName
            && name.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
            }
    }

    /// The snapshots' folder (`$XDG_RUNTIME_DIR/toneshaper`, else `/tmp/toneshaper-<uid>`;
    /// made when the first is written); nil when its path does not fit.
    public static var folder: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard toneshaper_plugin_snapshot_folder(&buffer, buffer.count) != 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The file of snapshot `name`; nil when `name` is not one (``isName(_:)``).
    public static func file(_ name: String) -> String? {
        guard isName(name.utf8), let folder else { return nil }
        return folder + "/" + name + ".toneshaper"
    }

    /// On the work thread: the document `engine` plays written as snapshot `name` (its bytes
    /// with a NUL after them, as a message carries them), replacing an older one of that name.
    /// False, logged, with nothing written, when the name is not one or the file cannot be written.
    public static func write<Host: PluginHost>(_ name: UnsafeRawBufferPointer, of engine: PluginEngine<Host>) -> Bool {
        guard name.count >= 2, name.last == 0, isName(name.dropLast()) else {
            engine.host.log(.error, "a snapshot's name must be 1 to 64 letters, digits or dashes; nothing was written")
            return false
        }
        let text = String(decoding: name.dropLast(), as: UTF8.self)
        guard let folder, let file = file(text) else {
            engine.host.log(.error, "no folder for the window's snapshots; nothing was written")
            return false
        }
        let document = Array(engine.documentForSaving())
        let result = document.withUnsafeBufferPointer { toneshaper_plugin_replace_file(folder, file, $0.baseAddress, $0.count) }
        guard result == Int32(TONESHAPER_PLUGIN_SAVED) else {
            engine.host.log(.error, "the snapshot " + file + " could not be written; opening a shape from the window is no undo step")
            return false
        }
        return true
    }

    /// Removes snapshot `name`'s file (the window that asked for it closes).
    public static func remove(_ name: String) {
        guard let file = file(name) else { return }
        toneshaper_plugin_remove_file(file)
    }
}
