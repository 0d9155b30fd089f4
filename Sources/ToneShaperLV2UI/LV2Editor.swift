import CEditor
import CLV2UI
import ToneShaperEditor
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperParameters

/// The editor window's link to the LV2 plugin: a parameter is its control port, written
/// through the host (write_function with format 0) so the host records automation and undo
/// as for any knob; the points go as patch:Set messages and the curve is asked for with a
/// patch:Get, on the control port (``UIAtoms``). LV2 ports carry no gestures: a gesture's
/// begin and end write nothing.
final class LV2Link: EditorLink {
    let urids: LV2URIDs
    let write: LV2UI_Write_Function
    let controller: LV2UI_Controller?
    let resize: UnsafePointer<LV2UI_Resize>?
    /// The port index of each row of the table (LV2PortLayout), -1 for none.
    let portOfRow: [Int]
    /// The UI's bundle (the plugin's): its `shapes` folder holds the built-in shapes.
    var bundle: String?
    /// The snapshots of the document this window asked for (``keepDocument()``).
    var snapshots: [String] = []
    /// A document the window opened, whose values go to the ports once the plugin says it
    /// loaded it (``documentLoaded(_:)``).
    var portsDue: (path: String, shape: ToneShape)?

    init(
        write: @escaping LV2UI_Write_Function, controller: LV2UI_Controller?, urids: LV2URIDs, resize: UnsafePointer<LV2UI_Resize>?,
        stereo: Bool
    ) {
        self.write = write
        self.controller = controller
        self.urids = urids
        self.resize = resize
        var ports = [Int](repeating: -1, count: ParameterTable.all.count)
        for (index, row) in LV2PortLayout.rows(stereo: stereo).enumerated() {
            if let row { ports[row] = index }
        }
        portOfRow = ports
    }

    func beginGesture(row: Int) {}
    func endGesture(row: Int) {}

    func setParameter(row: Int, value: Double) {
        guard portOfRow.indices.contains(row), portOfRow[row] >= 0 else { return }
        var float = Float(value)
        write(controller, UInt32(portOfRow[row]), 4, 0, &float)
    }

    func sendPoints(_ points: [CurvePoint], curvatures: [Double]) {
        var bytes = UIAtoms.setPoints(urids, points, curvatures: curvatures)
        bytes.withUnsafeMutableBytes {
            write(controller, LV2PortLayout.control, UInt32($0.count), urids.atomEventTransfer, $0.baseAddress)
        }
    }

    /// A patch:Get: the answer comes as a patch:Set on the notify port.
    func requestPoints() {
        var get = UIAtoms.get(urids)
        get.withUnsafeMutableBytes { write(controller, LV2PortLayout.control, UInt32($0.count), urids.atomEventTransfer, $0.baseAddress) }
    }

    /// ui:resize, when the host offers it: 0 is its yes (suil then resizes the window's parent
    /// widget, and jalv's window grows to hold it).
    func requestSize(width: Int, height: Int) -> Bool {
        guard let resize else { return false }
        return resize.pointee.ui_resize(resize.pointee.handle, Int32(width), Int32(height)) == 0
    }
}

/// What the host's UI handle points to: the window and its link.
final class LV2Editor {
    let window: EditorWindow
    let link: LV2Link

    init(window: EditorWindow, link: LV2Link) {
        self.window = window
        self.link = link
    }

    /// A port's value or a message from the plugin (port_event).
    func portEvent(port: UInt32, size: UInt32, format: UInt32, buffer: UnsafeRawPointer?) {
        guard let buffer else { return }
        if format == 0 {
            guard size == 4, let row = link.portOfRow.firstIndex(of: Int(port)) else { return }
            window.parameterChanged(row: row, value: Double(buffer.loadUnaligned(as: Float.self)))
            return
        }
        guard format == link.urids.atomEventTransfer, port == LV2PortLayout.notify else { return }
        switch UIAtoms.read(link.urids, buffer, size: Int(size)) {
        case .points(let flat): window.pointsChanged(flat)
        case .playhead(let phase): window.playheadMoved(phase)
        case .tuning(let summary): window.tuningChanged(summary)
        case .file(let path): link.documentLoaded(path)
        case nil: window.refused += 1
        }
    }
}
