import ToneShaperParameters

/// The changes a command makes to a tone shape, each checked against the parameter table
/// first. A refused change leaves the shape as it was (every method returns a new shape).
extension ToneShape {
    /// This shape with one parameter set, after checking the value against the table and
    /// against the rest of the shape.
    public func setting(_ id: ParameterID, to value: ParameterValue) throws(ControlError) -> ToneShape {
        let spec = ParameterTable.spec(id)
        let canonical = try spec.canonical(value)
        if let problem = spec.problem(with: canonical, in: self) { throw problem }
        var shape = self
        spec.apply(canonical, to: &shape)
        return shape
    }

    /// Several parameters as one change: all of them, or none if any is refused. Both ends
    /// of the range are set together, so that their order cannot make one of them refuse.
    public func setting(_ values: [(ParameterID, ParameterValue)]) throws(ControlError) -> ToneShape {
        var result = self
        var rest = values
        let lo = values.last { $0.0 == .minFrequency }
        let hi = values.last { $0.0 == .maxFrequency }
        if let lo, let hi {
            let min = try ParameterTable.spec(.minFrequency).canonical(lo.1)
            let max = try ParameterTable.spec(.maxFrequency).canonical(hi.1)
            result = try result.settingFrequencyRange(min: min.real, max: max.real)
            rest.removeAll { $0.0 == .minFrequency || $0.0 == .maxFrequency }
        }
        for (id, value) in rest { result = try result.setting(id, to: value) }
        return result
    }

    /// Replaces the frequency range, remapping the curve onto it.
    public func settingFrequencyRange(min lo: Double, max hi: Double) throws(ControlError) -> ToneShape {
        func fail(_ problem: String) -> ControlError { ControlError(.command(.frequencyRange), problem) }
        let limit = FrequencyLimit.range
        guard lo.isFinite, hi.isFinite else { throw fail("expects two finite numbers in Hz, got \(lo) and \(hi)") }
        guard limit.contains(lo), limit.contains(hi) else {
            throw fail(
                "\(ParameterKind.plain(lo))...\(ParameterKind.plain(hi)) Hz is out of range \(ParameterKind.plain(limit.lowerBound))...\(ParameterKind.plain(limit.upperBound)) Hz"
            )
        }
        guard lo <= hi else { throw fail("minimum \(ParameterKind.plain(lo)) Hz is above maximum \(ParameterKind.plain(hi)) Hz") }
        var shape = self
        shape.remapFrequencyRange(min: lo, max: hi)
        return shape
    }

    /// Both echo values as one change (a new plan for the offset, a ramp for the volume).
    public func settingEcho(offset: ParameterValue, volume: ParameterValue) throws(ControlError) -> ToneShape {
        try setting(.echoOffset, to: offset).setting(.echoVolume, to: volume)
    }

    /// MIDI controller `controller` (0...119, not 64) moving parameter `id`; nil unmaps it.
    public func settingController(_ controller: Int, to id: ParameterID?) throws(ControlError) -> ToneShape {
        guard MIDIControllerMap.isMappable(controller) else {
            throw ControlError(.command(.midiMap), "controller \(controller) cannot be mapped; use 0...119 other than 64 (the sustain pedal)")
        }
        if let id, !MIDIControllerMap.canMap(id) {
            throw ControlError(.command(.midiMap), "\(ParameterTable.spec(id).oscPath) cannot be moved by a controller")
        }
        var shape = self
        shape.midiMap[controller] = id
        return shape
    }

    /// Replaces the curve with points (t0, f0, t1, f1, ...), checked as a document's points
    /// are. The range widens to take in points that leave it, so a later range change maps
    /// them sensibly.
    public func settingPoints(_ flat: [Double]) throws(ControlError) -> ToneShape {
        guard !flat.isEmpty, flat.count % 2 == 0 else {
            throw ControlError(
                .command(.points), "expects pairs t0 f0 t1 f1 ... (seconds, Hz), got \(flat.count) number\(flat.count == 1 ? "" : "s")")
        }
        var points: [CurvePoint] = []
        points.reserveCapacity(flat.count / 2)
        for i in stride(from: 0, to: flat.count, by: 2) { points.append(CurvePoint(time: flat[i], frequency: flat[i + 1])) }
        try ToneShape.checkPoints(points, duration: duration)
        var shape = self
        // A segment keeps its bend while the points keep their number (a point moved);
        // a curve of another number of points starts straight.
        if points.count != shape.points.count { shape.curvatures = [] }
        shape.points = points
        shape.minFrequency = Swift.min(shape.minFrequency, points.map { $0.frequency }.min()!)
        shape.maxFrequency = Swift.max(shape.maxFrequency, points.map { $0.frequency }.max()!)
        return shape
    }

    /// Sets each segment's curvature (one number in -1...1 a segment, the points less one;
    /// none, or all 0: every segment straight).
    public func settingCurvatures(_ curvatures: [Double]) throws(ControlError) -> ToneShape {
        func fail(_ problem: String) -> ControlError { ControlError(.command(.points), problem) }
        let segments = points.count - 1
        guard curvatures.isEmpty || curvatures.count == segments else {
            throw fail("expects one curvature a segment: \(segments) for \(points.count) points, got \(curvatures.count)")
        }
        for (k, c) in curvatures.enumerated() where !(c.isFinite && SegmentCurvature.range.contains(c)) {
            throw fail("curvature \(k) must be in -1...1 (0 is straight), got \(ParameterKind.plain(c))")
        }
        var shape = self
        shape.curvatures = curvatures.contains { $0 != 0 } ? curvatures : []
        return shape
    }

    /// The one check of a curve's points, for documents and for live changes alike.
    public static func checkPoints(_ points: [CurvePoint], duration: Double) throws(ControlError) {
        func fail(_ problem: String) -> ControlError { ControlError(.command(.points), problem) }
        guard !points.isEmpty else { throw fail("must hold at least one [time, frequency] pair") }
        guard points.count <= ToneShapeLimits.maximumPoints else {
            throw fail("holds \(points.count) points, more than the \(ToneShapeLimits.maximumPoints) allowed")
        }
        let limit = FrequencyLimit.range
        var previous = 0.0
        for (k, p) in points.enumerated() {
            guard p.time.isFinite, p.frequency.isFinite else { throw fail("point \(k) is not a finite number") }
            guard p.time >= 0, p.time <= duration else {
                throw fail("point \(k): time \(ParameterKind.plain(p.time)) s is outside the cycle 0...\(ParameterKind.plain(duration)) s")
            }
            guard limit.contains(p.frequency) else {
                throw fail(
                    "point \(k): frequency \(ParameterKind.plain(p.frequency)) Hz is outside \(ParameterKind.plain(limit.lowerBound))...\(ParameterKind.plain(limit.upperBound)) Hz"
                )
            }
            guard p.time >= previous else {
                throw fail(
                    "point \(k): time \(ParameterKind.plain(p.time)) s comes before the previous point's \(ParameterKind.plain(previous)) s; sort the points by time"
                )
            }
            previous = p.time
        }
    }

    /// Every relation the table declares between parameters (a decoded document's check).
    func checkRelations() throws(ControlError) {
        for spec in ParameterTable.all {
            if let problem = spec.problem(with: spec.value(in: self), in: self) { throw problem }
        }
        try ToneShape.checkPoints(points, duration: duration)
    }
}

extension ToneShape {
    /// One parameter's value, as the table reads it.
    public func parameterValue(_ id: ParameterID) -> ParameterValue { ParameterTable.spec(id).value(in: self) }
}
