import ToneShaperAudio
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// The plan-building half of a plugin, on a thread that may allocate (the LV2 worker): it
/// keeps the shape as every change leaves it, builds a plan whenever a change needs one,
/// and frees the plans the audio side hands back. Not copyable and not `Sendable`: one
/// thread owns it, as `PlanKeeper` requires.
public struct InstrumentBuilder: ~Copyable {
    public private(set) var shape: InstrumentShape
    public let sampleRate: Double
    private var plans = PlanKeeper()
    /// What a change needed while `PlanKeeper.maximumLive` plans were live (a plan, or a
    /// whole shape's plan and values): handed over as soon as a plan comes back.
    private enum Owed { case nothing, plan, shape }
    private var owed = Owed.nothing

    public init(shape: InstrumentShape, sampleRate: Double) {
        precondition(sampleRate > 0, "a sample rate above 0")
        self.shape = shape
        self.sampleRate = sampleRate
    }

    /// The plan a player starts with.
    public mutating func firstPlan() -> RenderPlan { plans.build(shape.curve, sampleRate: sampleRate) }

    /// Plans built and not yet handed back.
    public var livePlanCount: Int { plans.liveCount }

    /// Takes a request of the audio side; returns what to hand back to it, if anything.
    public mutating func handle(_ request: InstrumentRequest) -> InstrumentResponse? {
        switch request {
        case .set(let id, let value):
            set(id, value)
        case .controller(let id, let value):
            if let v = shape.parameters.row(id).controller.value(value, cycle: shape.value(.duration)) { set(id, v) }
        case .release(let id):
            plans.release(storageID: id)
        case .learned(let controller, let id):
            shape.controllers[Int(controller)] = id
        case .program:
            break  // the host's: it reads the document and calls `replace(with:)`
        }
        return owedPlan()
    }

    /// Sets one parameter; a plan is owed when the model's planner says the move needs one.
    private mutating func set(_ id: ParameterID, _ value: Double) {
        let before = shape.value(id)
        let taken = shape.set(id, value)
        if (ShapeChange.needsNewPlan(id, from: before, to: taken) || shape.movesTuning(id, from: before, to: taken)) && owed == .nothing {
            owed = .plan
        }
    }

    /// Replaces the MIDI keys' tuning (a scale or keyboard map file loaded; nil: 12-TET): it
    /// travels in a new plan.
    public mutating func setTuning(_ tuning: Tuning?) -> InstrumentResponse? {
        shape.tuning = tuning
        if owed == .nothing { owed = .plan }
        return owedPlan()
    }

    /// Replaces the whole shape (a document loaded, a state restored): the audio side gets
    /// its plan and its values, now or, while the plans in flight are at their bound, when
    /// one comes back (the shape is kept either way).
    public mutating func replace(with new: InstrumentShape) -> InstrumentResponse? {
        shape = new
        owed = .shape
        return owedPlan()
    }

    /// Replaces the curve's points (an editor window's, as heard now), and the segments'
    /// curvatures when given: a plan is owed.
    public mutating func setPoints(_ new: [CurvePoint], curvatures: [Double]? = nil) -> InstrumentResponse? {
        shape.setPoints(new, curvatures: curvatures)
        if owed == .nothing { owed = .plan }
        return owedPlan()
    }

    private mutating func owedPlan() -> InstrumentResponse? {
        guard owed != .nothing, let plan = plans.issue(shape.curve, sampleRate: sampleRate) else { return nil }
        defer { owed = .nothing }
        guard owed == .shape else { return .plan(plan) }
        var values = InlineArray<32, Double>(repeating: 0)
        for i in 0..<shape.parameters.count { values[i] = shape.value(at: i) }
        return .shape(plan, values)
    }
}
