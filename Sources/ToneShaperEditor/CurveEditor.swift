import CEditor
import ToneShaperModel
import ToneShaperParameters

/// The curve as the editor window edits it: the points (seconds within the cycle, Hz as
/// heard), the gestures of the browser editor (click to add, drag a point to move it, drag
/// on empty space to draw freehand, double-click or Delete to remove), snapping to time
/// steps and to semitones, and undo and redo of whole curves. It knows nothing of X11 or
/// LV2: the window hands it positions already turned into time and frequency.
struct CurveEditor {
    private(set) var points: [CurvePoint] = [CurvePoint(time: 0, frequency: 440)]
    /// The point picked by the last press, if any.
    private(set) var selected: Int?
    var snapTime = false
    var snapSemitones = false
    /// The steps a cycle snaps to when `snapTime` is on.
    static let timeSteps = 16
    private var undoStack: [[CurvePoint]] = []
    private var redoStack: [[CurvePoint]] = []
    static let undoDepth = 200

    /// What a gesture is doing.
    enum Gesture {
        case none
        /// A press on empty space: a click adds a point, a drag draws.
        case pressed(time: Double, frequency: Double)
        case moving(index: Int)
        case drawing(lastTime: Double)
    }
    private(set) var gesture = Gesture.none
    /// The curve before the gesture, for undo.
    private var before: [CurvePoint]?

    var canUndo: Bool { !undoStack.isEmpty }
    var canRedo: Bool { !redoStack.isEmpty }
    var isGesturing: Bool {
        if case .none = gesture { return false }
        return true
    }

    /// The curve the plugin plays (the host's state, a preset, a program): no undo step,
    /// the gesture in progress is let go.
    mutating func replace(with new: [CurvePoint]) {
        guard !new.isEmpty else { return }
        points = new
        selected = nil
        gesture = .none
        before = nil
    }

    /// `time` and `frequency` snapped as the switches say, within the cycle and `range`.
    func snapped(time: Double, frequency: Double, duration: Double, range: ClosedRange<Double>) -> (Double, Double) {
        var t = min(max(time, 0), duration)
        var f = min(max(frequency, range.lowerBound), range.upperBound)
        if snapTime {
            let step = duration / Double(CurveEditor.timeSteps)
            t = min((t / step).rounded() * step, duration)
        }
        if snapSemitones, f > 0 {
            let semitones = (12 * log2Value(f / 440)).rounded()
            let snappedF = 440 * exp2Value(semitones / 12)
            // The nearest semitone inside the range.
            f = range.contains(snappedF) ? snappedF : f
        }
        return (t, f)
    }

    /// A press at (time, frequency); `hit` is the point under the pointer, if any.
    mutating func press(time: Double, frequency: Double, hit: Int?, doubleClick: Bool) {
        before = points
        if let hit {
            if doubleClick {
                removePoint(hit)
                commit()
                gesture = .none
                return
            }
            selected = hit
            gesture = .moving(index: hit)
        } else {
            selected = nil
            gesture = .pressed(time: time, frequency: frequency)
        }
    }

    /// The pointer moved to (time, frequency) with the button held; `far` says it has moved
    /// far enough from the press to be a drag. True when the curve changed.
    mutating func drag(time: Double, frequency: Double, far: Bool) -> Bool {
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
            let low = index > 0 ? points[index - 1].time : 0
            let high = index + 1 < points.count ? points[index + 1].time : time
            let t = index + 1 < points.count || index > 0 ? min(max(time, low), max(low, high)) : time
            points[index] = CurvePoint(time: t, frequency: frequency)
            return true
        case .drawing(let last):
            insertReplacing(from: last, to: time, CurvePoint(time: time, frequency: frequency))
            gesture = .drawing(lastTime: time)
            return true
        }
    }

    /// The button let go: a press that did not move adds a point. True when the curve
    /// changed over the whole gesture (one undo step).
    mutating func release() -> Bool {
        if case .pressed(let t, let f) = gesture {
            let index = points.firstIndex { $0.time > t } ?? points.count
            points.insert(CurvePoint(time: t, frequency: f), at: index)
            selected = index
        }
        gesture = .none
        return commit()
    }

    /// Removes the selected point (Delete); the last point stays. True when it changed.
    mutating func deleteSelected() -> Bool {
        guard let selected, points.count > 1 else { return false }
        before = points
        removePoint(selected)
        return commit()
    }

    mutating func undo() -> Bool {
        guard let last = undoStack.popLast() else { return false }
        redoStack.append(points)
        points = last
        selected = nil
        gesture = .none
        return true
    }

    mutating func redo() -> Bool {
        guard let next = redoStack.popLast() else { return false }
        undoStack.append(points)
        points = next
        selected = nil
        gesture = .none
        return true
    }

    /// The curve's times stretched to a new cycle length (the duration port moved).
    mutating func rescale(from old: Double, to new: Double) {
        guard old > 0, new > 0, old != new else { return }
        let factor = new / old
        for k in points.indices { points[k].time = min(points[k].time * factor, new) }
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

    private mutating func removePoint(_ index: Int) {
        guard points.count > 1, points.indices.contains(index) else { return }
        points.remove(at: index)
        selected = nil
    }

    /// Inserts `point`, removing the points strictly between `a` and `b` in time (what a
    /// freehand stroke passes over).
    private mutating func insertReplacing(from a: Double, to b: Double, _ point: CurvePoint) {
        let low = min(a, b)
        let high = max(a, b)
        points.removeAll { $0.time > low && $0.time < high }
        if let same = points.firstIndex(where: { $0.time == point.time }) {
            points[same] = point
            return
        }
        let index = points.firstIndex { $0.time > point.time } ?? points.count
        points.insert(point, at: index)
    }

    /// One undo step when the gesture changed the curve.
    @discardableResult
    private mutating func commit() -> Bool {
        guard let before else { return false }
        self.before = nil
        guard before != points else { return false }
        undoStack.append(before)
        if undoStack.count > CurveEditor.undoDepth { undoStack.removeFirst() }
        redoStack.removeAll()
        return true
    }
}

// The C library's log2 and exp2, without Glibc (which Embedded Swift cannot import).
func log2Value(_ x: Double) -> Double { log2(x) }
func exp2Value(_ x: Double) -> Double { exp2(x) }
