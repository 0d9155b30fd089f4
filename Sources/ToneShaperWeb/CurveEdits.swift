import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters

/// The page's edits of its selection, computed by the editing model the plugin's window
/// uses too (``EditableCurve``, ``PointsText``, ``PitchText``, ``CurvatureDrag``), so the
/// same gesture gives the same curve in both editors.
///
/// The page sends the curve it shows (the one the gesture started from), the selected
/// indices and the operation:
///
///     {"edit": "stretch", "points": [t0, f0, t1, f1, ...], "curvatures": [c0, ...],
///      "selection": [1, 2], "timeFactor": 2, "id": 4}
///
/// - `move`: `seconds`, `semitones` (a drag, the arrow keys);
/// - `stretch`: `timeFactor`, `pitchFactor` (about the selection's centre; 1 leaves an axis);
/// - `flipTime`, `flipPitch`, `delete`;
/// - `bend`: `segment`, `dragUp` (pixels dragged up from where the handle was taken);
/// - `enter`: `frequency` and, for one point, `time`, as typed (`A4+12`, `250 ms`);
/// - `paste`: `text` (clipboard text), at the points' own times;
/// - `copy`: answered `{"text": ...}`, changing nothing.
///
/// Every other operation's curve is then set on the node as `points` with its curvatures
/// (checked there like any other edit) and answered with it: `{"ok": true, "points":
/// [[t, f], ...], "curvatures": [...], "selection": [...]}`.
enum CurveEdits {
    static func perform(_ message: JSONValue, context: WebContext) -> Result<[String: JSONValue], WebRefusal> {
        guard let operation = message["edit"]?.string else { return .failure(WebRefusal(message: "edit names an operation")) }
        let shape = context.controller.shape
        let duration = shape.duration
        let range = shape.minFrequency...max(shape.minFrequency, shape.maxFrequency)
        guard case .array(let flat)? = message["points"], flat.count >= 2, flat.count % 2 == 0 else {
            return .failure(WebRefusal(message: "edit \(operation) needs \"points\": the curve shown, t0 f0 t1 f1 ..."))
        }
        let numbers = flat.compactMap(\.number)
        guard numbers.count == flat.count else { return .failure(WebRefusal(message: "edit \(operation): the points must be numbers")) }
        let points = stride(from: 0, to: numbers.count, by: 2).map { CurvePoint(time: numbers[$0], frequency: numbers[$0 + 1]) }
        var curve = EditableCurve(points: points, curvatures: numbersOf(message["curvatures"]))
        let selection = CurveSelection(numbersOf(message["selection"]).compactMap { Int(exactly: $0) }.filter { $0 < points.count })
        let number = { (key: String, otherwise: Double) in message[key]?.number ?? otherwise }

        let chosen: CurveSelection
        switch operation {
        case "copy":
            return .success(["ok": .bool(true), "text": .string(curve.copy(selection.isEmpty ? curve.all : selection))])
        case "move":
            chosen = curve.move(
                selection, bySeconds: number("seconds", 0), semitones: number("semitones", 0), duration: duration, range: range)
        case "stretch":
            chosen = curve.stretch(
                selection, timeFactor: number("timeFactor", 1), pitchFactor: number("pitchFactor", 1), duration: duration, range: range)
        case "flipTime": chosen = curve.flipHorizontally(selection, duration: duration, range: range)
        case "flipPitch": chosen = curve.flipVertically(selection, duration: duration, range: range)
        case "delete":
            guard curve.delete(selection) else { return .failure(WebRefusal(message: "nothing to delete: a curve keeps at least one point")) }
            chosen = CurveSelection()
        case "bend":
            // Int(exactly:): a segment number from the page may be anything, 1e300 included.
            guard let k = Int(exactly: number("segment", -1)), curve.curvatures.indices.contains(k) else {
                return .failure(WebRefusal(message: "bend needs \"segment\", the number of a segment of the curve sent"))
            }
            let rises = curve.points[k + 1].frequency >= curve.points[k].frequency
            curve.setCurvature(
                CurvatureDrag.curvature(start: curve.curvatures[k], dragUp: number("dragUp", 0), rises: rises), ofSegment: k)
            chosen = selection
        case "enter":
            switch entered(curve, selection, time: message["time"]?.string, frequency: message["frequency"]?.string ?? "") {
            case .success(let typed): curve = typed
            case .failure(let refusal): return .failure(refusal)
            }
            chosen = selection
        case "paste":
            let clip: EditableCurve
            do throws(PointsText.Problem) { clip = try PointsText.curve(message["text"]?.string ?? "") } catch {
                return .failure(WebRefusal(message: "the clipboard holds no points: \(error.description)"))
            }
            chosen = curve.paste(clip, duration: duration, range: range)
            guard !chosen.isEmpty else {
                return .failure(WebRefusal(message: "none of the pasted points falls within the cycle (0 to \(duration) s)"))
            }
        default:
            return .failure(
                WebRefusal(message: "unknown edit \(operation): move, stretch, flipTime, flipPitch, delete, bend, enter, copy, paste are known"))
        }
        var arguments = curve.points.flatMap { [JSONValue.number($0.time), .number($0.frequency)] }
        if !curve.curvatures.isEmpty { arguments += [.string("curvatures")] + curve.curvatures.map(JSONValue.number) }
        return context.perform(address: "points", arguments: arguments).map { fields in
            var reply = fields
            reply["points"] = StateJSON.points(curve.points)
            reply["curvatures"] = .array(curve.curvatures.map(JSONValue.number))
            reply["selection"] = .array(chosen.indices.map { .number(Double($0)) })
            return reply
        }
    }

    /// Exact entry: the typed frequency for every selected point and, with one selected, the
    /// typed time, which must keep the point between its neighbours.
    private static func entered(_ curve: EditableCurve, _ selection: CurveSelection, time: String?, frequency: String) -> Result<
        EditableCurve, WebRefusal
    > {
        guard !selection.isEmpty else { return .failure(WebRefusal(message: "select a point to type its time and frequency")) }
        var points = curve.points
        do throws(PitchText.Problem) {
            let f = try PitchText.frequency(frequency)
            for k in selection.indices { points[k].frequency = f }
            if let time, selection.count == 1, let k = selection.indices.first {
                let t = try PitchText.time(time)
                let low = k > 0 ? points[k - 1].time : 0
                let high = k + 1 < points.count ? points[k + 1].time : .infinity
                guard t >= low, t <= high else {
                    return .failure(WebRefusal(message: "the time must lie between its neighbours', \(low) s and \(high) s"))
                }
                points[k].time = t
            }
        } catch {
            return .failure(WebRefusal(message: error.description))
        }
        return .success(EditableCurve(points: points, curvatures: curve.curvatures))
    }

    private static func numbersOf(_ value: JSONValue?) -> [Double] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.number)
    }
}
