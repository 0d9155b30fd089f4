import ToneShaperJSON
import ToneShaperParameters

/// The clipboard's text of a curve's points, readable and writable in a text editor and
/// shared by both editors (the browser page and the plugin's window): one point a line,
/// `time frequency [curvature]`, time in seconds, frequency in Hz (a note name such as
/// `A4+12` is read too), and the curvature of the segment to the next point when it is not
/// straight. Numbers are separated by spaces, tabs or commas; blank lines and lines
/// starting with `#` are skipped.
///
///     # ToneShaper points: time (s), frequency (Hz), curvature to the next point
///     0 220
///     0.5 880 0.5
///     1 220
public enum PointsText {
    /// One line: a point and the curvature of the segment it starts.
    public struct Line: Equatable, Sendable {
        public var point: CurvePoint
        public var curvature: Double
        public init(point: CurvePoint, curvature: Double = 0) {
            self.point = point
            self.curvature = curvature
        }
    }

    /// Why clipboard text is not points: the line (counted from 1) and what is wrong there.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var problem: String
        public var description: String { "line " + String(line) + ": " + problem }
    }

    /// The heading line written first (a comment, skipped when read).
    public static let heading = "# ToneShaper points: time (s), frequency (Hz), curvature to the next point"

    /// The text of `lines`: the heading, then one line a point (shortest round-trip numbers).
    public static func text(_ lines: [Line]) -> String {
        var text = heading + "\n"
        for (k, line) in lines.enumerated() {
            text += ParameterKind.plain(line.point.time) + " " + ParameterKind.plain(line.point.frequency)
            if line.curvature != 0, k + 1 < lines.count { text += " " + ParameterKind.plain(line.curvature) }
            text += "\n"
        }
        return text
    }

    /// The points of `text` as a curve (the last point's curvature, having no segment, is
    /// dropped). Throws on the first line that is not `time frequency [curvature]`, has a
    /// time before the previous line's, or a curvature outside -1...1; and when there is
    /// no point at all (line 0).
    public static func curve(_ text: String) throws(Problem) -> EditableCurve {
        var points: [CurvePoint] = []
        var curvatures: [Double] = []
        var number = 0
        var pendingCurvature = 0.0
        // In bytes: Embedded Swift splits no Characters without the Unicode tables.
        for raw in Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false) {
            number += 1
            let words = raw.split { $0 == 32 || $0 == 9 || $0 == 13 || $0 == UInt8(ascii: ",") }
            guard let first = words.first, first.first != UInt8(ascii: "#") else { continue }
            let fields = words.map { String(decoding: $0, as: UTF8.self) }
            func fail(_ problem: String) -> Problem { Problem(line: number, problem: problem) }
            guard fields.count == 2 || fields.count == 3 else {
                throw fail("expected \"time frequency [curvature]\", got " + String(fields.count) + " fields")
            }
            let time: Double
            let frequency: Double
            do throws(PitchText.Problem) {
                time = try PitchText.time(fields[0])
                frequency = try PitchText.frequency(fields[1])
            } catch {
                throw fail(error.description)
            }
            if let previous = points.last, time < previous.time {
                throw fail("time " + ParameterKind.plain(time) + " s comes before the previous point's " + ParameterKind.plain(previous.time) + " s")
            }
            var curvature = 0.0
            if fields.count == 3 {
                let text = fields[2]
                guard let c = NumberText.double(text), c.isFinite, SegmentCurvature.range.contains(c) else {
                    throw fail("curvature \"" + text + "\" is not a number in -1...1 (0 is straight)")
                }
                curvature = c
            }
            if !points.isEmpty { curvatures.append(pendingCurvature) }
            points.append(CurvePoint(time: time, frequency: frequency))
            pendingCurvature = curvature
        }
        guard !points.isEmpty else { throw Problem(line: 0, problem: "holds no points (one \"time frequency\" line each)") }
        return EditableCurve(points: points, curvatures: curvatures)
    }
}
