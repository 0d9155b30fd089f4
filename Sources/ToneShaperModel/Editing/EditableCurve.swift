import ToneShaperParameters

/// A curve as an editor edits it: its points (seconds within the cycle, Hz as heard) and
/// each segment's curvature (``SegmentCurvature``), one a segment always, 0 for a straight
/// one. The operations on a selection (``CurveSelection``) that both editors share, the
/// browser page through the node and the plugin's window, live here, so the two edit alike.
///
/// Every operation keeps the curve playable: times within the cycle and in order, each
/// frequency within the range given, at least one point. A curvature belongs to the point
/// its segment starts at, so it travels with that point when points are moved past others.
public struct EditableCurve: Equatable, Sendable {
    /// The points in time order.
    public private(set) var points: [CurvePoint]
    /// One curvature a segment (`points.count - 1` of them), in -1...1.
    public private(set) var curvatures: [Double]

    /// `points` with `curvatures` (a document's: empty when every segment is straight, else
    /// one a segment; anything else, or a value outside -1...1, counts as straight).
    public init(points: [CurvePoint], curvatures: [Double] = []) {
        self.points = points
        let segments = max(points.count - 1, 0)
        if curvatures.count == segments {
            self.curvatures = curvatures.map { $0.isFinite ? min(max($0, -1), 1) : 0 }
        } else {
            self.curvatures = [Double](repeating: 0, count: segments)
        }
    }

    /// The curvatures as a document keeps them: empty while every segment is straight.
    public var documentCurvatures: [Double] { curvatures.contains { $0 != 0 } ? curvatures : [] }

    // MARK: - Selecting

    /// Every point.
    public var all: CurveSelection { CurveSelection(0..<points.count) }

    /// The points inside a rubber band: times within `times`, frequencies within `frequencies`.
    public func points(inTimes times: ClosedRange<Double>, frequencies: ClosedRange<Double>) -> CurveSelection {
        CurveSelection(points.indices.filter { times.contains(points[$0].time) && frequencies.contains(points[$0].frequency) })
    }

    /// The box around the selected points (nil when none is selected).
    public func bounds(of selection: CurveSelection) -> (times: ClosedRange<Double>, frequencies: ClosedRange<Double>)? {
        let chosen = selection.indices.filter { points.indices.contains($0) }
        guard let first = chosen.first else { return nil }
        var t = (points[first].time, points[first].time)
        var f = (points[first].frequency, points[first].frequency)
        for k in chosen {
            t = (min(t.0, points[k].time), max(t.1, points[k].time))
            f = (min(f.0, points[k].frequency), max(f.1, points[k].frequency))
        }
        return (t.0...t.1, f.0...f.1)
    }

    // MARK: - Segments

    /// Where segment `k`'s curvature handle sits: the segment's middle in time, and the
    /// frequency the segment plays there (linear in Hz along its progress).
    public func handle(ofSegment k: Int) -> CurvePoint {
        let a = points[k]
        let b = points[k + 1]
        let progress = SegmentCurvature.progress(0.5, curvatures[k])
        return CurvePoint(time: (a.time + b.time) / 2, frequency: a.frequency + (b.frequency - a.frequency) * progress)
    }

    /// Segment `k` given curvature `c` (clamped to -1...1).
    public mutating func setCurvature(_ c: Double, ofSegment k: Int) {
        guard curvatures.indices.contains(k), c.isFinite else { return }
        curvatures[k] = min(max(c, -1), 1)
    }

    // MARK: - Transforming the selection

    /// Moves the selection by `seconds` in time and `semitones` in pitch, as far as the cycle
    /// (0...`duration`) and `range` let the whole selection go (it keeps its shape). Points
    /// moved past others are put back in time order. Returns the selection, renumbered.
    public mutating func move(
        _ selection: CurveSelection, bySeconds seconds: Double, semitones: Double, duration: Double, range: ClosedRange<Double>
    ) -> CurveSelection {
        guard let box = bounds(of: selection), seconds.isFinite, semitones.isFinite else { return selection }
        let dt = min(max(seconds, -box.times.lowerBound), duration - box.times.upperBound)
        var ratio = PitchText.ratio(semitones: semitones)
        ratio = min(max(ratio, range.lowerBound / box.frequencies.lowerBound), range.upperBound / box.frequencies.upperBound)
        return transform(selection, outgoing: curvatures + [0], duration: duration, range: range) { p in
            CurvePoint(time: p.time + dt, frequency: p.frequency * ratio)
        }
    }

    /// Stretches the selection about its own centre: times by `timeFactor` about the middle
    /// of its span, pitches by `pitchFactor` in log frequency about the middle of its span
    /// there (the geometric mean of its lowest and highest frequency). A negative factor
    /// flips as it stretches. What leaves the cycle or `range` is clamped to it. A factor of
    /// exactly 1 leaves its axis's values bit for bit as they were (a stretch in time alone
    /// does not move the pitches by the rounding of a logarithm and back).
    public mutating func stretch(
        _ selection: CurveSelection, timeFactor: Double, pitchFactor: Double, duration: Double, range: ClosedRange<Double>
    ) -> CurveSelection {
        guard let box = bounds(of: selection), timeFactor.isFinite, pitchFactor.isFinite else { return selection }
        let centreTime = (box.times.lowerBound + box.times.upperBound) / 2
        let centreFrequency = (box.frequencies.lowerBound * box.frequencies.upperBound).squareRoot()
        let outgoing = timeFactor < 0 ? outgoingFlipped(selection) : curvatures + [0]
        return transform(selection, outgoing: outgoing, duration: duration, range: range) { p in
            let time = timeFactor == 1 ? p.time : centreTime + (p.time - centreTime) * timeFactor
            guard pitchFactor != 1 else { return CurvePoint(time: time, frequency: p.frequency) }
            let octaves = ParameterSpec.log2(p.frequency / centreFrequency) * pitchFactor
            return CurvePoint(time: time, frequency: centreFrequency * FastPower.exp2(octaves))
        }
    }

    /// Mirrors the selection in time about its centre (the last point first): each
    /// segment inside it is played backwards, so its curvature changes sign.
    public mutating func flipHorizontally(_ selection: CurveSelection, duration: Double, range: ClosedRange<Double>) -> CurveSelection {
        stretch(selection, timeFactor: -1, pitchFactor: 1, duration: duration, range: range)
    }

    /// Mirrors the selection in pitch (log frequency) about its centre: high becomes low.
    public mutating func flipVertically(_ selection: CurveSelection, duration: Double, range: ClosedRange<Double>) -> CurveSelection {
        stretch(selection, timeFactor: 1, pitchFactor: -1, duration: duration, range: range)
    }

    /// Removes the selected points; the last point of the curve stays (a curve has at least
    /// one). The segment that joins the points either side of a removed run keeps the
    /// curvature of the one before it. True when anything was removed.
    @discardableResult
    public mutating func delete(_ selection: CurveSelection) -> Bool {
        var keep = points.indices.filter { !selection.contains($0) }
        if keep.isEmpty, let first = points.indices.first { keep = [first] }
        guard keep.count < points.count else { return false }
        rebuild(order: keep, outgoing: curvatures + [0])
        return true
    }

    // MARK: - Clipboard

    /// The selected points as clipboard text (``PointsText``), with the curvatures of the
    /// segments between them.
    public func copy(_ selection: CurveSelection) -> String {
        let chosen = selection.indices.filter { points.indices.contains($0) }
        var lines: [PointsText.Line] = []
        for (n, k) in chosen.enumerated() {
            let joined = n + 1 < chosen.count && chosen[n + 1] == k + 1
            lines.append(PointsText.Line(point: points[k], curvature: joined ? curvatures[k] : 0))
        }
        return PointsText.text(lines)
    }

    /// Pastes `clip` (points read from clipboard text) at its own times moved by `offset`
    /// seconds: the points of the curve within the pasted span give way to it, points past
    /// the cycle's end are left out, frequencies are clamped to `range`. Returns the
    /// pasted points as the new selection (empty when nothing fitted).
    public mutating func paste(_ clip: EditableCurve, offset: Double = 0, duration: Double, range: ClosedRange<Double>) -> CurveSelection {
        var pasted: [(point: CurvePoint, curvature: Double)] = []
        for (k, p) in clip.points.enumerated() {
            let t = p.time + offset
            guard t >= 0, t <= duration else { continue }
            pasted.append(
                (
                    CurvePoint(time: t, frequency: min(max(p.frequency, range.lowerBound), range.upperBound)),
                    k < clip.curvatures.count ? clip.curvatures[k] : 0
                ))
        }
        guard let first = pasted.first, let last = pasted.last else { return CurveSelection() }
        var merged: [(point: CurvePoint, curvature: Double, pasted: Bool)] = []
        for (k, p) in points.enumerated() where p.time < first.point.time || p.time > last.point.time {
            merged.append((p, k < curvatures.count ? curvatures[k] : 0, false))
        }
        let at = merged.firstIndex { $0.point.time > last.point.time } ?? merged.count
        merged.insert(contentsOf: pasted.enumerated().map { n, p in (p.point, n + 1 < pasted.count ? p.curvature : 0, true) }, at: at)
        points = merged.map { $0.point }
        curvatures = merged.dropLast().map { $0.curvature }
        return CurveSelection(merged.indices.filter { merged[$0].pasted })
    }

    // MARK: - Helpers

    /// Applies `change` to the selected points, clamps them to the cycle and the range, and
    /// puts every point back in time order (each carrying its segment's curvature).
    private mutating func transform(
        _ selection: CurveSelection, outgoing: [Double], duration: Double, range: ClosedRange<Double>, _ change: (CurvePoint) -> CurvePoint
    ) -> CurveSelection {
        for k in selection.indices where points.indices.contains(k) {
            let p = change(points[k])
            points[k] = CurvePoint(
                time: min(max(p.time, 0), duration), frequency: min(max(p.frequency, range.lowerBound), range.upperBound))
        }
        // Stable: points at the same time keep their order.
        let order = points.indices.sorted { a, b in
            points[a].time != points[b].time ? points[a].time < points[b].time : a < b
        }
        let renumbered = rebuild(order: order, outgoing: outgoing)
        return CurveSelection(selection.indices.compactMap { renumbered[$0] })
    }

    /// The curve made of the points at `order` (old indices), each starting its segment
    /// with its `outgoing` curvature (one a point). Returns each old index's new one (nil
    /// when dropped).
    @discardableResult
    private mutating func rebuild(order: [Int], outgoing: [Double]) -> [Int?] {
        var renumbered = [Int?](repeating: nil, count: points.count)
        for (new, old) in order.enumerated() { renumbered[old] = new }
        let carried = order.map { outgoing[$0] }
        points = order.map { points[$0] }
        curvatures = Array(carried.dropLast())
        return renumbered
    }

    /// Each point's outgoing curvature (the segment it starts; 0 for the last point) as it
    /// will be once the selection is flipped in time: within each run of neighbouring
    /// selected points the segment from j to j+1 will run from j+1 to j, so point j+1 takes
    /// its curvature, negated; the run's first point, last after the flip, takes the
    /// curvature of the segment that led out of the run.
    private func outgoingFlipped(_ selection: CurveSelection) -> [Double] {
        let outgoing = curvatures + [0]
        var flipped = outgoing
        var runStart: Int?
        for k in points.indices {
            guard selection.contains(k) else { continue }
            if runStart == nil { runStart = k }
            guard !selection.contains(k + 1), let start = runStart else { continue }
            for j in start..<k { flipped[j + 1] = -outgoing[j] }
            flipped[start] = outgoing[k]
            runStart = nil
        }
        return flipped
    }
}

/// Which points of a curve are selected: their indices, in order, each once.
public struct CurveSelection: Equatable, Sendable {
    public private(set) var indices: [Int]

    /// The points at `indices` (any order, repeats ignored).
    public init(_ indices: some Sequence<Int> = [Int]()) {
        var sorted: [Int] = []
        for k in indices where k >= 0 { sorted.append(k) }
        sorted.sort()
        var unique: [Int] = []
        for k in sorted where unique.last != k { unique.append(k) }
        self.indices = unique
    }

    public var isEmpty: Bool { indices.isEmpty }
    public var count: Int { indices.count }
    public func contains(_ k: Int) -> Bool { indices.contains(k) }

    /// Shift-click: the point added, or taken out when it was in.
    public mutating func toggle(_ k: Int) {
        if let at = indices.firstIndex(of: k) { indices.remove(at: at) } else { self = CurveSelection(indices + [k]) }
    }

    /// The selection with `other`'s points too (a rubber band drawn with Shift).
    public func union(_ other: CurveSelection) -> CurveSelection { CurveSelection(indices + other.indices) }
}
