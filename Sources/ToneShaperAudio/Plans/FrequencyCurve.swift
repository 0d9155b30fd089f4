import ToneShaperParameters

/// The drawn curve quantised onto the fidelity grid, u[0...N] (SPEC 3 steps 1 and 2).
///
/// The grid is built once, off the audio thread; sampling it costs one multiply and one
/// linear interpolation per sample whatever the number of points or N, because sample n
/// of a cycle sits at grid position n * N / (S - 1) and needs no search.
public enum FrequencyCurve {
    /// u[0...N] followed by one copy of u[N], so that interpolating at position N reads
    /// inside the buffer. Count: N + 2. `curvatures` (one a segment, in the points' order,
    /// or none: every segment straight) bend the segments between the grid points that were
    /// hit (``SegmentCurvature``); a segment between two grid points takes the curvature
    /// of the segment that ends at its second point.
    public static func grid(points: [CurvePoint], fidelity: Int, curvatures: [Double] = []) -> [Double] {
        precondition(!points.isEmpty && fidelity >= 1)
        let n = fidelity
        let first = points[0].time
        let last = points[points.count - 1].time
        if points.count == 1 || last <= first {
            // One point, or all at one time (the last of them wins): a constant frequency.
            return [Double](repeating: points[points.count - 1].frequency, count: n + 2)
        }
        // Step 1: land each point on an integer grid index; the last one at an index wins.
        var known: [(index: Int, value: Double, point: Int)] = []
        known.reserveCapacity(points.count)
        for (p, point) in points.enumerated() {
            let index = min(n, max(0, Int((point.time - first) * Double(n) / (last - first))))
            if let top = known.last, top.index == index {
                known[known.count - 1].value = point.frequency
                known[known.count - 1].point = p
            } else {
                known.append((index, point.frequency, p))
            }
        }
        let bent = curvatures.count == points.count - 1
        // Step 2: interpolate between the grid points that were hit: linearly (as the
        // reference does, the same arithmetic), or along the segment's curvature.
        var u = [Double](repeating: 0, count: n + 2)
        for k in 0..<(known.count - 1) {
            let (i0, f0, _) = known[k]
            let (i1, f1, p1) = known[k + 1]
            let span = Double(i1 - i0)
            let c = bent && p1 > 0 ? curvatures[p1 - 1] : 0
            for i in i0...i1 {
                if c == 0 {
                    u[i] = f0 + (f1 - f0) * Double(i - i0) / span
                } else {
                    u[i] = f0 + (f1 - f0) * SegmentCurvature.progress(Double(i - i0) / span, c)
                }
            }
        }
        u[n + 1] = u[n]
        return u
    }
}

/// Linear interpolation through points (x, y), holding the end values outside them,
/// walked with a cursor so that a run of increasing positions costs O(1) each.
/// This is the general form of SPEC 3's interpolation, used to check it against the
/// reference's example; the engine uses the fidelity grid, which needs no cursor at all.
public struct PiecewiseLinearCursor {
    public let xs: [Double]
    public let ys: [Double]
    private var segment = 0

    public init(points: [(x: Double, y: Double)]) {
        precondition(!points.isEmpty)
        xs = points.map { $0.x }
        ys = points.map { $0.y }
    }

    /// The value at x. Positions must not decrease between calls (the cursor only walks forward).
    public mutating func value(at x: Double) -> Double {
        if x <= xs[0] { return ys[0] }
        let last = xs.count - 1
        if x >= xs[last] { return ys[last] }
        while segment < last - 1 && xs[segment + 1] <= x { segment += 1 }
        let x0 = xs[segment]
        let x1 = xs[segment + 1]
        return ys[segment] + (ys[segment + 1] - ys[segment]) * (x - x0) / (x1 - x0)
    }
}
