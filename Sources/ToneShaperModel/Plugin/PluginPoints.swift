import ToneShaperParameters

/// The curve's points as a plugin and its editor window exchange them: a flat list of
/// numbers, time then frequency of each point (seconds within the cycle, Hz as heard),
/// at most ``maximumSent`` points a message; when a segment is curved, a NaN and each
/// segment's curvature follow the points (``flat(_:curvatures:)``), for a curve of at most
/// ``maximumCurvedSent`` points. A curve with more points (a document of the
/// node's, up to ``ToneShapeLimits/maximumPoints``) is sent reduced to that many
/// (``reduced(_:to:)``): the window shows its outline, and an edit there replaces the curve
/// with the outline edited, as drawing freehand over it would.
public enum PluginPoints {
    /// The most points one message carries: 16 bytes each, so a message with its headers
    /// fits the 64 KiB atom buffers the plugin asks of its host (``messageBytes``).
    public static let maximumSent = 4000

    /// The most points a message with curvatures carries (24 bytes a point): a larger
    /// curved curve is sent as its outline, straight (``flat(_:curvatures:)``).
    public static let maximumCurvedSent = 2600

    /// The numbers of a message: t0, f0, t1, f1, ..., then, when `curvatures` has one a
    /// segment and some segment is curved, a NaN (not a time: the points' end) and the
    /// curvatures c0, c1, .... A curve of more than ``maximumCurvedSent`` points goes straight.
    public static func flat(_ points: [CurvePoint], curvatures: [Double] = []) -> [Double] {
        var numbers: [Double] = []
        let curved = curvatures.count == points.count - 1 && curvatures.contains { $0 != 0 } && points.count <= maximumCurvedSent
        numbers.reserveCapacity(points.count * (curved ? 3 : 2))
        for p in points {
            numbers.append(p.time)
            numbers.append(p.frequency)
        }
        if curved {
            numbers.append(.nan)
            numbers.append(contentsOf: curvatures)
        }
        return numbers
    }

    /// The size of atom buffer the plugin asks for (rsz:minimumSize), with room for the
    /// largest points message, its event and sequence headers.
    public static let messageBytes = 65536

    /// At most `limit` points that keep the outline of `points`: the points are split into
    /// `limit / 2` runs in time order, and each run gives its lowest and highest point (in
    /// time order), so no peak or dip is lost. The first and last points are kept.
    public static func reduced(_ points: [CurvePoint], to limit: Int = maximumSent) -> [CurvePoint] {
        guard points.count > limit, limit >= 4 else { return points }
        let runs = limit / 2 - 1
        var result: [CurvePoint] = []
        result.reserveCapacity(limit)
        result.append(points[0])
        let inner = points.count - 2
        for run in 0..<runs {
            let start = 1 + inner * run / runs
            let end = 1 + inner * (run + 1) / runs
            guard start < end else { continue }
            var low = start
            var high = start
            for k in start..<end {
                if points[k].frequency < points[low].frequency { low = k }
                if points[k].frequency > points[high].frequency { high = k }
            }
            if low == high {
                result.append(points[low])
            } else {
                result.append(points[min(low, high)])
                result.append(points[max(low, high)])
            }
        }
        result.append(points[points.count - 1])
        return result
    }

    /// Points from a flat list (t0, f0, t1, f1, ...), checked as a document's points are
    /// (``ToneShape/checkPoints(_:duration:)``) against a cycle of `duration` seconds; nil
    /// when the list is odd, empty, too long or breaks a rule (a time outside the cycle or
    /// out of order, a frequency outside the allowed range, a value not finite).
    public static func points(flat: UnsafeBufferPointer<Double>, duration: Double) -> [CurvePoint]? {
        curve(flat: flat, duration: duration)?.points
    }

    /// The points and curvatures of a message (``flat(_:curvatures:)``), the points checked as
    /// ``points(flat:duration:)`` checks them and the curvatures to be one a segment in -1...1;
    /// nil otherwise. The curvatures are empty when every segment is straight.
    public static func curve(flat: UnsafeBufferPointer<Double>, duration: Double) -> (points: [CurvePoint], curvatures: [Double])? {
        // The points end at a NaN, when curvatures follow.
        var end = 0
        while end < flat.count, !flat[end].isNaN { end += 1 }
        guard end >= 2, end % 2 == 0, end / 2 <= ToneShapeLimits.maximumPoints else { return nil }
        var points: [CurvePoint] = []
        points.reserveCapacity(end / 2)
        for i in stride(from: 0, to: end, by: 2) { points.append(CurvePoint(time: flat[i], frequency: flat[i + 1])) }
        do throws(ControlError) {
            try ToneShape.checkPoints(points, duration: duration)
        } catch {
            return nil
        }
        var curvatures: [Double] = []
        if end < flat.count {
            guard flat.count - end - 1 == points.count - 1 else { return nil }
            for k in (end + 1)..<flat.count {
                guard flat[k].isFinite, SegmentCurvature.range.contains(flat[k]) else { return nil }
                curvatures.append(flat[k])
            }
            if !curvatures.contains(where: { $0 != 0 }) { curvatures = [] }
        }
        return (points, curvatures)
    }
}
