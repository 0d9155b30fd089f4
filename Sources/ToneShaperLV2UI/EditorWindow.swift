import CLV2UI
import ToneShaperLV2Layout
import ToneShaperModel

/// One editor window: an X11 window (a child of the host's `ui:parent`, or top level) drawn
/// with cairo, the curve editor on the left and the sound's controls on the right. The
/// host calls it from its UI thread only: port_event with the ports' values and the
/// plugin's messages, idle (`ui:idleInterface`) to read X events and send what changed.
///
/// What is a port (the range, the duration, the sound's controls) the window changes by
/// writing the port, so the host records automation and undo as for any knob; the points
/// go as patch:Set messages to the plugin (`UIAtoms`). What the host or the plugin says is
/// shown and never sent back, so there is no echo loop.
final class EditorWindow {
    let display: OpaquePointer
    let window: Window
    let surface: OpaquePointer
    /// Everything is drawn here, in the editor's memory, then copied to the window in one
    /// request: text and shapes never become X resources (glyphs, pictures) that could
    /// outlive the display connection when a window closes and another opens.
    var image: OpaquePointer
    let urids: UIURIDs
    let write: LV2UI_Write_Function
    let controller: LV2UI_Controller?
    let resize: UnsafePointer<LV2UI_Resize>?
    let stereo: Bool
    /// The scale of a HiDPI screen (ui:scaleFactor): every size is multiplied by it.
    let scale: Double
    var width: Int
    var height: Int

    var editor = CurveEditor()
    /// Every row's value as its port carries it, in the table's order.
    var values: [Double]
    let rows = ControlRow.rows()
    /// The port index of each row of the table (LV2PortLayout), -1 for none.
    let portOfRow: [Int]
    /// The playhead, 0..<1 of the cycle (nil until the plugin sends one).
    var playhead: Double?

    /// The curve changed here and goes to the plugin at the next idle.
    var pointsToSend = false
    var needsDraw = true
    /// The control being dragged.
    var draggedControl: Int?
    var pressX = 0
    var pressY = 0
    var lastPress: (time: UInt, x: Int, y: Int) = (0, -100, -100)
    /// Messages the plugin sent that the window refused (malformed, invalid points).
    var refused = 0
    let timing = toneshaper_ui_env_flag("TONESHAPER_UI_TIMING") != 0

    static let baseWidth = 900.0
    static let baseHeight = 420.0

    init?(
        parent: Window, write: @escaping LV2UI_Write_Function, controller: LV2UI_Controller?, map: UnsafePointer<LV2_URID_Map>,
        resize: UnsafePointer<LV2UI_Resize>?, scale: Double, stereo: Bool
    ) {
        guard let display = XOpenDisplay(nil) else {
            toneshaper_ui_stderr("cannot open the X display (is DISPLAY set?)")
            return nil
        }
        self.scale = scale.isFinite && scale >= 0.5 && scale <= 8 ? scale : 1
        width = Int(EditorWindow.baseWidth * self.scale)
        height = Int(EditorWindow.baseHeight * self.scale)
        let window = toneshaper_ui_create_window(display, parent, Int32(width), Int32(height))
        guard window != 0, let surface = cairo_xlib_surface_create(display, window, toneshaper_ui_visual(display), Int32(width), Int32(height))
        else {
            XCloseDisplay(display)
            return nil
        }
        self.display = display
        self.window = window
        self.surface = surface
        self.image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        self.urids = UIURIDs(map: map)
        self.write = write
        self.controller = controller
        self.resize = resize
        self.stereo = stereo
        values = ParameterTable.all.map { $0.portValue(in: ToneShape.defaultShape) }
        var ports = [Int](repeating: -1, count: ParameterTable.all.count)
        for (index, port) in LV2PortLayout.ports(stereo: stereo).enumerated() {
            if case .parameter(let row) = port { ports[row] = index }
        }
        portOfRow = ports
        editor.replace(with: ToneShape.defaultShape.points)
        if let resize { _ = resize.pointee.ui_resize(resize.pointee.handle, Int32(width), Int32(height)) }
        // Ask the plugin for its curve (the answer comes as a patch:Set on the notify port).
        var get = UIAtoms.get(urids)
        get.withUnsafeMutableBytes { write(controller, LV2PortLayout.control, UInt32($0.count), urids.atomEventTransfer, $0.baseAddress) }
    }

    deinit {
        cairo_surface_destroy(image)
        // Cairo lets go of what it holds for this display before the display closes.
        let device = cairo_surface_get_device(surface)
        cairo_surface_destroy(surface)
        if let device { cairo_device_finish(device) }
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    // MARK: - The host's calls

    /// A port's value or a message from the plugin (port_event).
    func portEvent(port: UInt32, size: UInt32, format: UInt32, buffer: UnsafeRawPointer?) {
        guard let buffer else { return }
        if format == 0 {
            guard size == 4, let row = portOfRow.firstIndex(of: Int(port)) else { return }
            let value = Double(buffer.loadUnaligned(as: Float.self))
            guard value.isFinite else {
                refused += 1
                return
            }
            // A new duration from the host: the plugin stretches its points with it and sends
            // them, so they are not stretched here.
            values[row] = value
            needsDraw = true
            return
        }
        guard format == urids.atomEventTransfer, port == LV2PortLayout.notify else { return }
        switch UIAtoms.read(urids, buffer, size: Int(size)) {
        case .points(let flat):
            // The curve as the plugin plays it, unless a gesture holds the curve now.
            guard !editor.isGesturing else { return }
            // Checked against the longest cycle, not the duration port's value: the host may
            // pass the port's new value after the plugin's points.
            guard let points = PluginPoints.points(flat: flat, duration: ToneShapeLimits.maximumDuration) else {
                refused += 1
                return
            }
            editor.replace(with: points)
            needsDraw = true
        case .playhead(let phase):
            playhead = min(max(phase, 0), 1)
            needsDraw = true
        case nil:
            refused += 1
        }
    }

    /// ui:idleInterface: reads the window's events, sends the curve if it changed, draws.
    func idle() {
        var event = toneshaper_ui_event()
        var handled = 0
        while handled < 1000, toneshaper_ui_next_event(display, &event) != 0 {
            handled += 1
            handle(event)
        }
        if pointsToSend {
            pointsToSend = false
            sendPoints()
        }
        if needsDraw { draw() }
    }

    /// ui:resize from the host: the window takes the size given.
    func setSize(_ w: Int, _ h: Int) {
        guard w > 0, h > 0, w < 20000, h < 20000 else { return }
        XResizeWindow(display, window, UInt32(w), UInt32(h))
        resized(w, h)
    }

    // MARK: - Values

    func value(_ id: ParameterID) -> Double { values[ParameterTable.all.firstIndex { $0.id == id }!] }

    /// The frequency axis: the range played (min to max of the two ports), above 1 Hz, and
    /// an octave either side of a range that is one frequency.
    var frequencyAxis: ClosedRange<Double> {
        var low = max(min(value(.minFrequency), value(.maxFrequency)), 1)
        var high = max(max(value(.minFrequency), value(.maxFrequency)), 1)
        if high <= low * 1.0001 {
            low /= 2
            high *= 2
        }
        return low...high
    }

    /// Points may be placed within the range played (the axis, short of its widening).
    var pointRange: ClosedRange<Double> {
        let low = min(value(.minFrequency), value(.maxFrequency))
        let high = max(value(.minFrequency), value(.maxFrequency))
        return high > low ? low...high : frequencyAxis
    }

    /// Writes a port through the host (write_function with format 0), so it records it.
    func writePort(row: Int, _ value: Double) {
        let port = portOfRow[row]
        guard port >= 0, value.isFinite else { return }
        let old = values[row]
        values[row] = value
        if ParameterTable.all[row].id == .duration { editor.rescale(from: old, to: value) }
        var float = Float(value)
        write(controller, UInt32(port), 4, 0, &float)
        needsDraw = true
    }

    func sendPoints() {
        let points = PluginPoints.reduced(editor.points)
        if points.count != editor.points.count { editor.replace(with: points) }
        var bytes = UIAtoms.setPoints(urids, points)
        bytes.withUnsafeMutableBytes {
            write(controller, LV2PortLayout.control, UInt32($0.count), urids.atomEventTransfer, $0.baseAddress)
        }
    }

    // MARK: - Events

    func resized(_ w: Int, _ h: Int) {
        guard w != width || h != height else { return }
        width = w
        height = h
        cairo_xlib_surface_set_size(surface, Int32(w), Int32(h))
        cairo_surface_destroy(image)
        image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h))
        needsDraw = true
    }

    func handle(_ event: toneshaper_ui_event) {
        switch Int(event.kind) {
        case Int(TONESHAPER_UI_EXPOSE): needsDraw = true
        case Int(TONESHAPER_UI_SIZE): resized(Int(event.width), Int(event.height))
        case Int(TONESHAPER_UI_PRESS): press(event)
        case Int(TONESHAPER_UI_MOTION): motion(event)
        case Int(TONESHAPER_UI_RELEASE): release(event)
        case Int(TONESHAPER_UI_KEY): key(event)
        default: break
        }
    }

    func press(_ event: toneshaper_ui_event) {
        let x = Int(event.x)
        let y = Int(event.y)
        let layout = Layout(self)
        if event.button == 4 || event.button == 5 {
            if let control = layout.control(atX: x, y: y) {
                let row = rows[control]
                writePort(row: row.row, row.stepped(values[row.row], by: event.button == 4 ? 1 : -1, duration: value(.duration)))
            }
            return
        }
        guard event.button == 1 else { return }
        toneshaper_ui_take_focus(display, window)
        pressX = x
        pressY = y
        if let button = layout.button(atX: x, y: y) {
            pressButton(button)
            return
        }
        if let control = layout.control(atX: x, y: y) {
            let row = rows[control]
            if case .flag = row.kind {
                writePort(row: row.row, values[row.row] > 0 ? 0 : 1)
            } else {
                draggedControl = control
                writePort(row: row.row, row.value(at: layout.barPosition(x), duration: value(.duration)))
            }
            return
        }
        guard layout.plot.contains(x, y) else { return }
        let doubleClick = UInt(event.time) &- lastPress.time < 400 && abs(lastPress.x - x) < 6 && abs(lastPress.y - y) < 6
        lastPress = (UInt(event.time), x, y)
        let (t, f) = snapped(layout, x, y)
        let radius = 7 * scale
        let hit = editor.hit(
            { p in
                let dx = layout.x(time: p.time) - Double(x)
                let dy = layout.y(frequency: p.frequency) - Double(y)
                return (dx * dx + dy * dy).squareRoot()
            }, radius: radius)
        editor.press(time: t, frequency: f, hit: hit, doubleClick: doubleClick)
        if doubleClick, hit != nil { pointsToSend = true }
        needsDraw = true
    }

    func snapped(_ layout: Layout, _ x: Int, _ y: Int) -> (Double, Double) {
        editor.snapped(
            time: layout.time(x: Double(x)), frequency: layout.frequency(y: Double(y)), duration: value(.duration), range: pointRange)
    }

    func motion(_ event: toneshaper_ui_event) {
        let x = Int(event.x)
        let y = Int(event.y)
        let layout = Layout(self)
        if let control = draggedControl {
            let row = rows[control]
            let new = row.value(at: layout.barPosition(x), duration: value(.duration))
            if new != values[row.row] { writePort(row: row.row, new) }
            return
        }
        guard editor.isGesturing else { return }
        let (t, f) = snapped(layout, x, y)
        let far = abs(x - pressX) > Int(3 * scale) || abs(y - pressY) > Int(3 * scale)
        if editor.drag(time: t, frequency: f, far: far) {
            pointsToSend = true
            needsDraw = true
        }
    }

    func release(_ event: toneshaper_ui_event) {
        guard event.button == 1 else { return }
        if draggedControl != nil {
            draggedControl = nil
            return
        }
        if editor.release() { pointsToSend = true }
        needsDraw = true
    }

    func key(_ event: toneshaper_ui_event) {
        let control = event.modifiers & Int32(TONESHAPER_UI_CONTROL) != 0
        let shift = event.modifiers & Int32(TONESHAPER_UI_SHIFT) != 0
        switch Int(event.keysym) {
        case Int(XK_z) where control && shift: if editor.redo() { pointsToSend = true }
        case Int(XK_z) where control: if editor.undo() { pointsToSend = true }
        case Int(XK_y) where control: if editor.redo() { pointsToSend = true }
        case Int(XK_Delete), Int(XK_BackSpace): if editor.deleteSelected() { pointsToSend = true }
        default: return
        }
        needsDraw = true
    }

    func pressButton(_ button: Layout.Button) {
        switch button {
        case .snapTime: editor.snapTime.toggle()
        case .snapSemitones: editor.snapSemitones.toggle()
        case .undo: if editor.undo() { pointsToSend = true }
        case .redo: if editor.redo() { pointsToSend = true }
        }
        needsDraw = true
    }

    // MARK: - Drawing

    func draw() {
        needsDraw = false
        let start = timing ? toneshaper_ui_seconds() : 0
        let cr = cairo_create(image)!
        Painter(self, cr).paint()
        cairo_destroy(cr)
        cairo_surface_flush(image)
        let window = cairo_create(surface)!
        cairo_set_source_surface(window, image, 0, 0)
        cairo_set_operator(window, CAIRO_OPERATOR_SOURCE)
        cairo_paint(window)
        cairo_destroy(window)
        cairo_surface_flush(surface)
        XFlush(display)
        if timing {
            let ms = (toneshaper_ui_seconds() - start) * 1000
            toneshaper_ui_stderr(
                "redraw of " + String(editor.points.count) + " points at " + String(width) + "x" + String(height) + ": "
                    + UIText.number(ms, decimals: 3, unit: "ms"))
        }
    }
}
