import ToneShaperParameters

/// The curve's points as a plugin and its editor window exchange them: a flat list of
/// numbers, time then frequency of each point (seconds within the cycle, Hz as heard),
/// at most ``maximumSent`` points a message. A curve with more points (a document of the
/// node's, up to ``ToneShapeLimits/maximumPoints``) is sent reduced to that many
/// (``reduced(_:to:)``): the window shows its outline, and an edit there replaces the curve
/// with the outline edited, as drawing freehand over it would.
public enum PluginPoints {
    /// The most points one message carries: 16 bytes each, so a message with its headers
    /// fits the 64 KiB atom buffers the plugin asks of its host (``messageBytes``).
    public static let maximumSent = 4000

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
        guard flat.count >= 2, flat.count % 2 == 0, flat.count / 2 <= ToneShapeLimits.maximumPoints else { return nil }
        var points: [CurvePoint] = []
        points.reserveCapacity(flat.count / 2)
        for i in stride(from: 0, to: flat.count, by: 2) { points.append(CurvePoint(time: flat[i], frequency: flat[i + 1])) }
        do throws(ControlError) {
            try ToneShape.checkPoints(points, duration: duration)
        } catch {
            return nil
        }
        return points
    }
}
