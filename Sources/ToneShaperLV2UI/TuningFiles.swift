import CPluginSupport
import ToneShaperEditor
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

extension UIAtoms {
    /// patch:Set of the file parameter `property` to an atom:Path: what a host's file
    /// chooser sends (`patch:writable`), sent by the window's list of tunings.
    static func setPath(_ u: LV2URIDs, _ property: UInt32, _ path: String) -> [UInt8] {
        let text = Array(path.utf8) + [0]
        let padded = (text.count + 7) & ~7
        let objectSize = 8 + 24 + 16 + padded
        var bytes = [UInt8](repeating: 0, count: 8 + objectSize)
        bytes.withUnsafeMutableBytes { raw in
            let b = raw.baseAddress!
            b.storeBytes(of: UInt32(objectSize), as: UInt32.self)
            b.storeBytes(of: u.atomObject, toByteOffset: 4, as: UInt32.self)
            b.storeBytes(of: u.patchSet, toByteOffset: 12, as: UInt32.self)
            b.storeBytes(of: u.patchProperty, toByteOffset: 16, as: UInt32.self)
            b.storeBytes(of: UInt32(4), toByteOffset: 24, as: UInt32.self)
            b.storeBytes(of: u.atomURID, toByteOffset: 28, as: UInt32.self)
            b.storeBytes(of: property, toByteOffset: 32, as: UInt32.self)
            b.storeBytes(of: u.patchValue, toByteOffset: 40, as: UInt32.self)
            b.storeBytes(of: UInt32(text.count), toByteOffset: 48, as: UInt32.self)
            b.storeBytes(of: u.atomPath, toByteOffset: 52, as: UInt32.self)
            for (i, byte) in text.enumerated() { b.storeBytes(of: byte, toByteOffset: 56 + i, as: UInt8.self) }
        }
        return bytes
    }
}

extension LV2Link {
    /// A tuning file chosen in the window's list goes to the plugin as a host's file
    /// chooser's would: a patch:Set of the scale or keyboard map file parameter.
    func loadTuningFile(path: String, keyboardMap: Bool) {
        setPath(keyboardMap ? urids.keyboardMapFile : urids.scaleFile, path)
    }

    func setPath(_ property: UInt32, _ path: String) {
        var set = UIAtoms.setPath(urids, property, path)
        set.withUnsafeMutableBytes { write(controller, LV2PortLayout.control, UInt32($0.count), urids.atomEventTransfer, $0.baseAddress) }
    }

    /// The built-in shapes in the bundle's `shapes` folder (the plugin's programs), by name.
    func builtInShapes() -> [BuiltInShape] {
        guard let bundle else { return [] }
        let folder = ShapeFolder(path: bundle + (bundle.utf8.last == UInt8(ascii: "/") ? "" : "/") + "shapes", readOnly: true)
        return folder.names().map { name in
            BuiltInShape(name: name, document: (try? DocumentFile.read(folder.file(name))) ?? [], file: folder.file(name))
        }
    }

    /// A shape opened in the window goes as a host's file chooser's document would: a
    /// patch:Set of the plugin's file parameter, which plays the document whole and which
    /// the host's next save of the plugin's state holds. The control ports are the host's
    /// (the plugin would take their old values back when one moved, and the host's project
    /// would save them), so the document's values are written to them too, as a knob's are,
    /// once the plugin says it loaded the file: written at once, they reached the plugin in
    /// the block before its worker loaded the file, and moved the document it had been
    /// playing, which an undo's snapshot then held.
    func openDocumentFile(_ path: String) -> Bool {
        guard let bytes = try? DocumentFile.read(path), let shape = try? ToneShapeDocument.decode(bytes, source: path) else { return false }
        setPath(urids.file, path)
        portsDue = (path, shape)
        return true
    }

    /// The plugin loaded the file `path` (its notify port's patch:Set of the file parameter):
    /// if the window opened it, the ports take its values now.
    func documentLoaded(_ path: String) {
        guard let due = portsDue, due.path == path else { return }
        portsDue = nil
        writePorts(of: due.shape)
    }

    /// Before an open (and an undo or redo of one): the plugin is asked to write the document
    /// it plays as a snapshot of this window's (a patch:Set of `urn:toneshaper:snapshot` naming
    /// it; its worker takes the control port's messages in order, so it writes it before it
    /// loads what comes next), and the window's undo reopens that file.
    func keepDocument() -> KeptDocument? {
        let name =
            "ui" + String(toneshaper_plugin_process_id()) + "-" + String(UInt(bitPattern: ObjectIdentifier(self).hashValue)) + "-"
            + String(snapshots.count)
        guard let file = DocumentSnapshot.file(name) else { return nil }
        setPath(urids.snapshot, name)
        snapshots.append(name)
        return .file(file)
    }

    /// A kept document: its file opened as a shape is (its values to the host's ports too).
    func reopen(_ kept: KeptDocument) -> Bool {
        guard case .file(let path) = kept else { return false }
        return openDocumentFile(path)
    }

    /// The window closes: the snapshots it asked for are removed.
    func removeSnapshots() {
        for name in snapshots { DocumentSnapshot.remove(name) }
        snapshots = []
    }

    /// Each control port set to the value `shape` gives it.
    func writePorts(of shape: ToneShape) {
        for row in portOfRow.indices where portOfRow[row] >= 0 {
            setParameter(row: row, value: ParameterTable.all[row].portValue(in: shape))
        }
    }
}
