import ToneShaperParameters

/// What a change of the shape asks of the audio side, decided here for every host (the
/// node's controller and the plugins' builders): a ramp for each parameter that ramps and
/// moved, the controller map's changes, and a new plan when a parameter that needs one
/// moved or the points moved other than by the range's remap (a plan keeps the range it
/// was drawn in, and the engine maps it onto the live one).
public struct ShapeChange {
    /// The parameters that ramp and moved, with their new values (as the audio side takes them).
    public var ramps: [(ParameterID, Double)] = []
    /// Controllers whose mapping changed: the parameter each now moves (nil: none).
    public var controllers: [(controller: Int, parameter: ParameterID?)] = []
    /// Whether the audio side needs a new plan, cross-faded.
    public var needsNewPlan = false

    public init(from old: ToneShape, to new: ToneShape) {
        for spec in ParameterTable.all {
            let before = spec.value(in: old)
            let after = spec.value(in: new)
            guard before != after else { continue }
            switch spec.change {
            case .ramp: ramps.append((spec.id, after.real))
            case .newPlan: needsNewPlan = true
            }
        }
        for controller in 0..<128 where new.midiMap[controller] != old.midiMap[controller] {
            controllers.append((controller, new.midiMap[controller]))
        }
        if !needsNewPlan { needsNewPlan = ShapeChange.pointsMoved(from: old, to: new) }
        // A tuning travels in the plan: a new one (or, with a tuning laid out from the root
        // note, a new root) needs a new plan.
        if !needsNewPlan
            && (old.tuning != new.tuning || (new.tuning != nil && new.tuning?.mapping == nil && old.performance.rootNote != new.performance.rootNote))
        {
            needsNewPlan = true
        }
    }

    /// Whether one parameter moving from `old` to `new` (a plugin's control, which moves
    /// one at a time) needs a new plan: the table's `change` column.
    public static func needsNewPlan(_ id: ParameterID, from old: Double, to new: Double) -> Bool {
        old != new && ParameterTable.spec(id).change == .newPlan
    }

    /// Whether the points moved other than by the remap from the old range to the new.
    static func pointsMoved(from a: ToneShape, to b: ToneShape) -> Bool {
        if a.points.count != b.points.count { return true }
        let map = FrequencyMap(fromMin: a.minFrequency, fromMax: a.maxFrequency, toMin: b.minFrequency, toMax: b.maxFrequency)
        for (p, q) in zip(a.points, b.points) {
            if p.time != q.time { return true }
            if abs(map.apply(p.frequency) - q.frequency) > 1e-9 * max(1, abs(q.frequency)) { return true }
        }
        return false
    }
}
