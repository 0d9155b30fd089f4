import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters

/// The grid of the page's zoomed view, from the editing model the plugin's window draws
/// its grid with (``GridLines``): asked again whenever the view moves, never per frame.
///
///     {"grid": true, "times": [t0, t1], "minimumStep": 0.05,
///      "frequencies": [f0, f1], "minimumSemitones": 1.5, "id": 7}
///
/// answered `{"grid": {"times": [...], "beat": b, "frequencies": [...], "tuned": bool}}`:
/// seconds in 1-2-5 steps, or beats (`beat` seconds, 0 when the shape keeps its duration)
/// when the shape follows the tempo; equal-tempered semitones from A4 = 440 Hz, or the
/// active tuning's degrees from its root note (`tuned`).
enum CurveGrid {
    static func reply(_ message: JSONValue, shape: ToneShape) -> JSONValue {
        let span = { (key: String) -> ClosedRange<Double>? in
            guard case .array(let ends)? = message[key], ends.count == 2, let a = ends[0].number, let b = ends[1].number,
                a.isFinite, b.isFinite, a <= b
            else { return nil }
            return a...b
        }
        let minimumStep = message["minimumStep"]?.number ?? 0
        let minimumSemitones = message["minimumSemitones"]?.number ?? 1
        let beats = shape.performance.beats
        let beat = beats > 0 ? shape.duration / beats : 0
        var times: [Double] = []
        if let visible = span("times") {
            times =
                beat > 0
                ? GridLines.beats(visible: visible, beat: beat, minimumStep: minimumStep)
                : GridLines.times(visible: visible, minimumStep: minimumStep)
        }
        var frequencies: [Double] = []
        if let visible = span("frequencies"), visible.lowerBound > 0 {
            if let tuning = shape.tuning {
                let root = shape.performance.rootNote
                let keys = tuning.frequencies(rootNote: root)
                let rootFrequency = keys.indices.contains(root) ? keys[root] ?? 440 : 440
                let degrees = [0] + tuning.scale.cents.dropLast().map { $0 / 100 }
                frequencies = GridLines.degrees(
                    visible: visible, root: rootFrequency, degrees: degrees, period: tuning.scale.period / 100,
                    minimumSemitones: minimumSemitones)
            } else {
                frequencies = GridLines.semitones(visible: visible, minimumSemitones: minimumSemitones)
            }
        }
        return .object([
            "times": .array(times.map(JSONValue.number)), "beat": .number(beat),
            "frequencies": .array(frequencies.map(JSONValue.number)), "tuned": .bool(shape.tuning != nil),
        ])
    }
}
