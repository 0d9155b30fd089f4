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
    /// the host's next save of the plugin's state holds. The control ports are the host's:
    /// the plugin would take their old values back at its next block, so the document's
    /// values are written to them too (the host records them as it does any knob's).
    func openDocumentFile(_ path: String) -> Bool {
        guard let bytes = try? DocumentFile.read(path), let shape = try? ToneShapeDocument.decode(bytes, source: path) else { return false }
        setPath(urids.file, path)
        writePorts(of: shape)
        return true
    }

    /// Each control port set to the value `shape` gives it.
    func writePorts(of shape: ToneShape) {
        for row in portOfRow.indices where portOfRow[row] >= 0 {
            setParameter(row: row, value: ParameterTable.all[row].portValue(in: shape))
        }
    }
}
