import CEditor
import ToneShaperModel
import ToneShaperParameters

/// A rectangle in window pixels.
struct Box {
    var x: Double
    var y: Double
    var w: Double
    var h: Double

    func contains(_ px: Int, _ py: Int) -> Bool {
        Double(px) >= x && Double(px) <= x + w && Double(py) >= y && Double(py) <= y + h
    }
}

/// Where everything is in the window at its size and scale: the toolbar, the plot of the
/// curve (time across, a logarithmic frequency axis up), the controls on the right.
struct Layout {
    let scale: Double
    let plot: Box
    let panel: Box
    let toolbar: Box
    let axis: ClosedRange<Double>
    let duration: Double
    let rowCount: Int
    /// The part of the cycle shown across (fractions of it) and of the axis up (fractions of
    /// its logarithm): zoomed and panned by the window.
    let viewTime: ClosedRange<Double>
    let viewPitch: ClosedRange<Double>

    enum Button: CaseIterable {
        case snapTime, snapSemitones, undo, redo, zoom
    }

    init(_ w: EditorWindow) {
        scale = w.scale
        let s = w.scale
        let panelWidth = min(260 * s, Double(w.width) * 0.4)
        panel = Box(x: Double(w.width) - panelWidth, y: 0, w: panelWidth, h: Double(w.height))
        toolbar = Box(x: 0, y: 0, w: panel.x, h: 30 * s)
        let left = 52 * s
        let top = toolbar.h + 10 * s
        plot = Box(x: left, y: top, w: max(panel.x - left - 14 * s, 10), h: max(Double(w.height) - top - 30 * s, 10))
        axis = w.frequencyAxis
        duration = max(w.value(.duration), 1e-6)
        rowCount = w.rows.count
        viewTime = w.viewTime
        viewPitch = w.viewPitch
    }

    func x(time: Double) -> Double {
        let fraction = min(max(time / duration, 0), 1)
        return plot.x + (fraction - viewTime.lowerBound) / (viewTime.upperBound - viewTime.lowerBound) * plot.w
    }

    func y(frequency: Double) -> Double {
        let f = min(max(frequency, axis.lowerBound), axis.upperBound)
        let p = (log(f) - log(axis.lowerBound)) / (log(axis.upperBound) - log(axis.lowerBound))
        return plot.y + plot.h - (p - viewPitch.lowerBound) / (viewPitch.upperBound - viewPitch.lowerBound) * plot.h
    }

    func time(x: Double) -> Double {
        let fraction = viewTime.lowerBound + (x - plot.x) / plot.w * (viewTime.upperBound - viewTime.lowerBound)
        return min(max(fraction, 0), 1) * duration
    }

    func frequency(y: Double) -> Double {
        let fraction = viewPitch.lowerBound + (plot.y + plot.h - y) / plot.h * (viewPitch.upperBound - viewPitch.lowerBound)
        let p = min(max(fraction, 0), 1)
        return exp(log(axis.lowerBound) + p * (log(axis.upperBound) - log(axis.lowerBound)))
    }

    /// The times and frequencies the plot shows.
    var visibleTimes: ClosedRange<Double> { viewTime.lowerBound * duration...viewTime.upperBound * duration }
    var visibleFrequencies: ClosedRange<Double> { frequency(y: plot.y + plot.h)...frequency(y: plot.y) }

    /// Pixels per second across.
    var pixelsPerSecond: Double { plot.w / max(visibleTimes.upperBound - visibleTimes.lowerBound, 1e-9) }
    /// Pixels per semitone up.
    var pixelsPerSemitone: Double {
        let visible = visibleFrequencies
        return plot.h / max(12 * log2Value(visible.upperBound / visible.lowerBound), 1e-9)
    }

    func buttonBox(_ button: Button) -> Box {
        let index = Double(Layout.Button.allCases.firstIndex(of: button)!)
        return Box(x: plot.x + index * 102 * scale, y: 5 * scale, w: 96 * scale, h: 21 * scale)
    }

    func button(atX x: Int, y: Int) -> Button? { Layout.Button.allCases.first { buttonBox($0).contains(x, y) } }

    var rowHeight: Double { min(36 * scale, (panel.h - 16 * scale) / Double(max(rowCount, 1))) }

    /// Control `index`'s bar.
    func bar(_ index: Int) -> Box {
        Box(x: panel.x + 12 * scale, y: 10 * scale + Double(index) * rowHeight + rowHeight * 0.5, w: panel.w - 24 * scale, h: rowHeight * 0.38)
    }

    func control(atX x: Int, y: Int) -> Int? {
        guard panel.contains(x, y) else { return nil }
        let index = Int((Double(y) - 10 * scale) / rowHeight)
        return index >= 0 && index < rowCount ? index : nil
    }

    /// Where `x` falls along the bars, 0...1.
    func barPosition(_ x: Int) -> Double {
        let b = bar(0)
        return min(max((Double(x) - b.x) / b.w, 0), 1)
    }
}

/// Draws the window once, with cairo.
struct Painter {
    let w: EditorWindow
    let cr: OpaquePointer
    let layout: Layout
    let s: Double

    init(_ w: EditorWindow, _ cr: OpaquePointer) {
        self.w = w
        self.cr = cr
        layout = Layout(w)
        s = w.scale
    }

    func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { cairo_set_source_rgba(cr, r, g, b, a) }

    func text(_ string: String, _ x: Double, _ y: Double, size: Double = 12, bold: Bool = false) {
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size * s)
        cairo_move_to(cr, x, y)
        string.withCString { cairo_show_text(cr, $0) }
    }

    func rectangle(_ b: Box) { cairo_rectangle(cr, b.x, b.y, b.w, b.h) }

    func paint() {
        color(0.11, 0.12, 0.14)
        cairo_paint(cr)
        paintToolbar()
        paintGrid()
        paintCurve()
        paintTuning()
        paintShapes()
        paintControls()
    }

    func paintToolbar() {
        for button in Layout.Button.allCases {
            let b = layout.buttonBox(button)
            let label: String
            var on = false
            var enabled = true
            switch button {
            case .snapTime:
                label = "Snap: 1/" + String(CurveEditor.timeSteps)
                on = w.editor.snapTime
            case .snapSemitones:
                label = "Snap: semitones"
                on = w.editor.snapSemitones
            case .undo:
                label = "Undo"
                enabled = w.editor.canUndo
            case .redo:
                label = "Redo"
                enabled = w.editor.canRedo
            case .zoom:
                label = "Zoom " + String(Int((w.zoom * 100).rounded())) + " %"
            }
            paintButton(b, label, on: on, enabled: enabled)
        }
        let count = w.editor.points.count
        color(0.6, 0.62, 0.68)
        var status = String(count) + (count == 1 ? " point" : " points")
        if w.editor.selection.count > 0 { status += ", " + String(w.editor.selection.count) + " selected" }
        if !w.status.isEmpty { status += " — " + w.status }
        text(status, layout.buttonBox(.zoom).x + 104 * s, 20 * s, size: 11)
    }

    func paintGrid() {
        let p = layout.plot
        color(0.07, 0.08, 0.09)
        rectangle(p)
        cairo_fill(cr)
        paintPitchGrid()
        cairo_set_line_width(cr, 1)
        // Frequencies: the steps 1 to 9 of every decade within the axis, each labelled
        // where there is room; the decades stronger.
        var decade = 1.0
        var lastLabel = Double.infinity
        while decade <= layout.axis.upperBound {
            for m in 1...9 {
                let f = decade * Double(m)
                guard f >= layout.axis.lowerBound && f <= layout.axis.upperBound else { continue }
                let y = layout.y(frequency: f).rounded() + 0.5
                guard y >= p.y - 0.5, y <= p.y + p.h + 0.5 else { continue }
                color(1, 1, 1, m == 1 ? 0.16 : 0.07)
                cairo_move_to(cr, p.x, y)
                cairo_line_to(cr, p.x + p.w, y)
                cairo_stroke(cr)
                let clear = y < p.y + p.h - 12 * s && y > p.y + 12 * s
                if clear && lastLabel - y > 16 * s
                    && (m == 1 || m == 2 || m == 5 || p.h / 9 > 16 * s || layout.axis.upperBound / layout.axis.lowerBound < 10)
                {
                    color(0.65, 0.67, 0.72)
                    text(UIText.hertz(f), 6 * s, y + 4 * s, size: 10)
                    lastLabel = y
                }
            }
            decade *= 10
        }
        // The range's ends, in Hz.
        color(0.85, 0.7, 0.35)
        text(UIText.hertz(layout.visibleFrequencies.upperBound) + " Hz", 6 * s, p.y + 4 * s, size: 10, bold: true)
        text(UIText.hertz(layout.visibleFrequencies.lowerBound) + " Hz", 6 * s, p.y + p.h, size: 10, bold: true)
        // Time: the snap steps at this zoom (sixteenths of the cycle, or beats when the
        // shape follows the tempo, halved as the view narrows), every fourth stronger, its
        // seconds below where there is room.
        let grid = w.timeGrid(layout)
        var lastTimeLabel = -Double.infinity
        for t in grid.lines {
            let x = layout.x(time: t).rounded() + 0.5
            let strong = Int((t / grid.step).rounded()) % 4 == 0
            color(1, 1, 1, strong ? 0.16 : 0.06)
            cairo_move_to(cr, x, p.y)
            cairo_line_to(cr, x, p.y + p.h)
            cairo_stroke(cr)
            if strong && x - lastTimeLabel > 56 * s {
                color(0.65, 0.67, 0.72)
                let label = UIText.number(t, decimals: grid.step * 4 < 0.01 ? 4 : 2, unit: "s")
                let end = x > p.x + p.w - 20 * s
                text(label, end ? x - 36 * s : x <= p.x + 1 ? x : x - 14 * s, p.y + p.h + 16 * s, size: 10)
                lastTimeLabel = x
            }
        }
    }

    /// The pitch grid (semitones, or the tuning's degrees), under the decades' lines.
    func paintPitchGrid() {
        let p = layout.plot
        cairo_set_line_width(cr, 1)
        let tuned = w.tuningGrid != nil
        for f in w.pitchLines(layout) {
            let y = layout.y(frequency: f).rounded() + 0.5
            guard y >= p.y, y <= p.y + p.h else { continue }
            if tuned { color(0.55, 0.85, 0.6, 0.12) } else { color(1, 1, 1, 0.04) }
            cairo_move_to(cr, p.x, y)
            cairo_line_to(cr, p.x + p.w, y)
            cairo_stroke(cr)
        }
    }

    /// The curve: through every point while there are few per pixel column; else, column by
    /// column, the lowest and highest frequency each column holds (what a screen can show of
    /// a curve of 100,000 points), joined.
    func paintCurve() {
        let points = w.editor.points
        guard !points.isEmpty else { return }
        let p = layout.plot
        cairo_save(cr)
        rectangle(Box(x: p.x - 6 * s, y: p.y - 6 * s, w: p.w + 12 * s, h: p.h + 12 * s))
        cairo_clip(cr)
        cairo_set_line_width(cr, 2 * s)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        color(0.35, 0.8, 0.95)
        let columns = Int(p.w) + 1
        let curvatures = w.editor.curve.curvatures
        if points.count <= columns * 2 {
            cairo_move_to(cr, layout.x(time: 0), layout.y(frequency: points[0].frequency))
            for (k, point) in points.enumerated() {
                // A curved segment as it plays: its progress (SegmentCurvature) in Hz, in steps.
                if k > 0, curvatures[k - 1] != 0 {
                    let a = points[k - 1]
                    for step in 1..<24 {
                        let u = Double(step) / 24
                        let f = a.frequency + (point.frequency - a.frequency) * SegmentCurvature.progress(u, curvatures[k - 1])
                        cairo_line_to(cr, layout.x(time: a.time + (point.time - a.time) * u), layout.y(frequency: f))
                    }
                }
                cairo_line_to(cr, layout.x(time: point.time), layout.y(frequency: point.frequency))
            }
            cairo_line_to(cr, layout.x(time: layout.duration), layout.y(frequency: points[points.count - 1].frequency))
            cairo_stroke(cr)
        } else {
            // One pass over the points comparing frequencies (no logarithm per point), then
            // each column's span filled as one rectangle, widened to meet its neighbour's so
            // the curve stays joined: a few hundred rectangles and one fill.
            var low = [Double](repeating: .infinity, count: columns)
            var high = [Double](repeating: -.infinity, count: columns)
            low.withUnsafeMutableBufferPointer { low in
                high.withUnsafeMutableBufferPointer { high in
                    points.withUnsafeBufferPointer { points in
                        for point in points {
                            let c = min(max(Int(layout.x(time: point.time) - p.x), 0), columns - 1)
                            let f = point.frequency
                            if f < low[c] { low[c] = f }
                            if f > high[c] { high[c] = f }
                        }
                    }
                }
            }
            let half = s
            var previous: (high: Double, low: Double)?
            for c in 0..<columns where low[c] <= high[c] {
                let yHigh = layout.y(frequency: high[c])
                let yLow = layout.y(frequency: low[c])
                let top = min(yHigh, previous?.low ?? yHigh) - half
                let bottom = max(yLow, previous?.high ?? yLow) + half
                cairo_rectangle(cr, p.x + Double(c) - half, top, 2 * half, bottom - top)
                previous = (yHigh, yLow)
            }
            cairo_fill(cr)
        }
        // The points themselves and the segments' handles, while they can be told apart (not
        // under the Shapes panel, which covers the plot: the end points' dots reach past it).
        if points.count <= 400, !w.shapePanel.open {
            let selection = w.editor.selection
            for k in curvatures.indices {
                let handle = w.editor.curve.handle(ofSegment: k)
                let x = layout.x(time: handle.time)
                let y = layout.y(frequency: handle.frequency)
                let r = 3.5 * s
                cairo_move_to(cr, x, y - r)
                cairo_line_to(cr, x + r, y)
                cairo_line_to(cr, x, y + r)
                cairo_line_to(cr, x - r, y)
                cairo_close_path(cr)
                if curvatures[k] != 0 { color(0.95, 0.55, 0.85) } else { color(0.55, 0.6, 0.7, 0.8) }
                cairo_fill(cr)
            }
            for (k, point) in points.enumerated() {
                let chosen = selection.contains(k)
                cairo_arc(cr, layout.x(time: point.time), layout.y(frequency: point.frequency), (chosen ? 6 : 4) * s, 0, 2 * Double.pi)
                if chosen { color(1, 0.8, 0.3) } else { color(0.9, 0.95, 1) }
                cairo_fill(cr)
            }
        }
        paintSelectionBox()
        if let band = w.editor.band, let pointer = w.pointer {
            let x0 = layout.x(time: band.time)
            let y0 = layout.y(frequency: band.frequency)
            color(0.5, 0.7, 1, 0.15)
            cairo_rectangle(cr, min(x0, pointer.x), min(y0, pointer.y), abs(pointer.x - x0), abs(pointer.y - y0))
            cairo_fill_preserve(cr)
            color(0.5, 0.7, 1, 0.8)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
        }
        cairo_restore(cr)
        paintEntry()
    }

    /// Around a selection of several points: its box and the handles on its edges that
    /// stretch it (left and right in time, top and bottom in pitch).
    func paintSelectionBox() {
        guard let box = w.selectionBox(layout) else { return }
        color(1, 0.8, 0.3, 0.6)
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, box.x, box.y, box.w, box.h)
        cairo_stroke(cr)
        for handle in w.stretchHandles(box) {
            cairo_rectangle(cr, handle.x - 3.5 * s, handle.y - 3.5 * s, 7 * s, 7 * s)
            cairo_fill(cr)
        }
    }

    /// The exact entry: a small text field by the point, what is typed, and a refusal.
    /// A button: its box (lit while `on`), its label (dimmed while not `enabled`), the text's
    /// baseline `baseline` pixels (at scale 1) below the box's top. The toolbar and the panels'
    /// buttons look alike through it.
    func paintButton(_ b: Box, _ label: String, on: Bool = false, enabled: Bool = true, baseline: Double = 15) {
        if on { color(0.22, 0.45, 0.75) } else { color(0.2, 0.21, 0.25) }
        rectangle(b)
        cairo_fill(cr)
        color(0.9, 0.9, 0.92, enabled ? 1 : 0.35)
        text(label, b.x + 8 * s, b.y + baseline * s, size: 11)
    }

    func paintEntry() {
        guard let entry = w.entry, let box = w.entryBox(layout) else { return }
        color(0.05, 0.06, 0.08, 0.95)
        rectangle(box)
        cairo_fill_preserve(cr)
        color(1, 0.8, 0.3)
        cairo_set_line_width(cr, 1.5 * s)
        cairo_stroke(cr)
        color(1, 1, 1)
        text(entry.text + "_", box.x + 6 * s, box.y + 16 * s, size: 12)
        color(0.65, 0.67, 0.72)
        text(entry.problem ?? "time (s)  frequency (Hz or A4+12): Enter, Esc", box.x + 6 * s, box.y + 32 * s, size: 9)
    }

    /// Where the playhead is across the window (nil: none, or outside the view).
    static func playheadX(_ w: EditorWindow, _ layout: Layout) -> Double? {
        // Not over the shape library's cards.
        guard let phase = w.playhead, !w.shapePanel.open else { return nil }
        let x = layout.x(time: phase * layout.duration).rounded()
        return x >= layout.plot.x && x <= layout.plot.x + layout.plot.w ? x : nil
    }

    /// The playhead, drawn over the picture on the window itself (the picture in `image`
    /// never holds it, so that moving it repaints two thin strips, not the window).
    func paintPlayhead(at x: Double) {
        let p = layout.plot
        color(1, 0.45, 0.35, 0.9)
        cairo_set_line_width(cr, 1.5 * s)
        cairo_move_to(cr, x, p.y)
        cairo_line_to(cr, x, p.y + p.h)
        cairo_stroke(cr)
    }

    func paintControls() {
        let panel = layout.panel
        color(0.15, 0.16, 0.19)
        rectangle(panel)
        cairo_fill(cr)
        let duration = w.value(.duration)
        for (index, row) in w.rows.enumerated() {
            let bar = layout.bar(index)
            let value = w.values[row.row]
            color(0.8, 0.82, 0.86)
            text(row.label, bar.x, bar.y - 4 * s, size: 11)
            let valueText = row.text(value)
            var extents = cairo_text_extents_t()
            cairo_set_font_size(cr, 11 * s)
            valueText.withCString { cairo_text_extents(cr, $0, &extents) }
            color(1, 1, 1)
            text(valueText, bar.x + bar.w - extents.x_advance, bar.y - 4 * s, size: 11)
            color(0.09, 0.1, 0.12)
            rectangle(bar)
            cairo_fill(cr)
            if case .flag = row.kind {
                if value > 0 { color(0.3, 0.75, 0.45) } else { color(0.3, 0.31, 0.35) }
                rectangle(Box(x: bar.x, y: bar.y, w: bar.h * 2.2, h: bar.h))
                cairo_fill(cr)
                continue
            }
            let position = row.position(value, duration: duration)
            color(0.22, 0.45, 0.75)
            rectangle(Box(x: bar.x, y: bar.y, w: bar.w * position, h: bar.h))
            cairo_fill(cr)
        }
    }
}
