import ToneShaperDSP
import ToneShaperParameters

/// The owner of every plan's memory on the side that builds plans (the node's controller,
/// the plugin's worker), never the audio thread: a plan crosses to the audio thread as a
/// `RenderPlan` of raw pointers into its `CurveStorage`, and the storage is kept here until
/// the audio side hands that plan back by its id. Not copyable, so no two owners free the
/// same storage; not `Sendable`, so it stays on the thread that made it.
///
/// At most `maximumLive` plans are live at once once an engine runs: every plan sent to a
/// running renderer comes from `issue`, which refuses beyond the bound, so the lists a plan
/// passes through on its way back can be sized for that many and a plan is never dropped.
public struct PlanKeeper: ~Copyable {
    /// Plans built and not yet handed back at which `issue` refuses: when the audio thread
    /// stops taking changes, a flood of new curves must not pile up memory without bound.
    public static let maximumLive = 8

    private var storages: [CurveStorage] = []
    private var nextID = 1

    public init() {}

    /// Plans built and not yet handed back.
    public var liveCount: Int { storages.count }

    /// Whether `issue` would build a plan now.
    public var hasRoom: Bool { storages.count < PlanKeeper.maximumLive }

    /// A plan of `curve` at `sampleRate`, kept until it is handed back. Only for an engine's
    /// first plan (a new renderer's, an offline engine's): a plan for a running renderer
    /// comes from `issue`.
    public mutating func build(_ curve: CurveDescription, sampleRate: Double) -> RenderPlan {
        let storage = CurveStorage(curve: curve, sampleRate: sampleRate, id: nextID)
        nextID += 1
        storages.append(storage)
        return storage.plan
    }

    /// A plan for a running renderer, or nil while `maximumLive` plans are live (the
    /// renderer checks the bound as plans arrive).
    public mutating func issue(_ curve: CurveDescription, sampleRate: Double) -> RenderPlan? {
        guard hasRoom else { return nil }
        return build(curve, sampleRate: sampleRate)
    }

    /// Frees the storage of the plan with this id: the audio side handed it back, or it
    /// was never sent. False when no live plan has the id (handed back twice, or never built).
    @discardableResult
    public mutating func release(storageID: Int) -> Bool {
        guard let i = storages.firstIndex(where: { $0.id == storageID }) else { return false }
        storages.remove(at: i)
        return true
    }

    /// The storage of a live plan (its Nyquist flag, say).
    public func storage(id: Int) -> CurveStorage? { storages.first { $0.id == id } }
}
