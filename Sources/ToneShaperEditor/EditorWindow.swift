import CEditor
import ToneShaperModel
import ToneShaperParameters

/// One editor window: an X11 window (a child of the host's window, or top level) drawn with
/// cairo, the curve editor on the left and the sound's controls on the right. Its plugin's
/// shell calls it from the host's UI thread only: the parameters' values and the curve as
/// the plugin plays them, and idle (the LV2 host's idle call, the CLAP host's timer) to read
/// X events and send what changed. It opens a display connection of its own, so it never
/// shares the host's.
///
/// The parameters (the range, the duration, the sound's controls) the window changes through
/// its ``EditorLink``, so the host records automation and undo as for any knob; the points
/// go to the plugin through it too. What the shell says is shown and never sent back, so
/// there is no echo loop.
public final class EditorWindow {
    let display: OpaquePointer
    /// The X window's id (the LV2 host's widget).
    public let window: UInt
    let surface: OpaquePointer
    /// Everything is drawn here, in the editor's memory, then copied to the window in one
    /// request: text and shapes never become X resources (glyphs, pictures) that could
    /// outlive the display connection when a window closes and another opens.
    var image: OpaquePointer
    let link: any EditorLink
    /// The scale of a HiDPI screen (the host's scale factor).
    public let hostScale: Double
    /// The window's own zoom (its toolbar's control: 100, 125, 150, 200 %), beside the host's.
    public internal(set) var zoom = 1.0
    /// Every size is multiplied by this: the host's scale factor times the window's zoom.
    public var scale: Double { hostScale * zoom }
    static let zooms = [1.0, 1.25, 1.5, 2]
    public private(set) var width: Int
    public private(set) var height: Int

    var editor = CurveEditor()
    /// Every row's value as the plugin's parameter carries it, in the table's order.
    var values: [Double]
    let rows = ControlRow.rows()
    /// The playhead, 0..<1 of the cycle (nil until the plugin sends one).
    var playhead: Double?
    /// The tuning shown and the files to load (TuningPanel.swift).
    var tuningPanel = TuningPanel()
    /// The shape library: the shapes to open, Save as, Rename (ShapePanel.swift).
    var shapePanel = ShapePanel()
    /// The playhead moved since the last drawing; where the window shows it (pixels).
    var playheadMoved = false
    var shownPlayheadX: Double?
    /// With TONESHAPER_UI_TIMING: the playhead's drawings and their time, told every 500.
    var playheadTiming = (count: 0, seconds: 0.0)

    /// The curve changed here and goes to the plugin at the next idle.
    var pointsToSend = false
    var needsDraw = true
    /// The visible part of the plot: fractions of the cycle across, of the frequency axis's
    /// logarithm up (Ctrl and Shift with the wheel zoom them, the middle button pans).
    var viewTime: ClosedRange<Double> = 0...1
    var viewPitch: ClosedRange<Double> = 0...1
    /// A middle-button drag: where it started and the view then.
    var panning: (x: Int, y: Int, time: ClosedRange<Double>, pitch: ClosedRange<Double>)?
    /// A stretch by the selection box's edge: across or up, the box's centre and the
    /// pointer's distance from it at the press (pixels).
    var stretching: (horizontal: Bool, centre: Double, reach: Double)?
    /// The pointer while a button is held (the rubber band's corner).
    var pointer: (x: Double, y: Double)?
    /// The exact entry open on a point.
    var entry: PointEntry?
    /// The text the window offers as the CLIPBOARD while it owns it.
    var clipboard = ""
    /// A word in the toolbar (a paste refused, a copy made).
    var status = ""
    /// The active tuning's degrees, for the pitch grid and its snap: semitones above `root`
    /// Hz within one `period` of semitones (nil: equal-tempered semitones). The tuning
    /// panel sets it.
    public var tuningGrid: (root: Double, degrees: [Double], period: Double)? {
        didSet { needsDraw = true }
    }
    /// The control being dragged.
    var draggedControl: Int?
    var pressX = 0
    var pressY = 0
    var lastPress: (time: UInt, x: Int, y: Int) = (0, -100, -100)
    /// Messages the plugin sent that the window refused (malformed, invalid points).
    public var refused = 0
    let timing = toneshaper_ui_env_flag("TONESHAPER_UI_TIMING") != 0
    /// Each value taken from the plugin is printed (the tests read what the window shows).
    let trace = toneshaper_ui_env_flag("TONESHAPER_UI_TRACE") != 0

    public static let baseWidth = 900.0
    public static let baseHeight = 420.0
    /// The smallest size the layout still fits in, at scale 1.
    public static let minimumWidth = 480.0
    public static let minimumHeight = 240.0
    /// The largest size taken (X11's limit is far above any screen).
    public static let maximumSide = 16_384

    /// The scale a host gave, when it is one the window can draw at (else 1).
    public static func usableScale(_ scale: Double) -> Double { scale.isFinite && scale >= 0.5 && scale <= 8 ? scale : 1 }

    /// A window of `parent` (0: top level) at `scale`, `width` x `height` pixels (nil: the
    /// base size at the scale), mapped at once unless `mapped` is false (then by ``show()``).
    /// Nil when there is no X display or the window cannot be made.
    public init?(parent: UInt, scale: Double, width: Int? = nil, height: Int? = nil, mapped: Bool = true, link: any EditorLink) {
        guard let display = XOpenDisplay(nil) else {
            toneshaper_ui_stderr("cannot open the X display (is DISPLAY set?)")
            return nil
        }
        XErrorGuard.guardConnection(display)
        self.hostScale = EditorWindow.usableScale(scale)
        self.width = min(max(width ?? Int(EditorWindow.baseWidth * self.hostScale), 1), EditorWindow.maximumSide)
        self.height = min(max(height ?? Int(EditorWindow.baseHeight * self.hostScale), 1), EditorWindow.maximumSide)
        let window = toneshaper_ui_create_window(display, Window(parent), Int32(self.width), Int32(self.height), mapped ? 1 : 0)
        guard window != 0,
            let surface = cairo_xlib_surface_create(display, window, toneshaper_ui_visual(display), Int32(self.width), Int32(self.height))
        else {
            XErrorGuard.release(display)
            XCloseDisplay(display)
            return nil
        }
        self.display = display
        self.window = UInt(window)
        self.surface = surface
        self.image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(self.width), Int32(self.height))
        self.link = link
        values = ParameterTable.all.map { $0.portValue(in: ToneShape.defaultShape) }
        editor.replace(with: ToneShape.defaultShape.points)
        // The curve the plugin plays comes back through pointsChanged.
        link.requestPoints()
    }

    deinit {
        cairo_surface_destroy(image)
        // Cairo lets go of what it holds for this display before the display closes.
        let device = cairo_surface_get_device(surface)
        cairo_surface_destroy(surface)
        if let device { cairo_device_finish(device) }
        XDestroyWindow(display, Window(window))
        XErrorGuard.release(display)
        XCloseDisplay(display)
    }

    // MARK: - The shell's calls

    /// A parameter's value as the plugin has it (the host moved it, automation, a state or a
    /// preset loaded): row `row` of the table. Refused when not finite or not a row.
    public func parameterChanged(row: Int, value: Double) {
        guard values.indices.contains(row), value.isFinite else {
            refused += 1
            return
        }
        // A new duration from the host: the plugin stretches its points with it and sends
        // them, so they are not stretched here.
        guard values[row] != value else { return }
        values[row] = value
        if trace { toneshaper_ui_stderr("shows " + ParameterTable.all[row].flag + " " + UIText.number(value, decimals: 4, unit: "")) }
        needsDraw = true
    }

    /// The curve as the plugin plays it (t0, f0, t1, f1, ...), unless a gesture holds the
    /// curve now; refused when the numbers are not a curve.
    public func pointsChanged(_ flat: UnsafeBufferPointer<Double>) {
        guard !editor.isGesturing else { return }
        // Checked against the longest cycle, not the duration's value: the host may pass the
        // duration's new value after the plugin's points.
        guard let curve = PluginPoints.curve(flat: flat, duration: ToneShapeLimits.maximumDuration) else {
            refused += 1
            return
        }
        editor.replace(with: curve.points, curvatures: curve.curvatures)
        entry = nil
        if trace {
            let curved = curve.curvatures.filter { $0 != 0 }.count
            toneshaper_ui_stderr(
                "shows " + String(curve.points.count) + " points" + (curved > 0 ? ", " + String(curved) + " curved segments" : ""))
        }
        needsDraw = true
    }

    /// Where the cycle is now, 0..<1 (a phase that is not a number is refused).
    public func playheadMoved(_ phase: Double) {
        guard phase.isFinite else {
            refused += 1
            return
        }
        let clamped = min(max(phase, 0), 1)
        guard clamped != playhead else { return }
        playhead = clamped
        playheadMoved = true
    }

    /// Maps the window (a host that shows it after embedding it).
    public func show() {
        toneshaper_ui_show(display, Window(window), 1)
        needsDraw = true
    }

    /// Unmaps the window; it keeps its state and is drawn again when shown. A control held
    /// is let go.
    public func hide() {
        letGo()
        toneshaper_ui_show(display, Window(window), 0)
    }

    /// The host takes the window away in the middle of a control's gesture (hidden,
    /// destroyed): the gesture ends, so the host is not left with one open.
    public func letGo() {
        guard let control = draggedControl else { return }
        draggedControl = nil
        link.endGesture(row: rows[control].row)
    }

    /// Reads the window's events, sends the curve if it changed, draws (the LV2 host's idle
    /// call, the CLAP host's timer).
    public func idle() {
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
        if shapePanel.pendingSave != nil {
            finishPendingSave()
            if shapePanel.pendingSave == nil { needsDraw = true }
        }
        if needsDraw {
            draw()
        } else if playheadMoved {
            drawPlayhead()
        }
    }

    /// The file descriptor of the window's own display connection: readable when X events
    /// wait (a host that watches it calls ``idle()`` then, sooner than its timer would).
    public var connection: Int32 { toneshaper_ui_connection(display) }

    /// The host gives the window a new size; false (nothing changes) when it is 0 or
    /// beyond ``maximumSide``.
    @discardableResult
    public func setSize(_ w: Int, _ h: Int) -> Bool {
        guard w > 0, h > 0, w <= EditorWindow.maximumSide, h <= EditorWindow.maximumSide else { return false }
        XResizeWindow(display, Window(window), UInt32(w), UInt32(h))
        resized(w, h)
        return true
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

    /// Sets a parameter through the plugin's shell, so the host records it (within a
    /// gesture the caller begins and ends).
    func writePort(row: Int, _ value: Double) {
        guard value.isFinite else { return }
        let old = values[row]
        values[row] = value
        if ParameterTable.all[row].id == .duration { editor.rescale(from: old, to: value) }
        link.setParameter(row: row, value: value)
        needsDraw = true
    }

    /// One value set as a whole gesture (a click on a switch, a wheel step).
    func writeGesture(row: Int, _ value: Double) {
        link.beginGesture(row: row)
        writePort(row: row, value)
        link.endGesture(row: row)
    }

    func sendPoints() {
        let points = PluginPoints.reduced(editor.points)
        if points.count != editor.points.count { editor.replace(with: points) }
        link.sendPoints(editor.points, curvatures: editor.curve.documentCurvatures)
        if trace {
            let curved = editor.curve.curvatures.filter { $0 != 0 }.count
            toneshaper_ui_stderr("sends " + String(editor.points.count) + " points, " + String(curved) + " curved segments")
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
        case Int(TONESHAPER_UI_SELECTION_REQUEST):
            var request = event
            clipboard.withCString { toneshaper_ui_answer_selection(display, &request, $0) }
        case Int(TONESHAPER_UI_PASTE): paste()
        default: break
        }
    }

    func press(_ event: toneshaper_ui_event) {
        let x = Int(event.x)
        let y = Int(event.y)
        let layout = Layout(self)
        let shift = event.modifiers & Int32(TONESHAPER_UI_SHIFT) != 0
        let control = event.modifiers & Int32(TONESHAPER_UI_CONTROL) != 0
        let alt = event.modifiers & Int32(TONESHAPER_UI_ALT) != 0
        if entry != nil, event.button == 1, !(entryBox(layout)?.contains(x, y) ?? false) {
            entry = nil
            needsDraw = true
        }
        if event.button == 4 || event.button == 5 {
            if shapePanel.open, layout.plot.contains(x, y) {
                let rows = (shapePanel.shapes.count + Layout.shapeColumns - 1) / Layout.shapeColumns
                shapePanel.firstRow = max(min(shapePanel.firstRow + (event.button == 4 ? -1 : 1), rows - Layout.shapeRows), 0)
                needsDraw = true
                return
            }
            if layout.plot.contains(x, y), control || shift {
                zoom(across: control, closer: event.button == 4, atX: x, y: y, layout)
                return
            }
            if let control = layout.control(atX: x, y: y) {
                let row = rows[control]
                writeGesture(row: row.row, row.stepped(values[row.row], by: event.button == 4 ? 1 : -1, duration: value(.duration)))
            }
            return
        }
        if event.button == 2, layout.plot.contains(x, y) {
            panning = (x, y, viewTime, viewPitch)
            return
        }
        guard event.button == 1 else { return }
        toneshaper_ui_take_focus(display, Window(window))
        if pressShapes(layout, x, y) || pressTuning(layout, x, y) { return }
        pressX = x
        pressY = y
        pointer = (Double(x), Double(y))
        if let button = layout.button(atX: x, y: y) {
            pressButton(button)
            return
        }
        if let control = layout.control(atX: x, y: y) {
            let row = rows[control]
            if case .flag = row.kind {
                writeGesture(row: row.row, values[row.row] > 0 ? 0 : 1)
            } else {
                draggedControl = control
                link.beginGesture(row: row.row)
                writePort(row: row.row, row.value(at: layout.barPosition(x), duration: value(.duration)))
            }
            return
        }
        guard layout.plot.contains(x, y) else { return }
        let doubleClick = UInt(event.time) &- lastPress.time < 400 && abs(lastPress.x - x) < 6 && abs(lastPress.y - y) < 6
        lastPress = (UInt(event.time), x, y)
        let (t, f) = snapped(layout, x, y)
        let radius = 7 * scale
        let distance = { (p: CurvePoint) -> Double in
            let dx = layout.x(time: p.time) - Double(x)
            let dy = layout.y(frequency: p.frequency) - Double(y)
            return (dx * dx + dy * dy).squareRoot()
        }
        let hit = editor.hit(distance, radius: radius)
        needsDraw = true
        if doubleClick, let hit {
            openEntry(hit)
            return
        }
        if hit == nil, !shift, let edge = stretchEdge(layout, x, y) {
            stretching = edge
            editor.pressStretch()
            return
        }
        if hit == nil, !shift, editor.points.count <= 400, let segment = editor.hitHandle(distance, radius: radius) {
            editor.pressHandle(segment: segment, y: Double(y), reset: alt)
            if alt, editor.release() { pointsToSend = true }
            return
        }
        editor.press(time: t, frequency: f, hit: hit, shift: shift)
    }

    func snapped(_ layout: Layout, _ x: Int, _ y: Int) -> (Double, Double) {
        editor.snapped(
            time: layout.time(x: Double(x)), frequency: layout.frequency(y: Double(y)), duration: value(.duration), range: pointRange,
            timeStep: timeGrid(layout).step, pitchLines: tuningGrid == nil ? nil : pitchLines(layout))
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
        if let pan = panning {
            viewTime = EditorWindow.panned(pan.time, by: -Double(x - pan.x) / layout.plot.w * (pan.time.upperBound - pan.time.lowerBound))
            viewPitch = EditorWindow.panned(pan.pitch, by: Double(y - pan.y) / layout.plot.h * (pan.pitch.upperBound - pan.pitch.lowerBound))
            needsDraw = true
            return
        }
        guard editor.isGesturing else { return }
        pointer = (Double(x), Double(y))
        if let stretch = stretching {
            let position = Double(stretch.horizontal ? x : y)
            let factor = (position - stretch.centre) / stretch.reach
            editor.stretch(
                timeFactor: stretch.horizontal ? factor : 1, pitchFactor: stretch.horizontal ? 1 : factor, duration: value(.duration),
                range: pointRange)
            pointsToSend = true
            needsDraw = true
            return
        }
        let (t, f) = snapped(layout, x, y)
        let far = abs(x - pressX) > Int(3 * scale) || abs(y - pressY) > Int(3 * scale)
        let banding = editor.band != nil
        if editor.drag(time: t, frequency: f, y: Double(y), far: far, scale: scale, duration: value(.duration), range: pointRange) {
            if !banding { pointsToSend = true }
            needsDraw = true
        }
    }

    func release(_ event: toneshaper_ui_event) {
        if event.button == 2 { panning = nil }
        guard event.button == 1 else { return }
        pointer = nil
        stretching = nil
        if let control = draggedControl {
            draggedControl = nil
            link.endGesture(row: rows[control].row)
            return
        }
        if editor.release() { pointsToSend = true }
        needsDraw = true
    }

    /// A key: the editor's own (undo, redo, select all, copy, cut, paste, delete, flips,
    /// Enter to type a point, Escape, Ctrl+0 to see the whole curve); any other goes on to
    /// the host's window (``toneshaper_ui_forward_key``), so its shortcuts work while the
    /// window has the focus.
    func key(_ event: toneshaper_ui_event) {
        if entry != nil {
            entryKey(event)
            needsDraw = true
            return
        }
        if shapesKey(event) {
            needsDraw = true
            return
        }
        let control = event.modifiers & Int32(TONESHAPER_UI_CONTROL) != 0
        let shift = event.modifiers & Int32(TONESHAPER_UI_SHIFT) != 0
        let chosen = !editor.selection.isEmpty
        let duration = value(.duration)
        let range = pointRange
        var changed = false
        switch Int(event.keysym) {
        case Int(XK_z) where control && shift: changed = editor.redo(reopen: reopen)
        case Int(XK_z) where control: changed = editor.undo(reopen: reopen)
        case Int(XK_y) where control: changed = editor.redo(reopen: reopen)
        case Int(XK_a) where control: editor.selectAll()
        case Int(XK_c) where control && chosen: copy()
        case Int(XK_x) where control && chosen:
            copy()
            changed = editor.deleteSelected()
        case Int(XK_v) where control: toneshaper_ui_request_paste(display, Window(window))
        case Int(XK_0) where control:
            viewTime = 0...1
            viewPitch = 0...1
        case Int(XK_Delete) where chosen, Int(XK_BackSpace) where chosen: changed = editor.deleteSelected()
        case Int(XK_h) where !control && chosen: changed = editor.edit { $0.flipHorizontally($1, duration: duration, range: range) }
        case Int(XK_v) where !control && chosen: changed = editor.edit { $0.flipVertically($1, duration: duration, range: range) }
        case Int(XK_Return) where editor.selected != nil, Int(XK_KP_Enter) where editor.selected != nil: openEntry(editor.selected!)
        case Int(XK_Escape) where chosen: editor.selectNone()
        default:
            toneshaper_ui_forward_key(display, Window(window), event.keycode, event.state, event.time)
            return
        }
        if changed { pointsToSend = true }
        needsDraw = true
    }

    func pressButton(_ button: Layout.Button) {
        switch button {
        case .snapTime: editor.snapTime.toggle()
        case .snapSemitones: editor.snapSemitones.toggle()
        case .undo: if editor.undo(reopen: reopen) { pointsToSend = true }
        case .redo: if editor.redo(reopen: reopen) { pointsToSend = true }
        case .zoom: stepZoom()
        }
        needsDraw = true
    }

    // MARK: - Drawing

    func draw() {
        needsDraw = false
        playheadMoved = false
        let start = timing ? toneshaper_ui_seconds() : 0
        let cr = cairo_create(image)!
        Painter(self, cr).paint()
        cairo_destroy(cr)
        cairo_surface_flush(image)
        let window = cairo_create(surface)!
        cairo_set_source_surface(window, image, 0, 0)
        cairo_set_operator(window, CAIRO_OPERATOR_SOURCE)
        cairo_paint(window)
        cairo_set_operator(window, CAIRO_OPERATOR_OVER)
        let painter = Painter(self, window)
        shownPlayheadX = Painter.playheadX(self, painter.layout)
        if let x = shownPlayheadX { painter.paintPlayhead(at: x) }
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

    /// Only the playhead moved: the strip where it was is copied back from the picture and
    /// it is drawn where it is now; nothing when it stays in its pixel column. This is what
    /// the window does while nothing else changes (about 0.2 % of a core at 50 timer calls
    /// a second, where drawing everything took several per cent).
    func drawPlayhead() {
        playheadMoved = false
        let start = timing ? toneshaper_ui_seconds() : 0
        defer { if timing { notePlayheadTime(toneshaper_ui_seconds() - start) } }
        let window = cairo_create(surface)!
        let painter = Painter(self, window)
        let x = Painter.playheadX(self, painter.layout)
        guard x != shownPlayheadX else {
            cairo_destroy(window)
            return
        }
        let plot = painter.layout.plot
        let half = 2 * scale
        for old in [shownPlayheadX, x] {
            guard let old else { continue }
            cairo_rectangle(window, old - half, plot.y, 2 * half, plot.h)
        }
        cairo_set_source_surface(window, image, 0, 0)
        cairo_set_operator(window, CAIRO_OPERATOR_SOURCE)
        cairo_fill(window)
        cairo_set_operator(window, CAIRO_OPERATOR_OVER)
        if let x { painter.paintPlayhead(at: x) }
        shownPlayheadX = x
        cairo_destroy(window)
        cairo_surface_flush(surface)
        XFlush(display)
    }

    func notePlayheadTime(_ seconds: Double) {
        playheadTiming.count += 1
        playheadTiming.seconds += seconds
        guard playheadTiming.count == 500 else { return }
        toneshaper_ui_stderr("playhead drawn 500 times in " + UIText.number(playheadTiming.seconds * 1000, decimals: 3, unit: " ms"))
        playheadTiming = (0, 0)
    }
}
