import CEditor
import ToneShaperModel
import ToneShaperParameters

/// The curve as the editor window edits it: the points (seconds within the cycle, Hz as
/// heard) and their segments' curvatures (``EditableCurve``, the model the browser editor
/// shares), the selection, the gestures (click to add, drag a point to move it, drag on
/// empty space to draw freehand, drag a segment's handle to bend it, Shift to select), snapping
/// to the grid, and undo and redo of whole curves. It knows nothing of X11 or LV2: the window
/// hands it positions already turned into time and frequency.
struct CurveEditor {
    private(set) var curve = EditableCurve(points: [CurvePoint(time: 0, frequency: 440)])
    var points: [CurvePoint] { curve.points }
    private(set) var selection = CurveSelection()
    /// The one point selected, if exactly one is.
    var selected: Int? { selection.count == 1 ? selection.indices[0] : nil }
    var snapTime = false
    var snapSemitones = false
    /// The steps a cycle snaps to when `snapTime` is on, unzoomed.
    static let timeSteps = 16
    /// One step to undo or redo: a curve as it was, or a whole document (curve and every
    /// parameter, as the plugin saves it) the window opened a shape over.
    enum Step {
        case curve(EditableCurve)
        case document(KeptDocument)
    }
    private var undoStack: [Step] = []
    private var redoStack: [Step] = []
    static let undoDepth = 200

    /// What a gesture is doing.
    enum Gesture {
        case none
        /// A press on empty space: a click adds a point, a drag draws.
        case pressed(time: Double, frequency: Double)
        case moving(index: Int)
        case drawing(lastTime: Double)
        /// Several selected points dragged together from where the press was.
        case movingSelection(from: EditableCurve, selection: CurveSelection, time: Double, frequency: Double)
        /// A segment's handle dragged up or down from `y` (pixels) with curvature `start`.
        case bending(segment: Int, start: Double, y: Double, rises: Bool)
        /// A rubber band from (time, frequency), adding to `base`.
        case banding(time: Double, frequency: Double, base: CurveSelection)
        /// The selection stretched from its state at the press (the window gives the factor).
        case stretching(from: EditableCurve, selection: CurveSelection)
    }
    private(set) var gesture = Gesture.none
    /// The curve before the gesture, for undo.
    private var before: EditableCurve?

    var canUndo: Bool { !undoStack.isEmpty }
    var canRedo: Bool { !redoStack.isEmpty }
    var isGesturing: Bool {
        if case .none = gesture { return false }
        return true
    }

    /// The rubber band's corners while one is drawn.
    var band: (time: Double, frequency: Double)? {
        if case .banding(let t, let f, _) = gesture { return (t, f) }
        return nil
    }

    /// The curve the plugin plays (the host's state, a preset, a program): no undo step,
    /// the gesture in progress is let go.
    mutating func replace(with new: [CurvePoint], curvatures: [Double] = []) {
        guard !new.isEmpty else { return }
        curve = EditableCurve(points: new, curvatures: curvatures)
        selection = CurveSelection()
        gesture = .none
        before = nil
    }

    /// `time` and `frequency` snapped as the switches say (to multiples of `timeStep`, to
    /// the frequencies of `pitchLines`, the nearest), within the cycle and `range`.
    func snapped(
        time: Double, frequency: Double, duration: Double, range: ClosedRange<Double>, timeStep: Double? = nil, pitchLines: [Double]? = nil
    ) -> (Double, Double) {
        var t = min(max(time, 0), duration)
        var f = min(max(frequency, range.lowerBound), range.upperBound)
        if snapTime {
            let step = timeStep ?? duration / Double(CurveEditor.timeSteps)
            t = min((t / step).rounded() * step, duration)
        }
        if snapSemitones, f > 0 {
            var snappedF: Double
            if let lines = pitchLines, let nearest = lines.min(by: { abs(log2Value($0 / f)) < abs(log2Value($1 / f)) }) {
                snappedF = nearest
            } else {
                snappedF = 440 * exp2Value((12 * log2Value(f / 440)).rounded() / 12)
            }
            // The nearest line inside the range.
            if !range.contains(snappedF) { snappedF = f }
            f = snappedF
        }
        return (t, f)
    }

    // MARK: - Gestures

    /// A press at (time, frequency); `hit` is the point under the pointer, if any. With
    /// `shift`, a point is added to or taken from the selection, and a press on empty space
    /// starts a rubber band.
    mutating func press(time: Double, frequency: Double, hit: Int?, shift: Bool = false) {
        before = curve
        if let hit {
            if shift {
                selection.toggle(hit)
                gesture = .none
                before = nil
                return
            }
            if selection.contains(hit) && selection.count > 1 {
                gesture = .movingSelection(from: curve, selection: selection, time: time, frequency: frequency)
                return
            }
            selection = CurveSelection([hit])
            gesture = .moving(index: hit)
        } else if shift {
            gesture = .banding(time: time, frequency: frequency, base: selection)
        } else {
            selection = CurveSelection()
            gesture = .pressed(time: time, frequency: frequency)
        }
    }

    /// A press on segment `k`'s handle at window height `y`: a drag bends it; `reset`
    /// (Alt) makes it straight at once.
    mutating func pressHandle(segment k: Int, y: Double, reset: Bool) {
        guard curve.curvatures.indices.contains(k) else { return }
        before = curve
        if reset {
            curve.setCurvature(0, ofSegment: k)
            gesture = .none
            return
        }
        gesture = .bending(segment: k, start: curve.curvatures[k], y: y, rises: points[k + 1].frequency >= points[k].frequency)
    }

    /// A press on the selection box's edge: the window then gives stretch factors.
    mutating func pressStretch() {
        before = curve
        gesture = .stretching(from: curve, selection: selection)
    }

    /// The pointer moved to (time, frequency), window height `y`, with the button held;
    /// `far` says it has moved far enough from the press to be a drag. True when the curve
    /// or the selection changed.
    mutating func drag(
        time: Double, frequency: Double, y: Double = 0, far: Bool, scale: Double = 1, duration: Double = 1,
        range: ClosedRange<Double> = 1...1
    ) -> Bool {
        switch gesture {
        case .none:
            return false
        case .pressed(let t0, let f0):
            guard far else { return false }
            insertReplacing(from: t0, to: t0, CurvePoint(time: t0, frequency: f0))
            insertReplacing(from: t0, to: time, CurvePoint(time: time, frequency: frequency))
            gesture = .drawing(lastTime: time)
            return true
        case .moving(let index):
            var points = curve.points
            let low = index > 0 ? points[index - 1].time : 0
            let high = index + 1 < points.count ? points[index + 1].time : time
            let t = index + 1 < points.count || index > 0 ? min(max(time, low), max(low, high)) : time
            points[index] = CurvePoint(time: t, frequency: frequency)
            curve = EditableCurve(points: points, curvatures: curve.curvatures)
            return true
        case .drawing(let last):
            insertReplacing(from: last, to: time, CurvePoint(time: time, frequency: frequency))
            gesture = .drawing(lastTime: time)
            return true
        case .movingSelection(let start, let chosen, let t0, let f0):
            guard far else { return false }
            var moved = start
            selection = moved.move(
                chosen, bySeconds: time - t0, semitones: 12 * log2Value(frequency / f0), duration: duration, range: range)
            curve = moved
            return true
        case .bending(let k, let start, let y0, let rises):
            curve.setCurvature(CurvatureDrag.curvature(start: start, dragUp: y0 - y, rises: rises, scale: scale), ofSegment: k)
            return true
        case .banding(let t0, let f0, let base):
            let band = curve.points(inTimes: min(t0, time)...max(t0, time), frequencies: min(f0, frequency)...max(f0, frequency))
            selection = base.union(band)
            return true
        case .stretching:
            return false
        }
    }

    /// During a stretch: the selection as it was at the press, stretched by these factors
    /// about its centre (negative: flipped).
    mutating func stretch(timeFactor: Double, pitchFactor: Double, duration: Double, range: ClosedRange<Double>) {
        guard case .stretching(let start, let chosen) = gesture else { return }
        var stretched = start
        selection = stretched.stretch(chosen, timeFactor: timeFactor, pitchFactor: pitchFactor, duration: duration, range: range)
        curve = stretched
    }

    /// The button let go: a press that did not move adds a point. True when the curve
    /// changed over the whole gesture (one undo step).
    mutating func release() -> Bool {
        if case .pressed(let t, let f) = gesture {
            var points = curve.points
            let index = points.firstIndex { $0.time > t } ?? points.count
            points.insert(CurvePoint(time: t, frequency: f), at: index)
            var curvatures = curve.curvatures
            curvatures.insert(0, at: min(index, curvatures.count))
            curve = EditableCurve(points: points, curvatures: curvatures)
            selection = CurveSelection([index])
        }
        gesture = .none
        return commit()
    }

    // MARK: - Commands on the selection

    /// Removes the selected points (Delete); the last point stays. True when it changed.
    mutating func deleteSelected() -> Bool { edit { $0.delete($1) ? CurveSelection() : $1 } }

    mutating func selectAll() { selection = curve.all }
    mutating func selectNone() { selection = CurveSelection() }

    /// One command on the curve and its selection as one undo step; true when the curve changed.
    mutating func edit(_ change: (inout EditableCurve, CurveSelection) -> CurveSelection) -> Bool {
        guard !isGesturing else { return false }
        before = curve
        selection = change(&curve, selection)
        return commit()
    }

    /// Point `k` placed at `point` exactly (typed in), put back in time order.
    mutating func place(_ k: Int, at point: CurvePoint, duration: Double, range: ClosedRange<Double>) -> Bool {
        guard points.indices.contains(k) else { return false }
        let from = points[k]
        return edit { curve, _ in
            curve.move(
                CurveSelection([k]), bySeconds: point.time - from.time, semitones: 12 * log2Value(point.frequency / from.frequency),
                duration: duration, range: range)
        }
    }

    /// Undoes the last step: true when the curve changed here. A document step goes to
    /// `reopen`, which has the plugin play it and gives the document it replaced (nil:
    /// refused, the step stays).
    mutating func undo(reopen: (KeptDocument) -> KeptDocument?) -> Bool {
        guard let last = undoStack.last, let back = turned(last, reopen) else { return false }
        undoStack.removeLast()
        redoStack.append(back)
        return isCurve(last)
    }

    /// Redoes the step last undone (as ``undo(reopen:)``).
    mutating func redo(reopen: (KeptDocument) -> KeptDocument?) -> Bool {
        guard let next = redoStack.last, let back = turned(next, reopen) else { return false }
        redoStack.removeLast()
        undoStack.append(back)
        return isCurve(next)
    }

    /// `step` taken: the step that takes it back (nil: the plugin refused a document).
    private mutating func turned(_ step: Step, _ reopen: (KeptDocument) -> KeptDocument?) -> Step? {
        let back: Step
        switch step {
        case .curve(let old):
            back = .curve(curve)
            curve = old
        case .document(let kept):
            guard let replaced = reopen(kept) else { return nil }
            back = .document(replaced)
        }
        selection = CurveSelection()
        gesture = .none
        return back
    }

    private func isCurve(_ step: Step) -> Bool {
        if case .curve = step { return true }
        return false
    }

    /// The plugin opened a shape over `before` (its whole document): one undo step, which
    /// reopens it.
    mutating func opened(over before: KeptDocument) {
        push(.document(before))
    }

    /// The curve's times stretched to a new cycle length (the duration port moved).
    mutating func rescale(from old: Double, to new: Double) {
        guard old > 0, new > 0, old != new else { return }
        let factor = new / old
        curve = EditableCurve(
            points: points.map { CurvePoint(time: min($0.time * factor, new), frequency: $0.frequency) }, curvatures: curve.curvatures)
    }

    /// The index of the point within `radius` (in the caller's units, through `distance`)
    /// of the pointer: the nearest one.
    func hit(_ distance: (CurvePoint) -> Double, radius: Double) -> Int? {
        var best: Int?
        var bestDistance = radius
        for (k, p) in points.enumerated() {
            let d = distance(p)
            if d <= bestDistance {
                best = k
                bestDistance = d
            }
        }
        return best
    }

    /// The segment whose handle is within `radius` of the pointer (through `distance`).
    func hitHandle(_ distance: (CurvePoint) -> Double, radius: Double) -> Int? {
        var best: Int?
        var bestDistance = radius
        for k in curve.curvatures.indices {
            let d = distance(curve.handle(ofSegment: k))
            if d <= bestDistance {
                best = k
                bestDistance = d
            }
        }
        return best
    }

    /// Inserts `point`, removing the points strictly between `a` and `b` in time (what a
    /// freehand stroke passes over); a drawn stroke's segments are straight.
    private mutating func insertReplacing(from a: Double, to b: Double, _ point: CurvePoint) {
        let low = min(a, b)
        let high = max(a, b)
        var points = curve.points
        points.removeAll { $0.time > low && $0.time < high }
        if let same = points.firstIndex(where: { $0.time == point.time }) {
            points[same] = point
        } else {
            let index = points.firstIndex { $0.time > point.time } ?? points.count
            points.insert(point, at: index)
        }
        let kept = points.count == curve.points.count ? curve.curvatures : []
        curve = EditableCurve(points: points, curvatures: kept)
        selection = CurveSelection()
    }

    /// One undo step when the gesture changed the curve.
    @discardableResult
    private mutating func commit() -> Bool {
        guard let before else { return false }
        self.before = nil
        guard before != curve else { return false }
        push(.curve(before))
        return true
    }

    private mutating func push(_ step: Step) {
        undoStack.append(step)
        if undoStack.count > CurveEditor.undoDepth { undoStack.removeFirst() }
        redoStack.removeAll()
    }
}

// The C library's log2 and exp2, without Glibc (which Embedded Swift cannot import).
func log2Value(_ x: Double) -> Double { log2(x) }
func exp2Value(_ x: Double) -> Double { exp2(x) }
