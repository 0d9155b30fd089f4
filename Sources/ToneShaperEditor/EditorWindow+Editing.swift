import CEditor
import ToneShaperModel
import ToneShaperParameters

/// The exact entry open on a point: what is typed (`time frequency`, the frequency in Hz or
/// as a note such as `A4+12`), whether it is still the text offered (the first key typed
/// replaces it), and why the last Enter was refused.
struct PointEntry {
    var index: Int
    var text: String
    var fresh = true
    var problem: String?
}

/// Typing into a one-line field (a point's exact entry, a shape's name): Backspace and
/// printable ASCII, at most `limit` bytes; the first key typed into a `fresh` field replaces
/// the text offered. False when the key is neither (the text unchanged).
enum TypedText {
    static func edit(_ text: inout String, fresh: inout Bool, _ event: toneshaper_ui_event, limit: Int) -> Bool {
        if Int(event.keysym) == Int(XK_BackSpace) {
            if fresh { text = "" } else if !text.isEmpty { text.removeLast() }
        } else {
            let bytes = withUnsafeBytes(of: event.text) { Array($0.prefix { $0 != 0 }) }
            guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 32 && $0 < 127 }), text.utf8.count < limit else { return false }
            if fresh { text = "" }
            text += String(decoding: bytes, as: UTF8.self)
        }
        fresh = false
        return true
    }
}

extension EditorWindow {
    // MARK: - Exact entry

    /// Opens the entry on point `k`, offering its time and frequency.
    func openEntry(_ k: Int) {
        guard editor.points.indices.contains(k), !editor.isGesturing else { return }
        let p = editor.points[k]
        entry = PointEntry(index: k, text: UIText.number(p.time, decimals: 3, unit: "") + " " + UIText.number(p.frequency, decimals: 2, unit: ""))
        needsDraw = true
    }

    /// A key while the entry is open: text, Backspace, Enter (place the point), Escape.
    func entryKey(_ event: toneshaper_ui_event) {
        guard var typed = entry else { return }
        switch Int(event.keysym) {
        case Int(XK_Escape):
            entry = nil
            return
        case Int(XK_Return), Int(XK_KP_Enter):
            commitEntry(typed)
            return
        default:
            guard TypedText.edit(&typed.text, fresh: &typed.fresh, event, limit: 40) else { return }
        }
        entry = typed
    }

    /// Places the point as typed (one undo step), or says why not and stays open.
    func commitEntry(_ typed: PointEntry) {
        var refused = typed
        let words = typed.text.utf8.split(separator: 32).map { String(decoding: $0, as: UTF8.self) }
        guard editor.points.indices.contains(typed.index), words.count == 1 || words.count == 2 else {
            refused.problem = "type a time and a frequency: 0.5 A4+12"
            entry = refused
            return
        }
        let old = editor.points[typed.index]
        let duration = value(.duration)
        let range = pointRange
        let point: CurvePoint
        do throws(PitchText.Problem) {
            let time = words.count == 2 ? try PitchText.time(words[0]) : old.time
            point = CurvePoint(time: time, frequency: try PitchText.frequency(words[words.count - 1]))
        } catch {
            refused.problem = error.description
            entry = refused
            return
        }
        guard point.time <= duration else {
            refused.problem = "the cycle is 0..." + UIText.number(duration, decimals: 3, unit: " s")
            entry = refused
            return
        }
        guard range.contains(point.frequency) else {
            refused.problem =
                "the range played is " + UIText.number(range.lowerBound, decimals: 1, unit: "") + "..."
                + UIText.number(range.upperBound, decimals: 1, unit: " Hz")
            entry = refused
            return
        }
        entry = nil
        if editor.place(typed.index, at: point, duration: duration, range: range) { pointsToSend = true }
        if trace {
            toneshaper_ui_stderr(
                "placed a point at " + UIText.number(point.time, decimals: 4, unit: " s") + ", "
                    + UIText.number(point.frequency, decimals: 3, unit: " Hz"))
        }
    }

    /// Where the entry is drawn: beside its point, inside the plot.
    func entryBox(_ layout: Layout) -> Box? {
        guard let entry, editor.points.indices.contains(entry.index) else { return nil }
        let p = editor.points[entry.index]
        let w = 250 * scale
        let h = 40 * scale
        let x = min(max(layout.x(time: p.time) + 10 * scale, layout.plot.x), layout.plot.x + layout.plot.w - w)
        let y = min(max(layout.y(frequency: p.frequency) - h - 10 * scale, layout.plot.y), layout.plot.y + layout.plot.h - h)
        return Box(x: x, y: y, w: w, h: h)
    }

    // MARK: - Clipboard (X11's CLIPBOARD selection, as text)

    /// The selection as text (``PointsText``), offered as the CLIPBOARD.
    func copy() {
        clipboard = editor.curve.copy(editor.selection)
        toneshaper_ui_own_clipboard(display, Window(window))
        status = "copied " + String(editor.selection.count) + " points"
        if trace { toneshaper_ui_stderr("owns the CLIPBOARD: " + status) }
    }

    /// The CLIPBOARD's text came: its points pasted at their own times (one undo step), or
    /// the line that is not a point said in the toolbar.
    func paste() {
        var buffer = [CChar](repeating: 0, count: 1 << 20)
        let length = buffer.withUnsafeMutableBufferPointer { toneshaper_ui_read_paste(display, Window(window), $0.baseAddress, Int32($0.count)) }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard length > 0 else { return }
        let clip: EditableCurve
        do throws(PointsText.Problem) {
            clip = try PointsText.curve(text)
        } catch {
            status = "not pasted: " + error.description
            if trace { toneshaper_ui_stderr(status) }
            needsDraw = true
            return
        }
        let duration = value(.duration)
        let range = pointRange
        if editor.edit({ curve, _ in curve.paste(clip, duration: duration, range: range) }) { pointsToSend = true }
        status = "pasted " + String(editor.selection.count) + " points"
        needsDraw = true
    }

    // MARK: - Zoom and pan

    /// One wheel step: across (Ctrl) or up (Shift), closer or farther, about the pointer.
    func zoom(across: Bool, closer: Bool, atX x: Int, y: Int, _ layout: Layout) {
        let factor = closer ? 0.8 : 1.25
        if across {
            let anchor = viewTime.lowerBound + (Double(x) - layout.plot.x) / layout.plot.w * (viewTime.upperBound - viewTime.lowerBound)
            viewTime = EditorWindow.zoomed(viewTime, about: anchor, by: factor)
        } else {
            let anchor =
                viewPitch.lowerBound + (layout.plot.y + layout.plot.h - Double(y)) / layout.plot.h * (viewPitch.upperBound - viewPitch.lowerBound)
            viewPitch = EditorWindow.zoomed(viewPitch, about: anchor, by: factor)
        }
        needsDraw = true
    }

    /// `view` (fractions of 0...1) `factor` times as wide, `anchor` staying where it is,
    /// within 0...1 and no narrower than 1/256.
    static func zoomed(_ view: ClosedRange<Double>, about anchor: Double, by factor: Double) -> ClosedRange<Double> {
        let old = view.upperBound - view.lowerBound
        let width = min(max(old * factor, 1.0 / 256), 1)
        let low = min(max(anchor - (anchor - view.lowerBound) * width / old, 0), 1 - width)
        return low...(low + width)
    }

    /// `view` moved by `delta`, within 0...1.
    static func panned(_ view: ClosedRange<Double>, by delta: Double) -> ClosedRange<Double> {
        let width = view.upperBound - view.lowerBound
        let low = min(max(view.lowerBound + delta, 0), 1 - width)
        return low...(low + width)
    }

    // MARK: - Grid

    /// The time grid at this zoom, and its step (what time snaps to): sixteenths of the
    /// cycle, or its beats when it lasts a number of them with the tempo, halved or doubled
    /// so that lines are at least 18 pixels apart.
    func timeGrid(_ layout: Layout) -> (lines: [Double], step: Double) {
        let duration = layout.duration
        let beats = value(.beats)
        let unit = value(.transport) > 0 && beats > 0 ? duration / beats : duration / Double(CurveEditor.timeSteps)
        let lines = GridLines.beats(visible: layout.visibleTimes, beat: unit, minimumStep: 18 * scale / layout.pixelsPerSecond)
        let step = lines.count >= 2 ? lines[1] - lines[0] : unit
        return (lines, step)
    }

    /// The pitch grid at this zoom: the tuning's degrees when one is set, else semitones
    /// (in steps of 1, 2, 3, 6 or 12) at least 10 pixels apart.
    func pitchLines(_ layout: Layout) -> [Double] {
        let visible = layout.visibleFrequencies
        let spacing = 10 * scale / layout.pixelsPerSemitone
        if let tuning = tuningGrid {
            return GridLines.degrees(visible: visible, root: tuning.root, degrees: tuning.degrees, period: tuning.period, minimumSemitones: spacing)
        }
        return GridLines.semitones(visible: visible, minimumSemitones: spacing)
    }

    // MARK: - Selection box

    /// The box around a selection of several points, in pixels.
    func selectionBox(_ layout: Layout) -> Box? {
        guard editor.selection.count > 1, let bounds = editor.curve.bounds(of: editor.selection) else { return nil }
        let x0 = layout.x(time: bounds.times.lowerBound)
        let x1 = layout.x(time: bounds.times.upperBound)
        let y0 = layout.y(frequency: bounds.frequencies.upperBound)
        let y1 = layout.y(frequency: bounds.frequencies.lowerBound)
        let pad = 6 * scale
        return Box(x: x0 - pad, y: y0 - pad, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad)
    }

    /// The stretch handles on the box's edges: left, right, top, bottom.
    func stretchHandles(_ box: Box) -> [(x: Double, y: Double)] {
        [(box.x, box.y + box.h / 2), (box.x + box.w, box.y + box.h / 2), (box.x + box.w / 2, box.y), (box.x + box.w / 2, box.y + box.h)]
    }

    /// The stretch a press at (x, y) starts on a handle: across for the left and right
    /// ones, up for the top and bottom ones.
    func stretchEdge(_ layout: Layout, _ x: Int, _ y: Int) -> (horizontal: Bool, centre: Double, reach: Double)? {
        guard let box = selectionBox(layout) else { return nil }
        let radius = 6 * scale
        for (k, handle) in stretchHandles(box).enumerated() where abs(handle.x - Double(x)) <= radius && abs(handle.y - Double(y)) <= radius {
            let horizontal = k < 2
            let centre = horizontal ? box.x + box.w / 2 : box.y + box.h / 2
            let reach = (horizontal ? Double(x) : Double(y)) - centre
            guard abs(reach) > 1 else { return nil }
            return (horizontal, centre, reach)
        }
        return nil
    }
}
