import ToneShaperParameters

/// A small picture of a shape's curve, for a library's list: where the curve runs across
/// one cycle, as the engine plays it (held before the first point and after the last,
/// each segment bent by its curvature), in a unit square the editor scales to its
/// thumbnail. Plain Swift, so the plugin's window can draw the same outline.
public enum ShapeThumbnail {
    /// The outline of `shape`: (x, y) pairs in 0...1, x the time across the cycle, y the
    /// frequency within the shape's range (on a logarithmic scale when the range starts
    /// above 0, as a musician hears it). `columns` evenly spaced samples plus every point's
    /// own time, so corners stay sharp; sorted by x.
    public static func outline(_ shape: ToneShape, columns: Int = 48) -> [(x: Double, y: Double)] {
        guard !shape.points.isEmpty, shape.duration > 0, columns >= 1 else { return [] }
        var times: [Double] = []
        times.reserveCapacity(columns + 1 + shape.points.count)
        for i in 0...columns { times.append(shape.duration * Double(i) / Double(columns)) }
        for point in shape.points where point.time > 0 && point.time < shape.duration { times.append(point.time) }
        times.sort()
        // A point on a column is drawn once.
        var distinct: [Double] = []
        distinct.reserveCapacity(times.count)
        for t in times where distinct.last != t { distinct.append(t) }
        let low = shape.minFrequency
        let high = shape.maxFrequency
        let logarithmic = low > 0 && high > low
        func height(_ f: Double) -> Double {
            guard high > low else { return 0.5 }
            let u = logarithmic ? ParameterSpec.log2(Swift.max(f, low) / low) / ParameterSpec.log2(high / low) : (f - low) / (high - low)
            return Swift.min(1, Swift.max(0, u))
        }
        return distinct.map { t in (t / shape.duration, height(frequency(of: shape, at: t))) }
    }

    /// The curve's frequency at time `t`, as the engine interpolates it (linear in Hz along
    /// the segment's progress, ``SegmentCurvature``).
    public static func frequency(of shape: ToneShape, at t: Double) -> Double {
        let points = shape.points
        if t <= points[0].time { return points[0].frequency }
        for k in 1..<Swift.max(1, points.count) where t <= points[k].time {
            let a = points[k - 1]
            let b = points[k]
            guard b.time > a.time else { return b.frequency }
            let c = shape.curvatures.count == points.count - 1 ? shape.curvatures[k - 1] : 0
            return a.frequency + (b.frequency - a.frequency) * SegmentCurvature.progress((t - a.time) / (b.time - a.time), c)
        }
        return points[points.count - 1].frequency
    }
}
