import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// What the audio thread of a plugin asks of the thread that builds plans (the LV2
/// worker): plain data, so it crosses the host's work queue as bytes.
public enum InstrumentRequest: Sendable, BitwiseCopyable, Equatable {
    /// A parameter that needs a new plan (wave, scale, duration, fidelity, echo offset,
    /// Fourier terms, anti-alias) moved to this value (a control port, or a ramped one the
    /// builder's copy of the shape must follow).
    case set(ParameterID, Double)
    /// A MIDI controller mapped to such a parameter moved to `value` (0...127).
    case controller(ParameterID, UInt8)
    /// The audio side no longer reads this plan: free its storage.
    case release(storageID: Int)
    /// MIDI learn mapped `controller` to the parameter.
    case learned(controller: UInt8, ParameterID)
    /// Program change: the host's `program`th built-in shape, played with the player's
    /// MIDI setup (`InstrumentShape.keepingPerformance(of:)`). The builder knows no
    /// documents: the host reads the document and calls `replace(with:)`.
    case program(UInt8)
}

/// What the builder hands back to the audio thread.
public enum InstrumentResponse: Sendable, BitwiseCopyable {
    /// A new plan to cross-fade to.
    case plan(RenderPlan)
    /// A whole new shape (a document loaded, a state restored): its plan, and every
    /// parameter's value in the table's order, which the audio side ramps to.
    case shape(RenderPlan, InlineArray<32, Double>)
}

extension InstrumentRequest {
    /// Whether a request's bytes (as ``PluginEngine/work(_:answer:)`` takes them) change the
    /// curve as it plays: a program replaces it, a new duration stretches it, a new range
    /// maps it. An editor window is then sent the curve again.
    public static func changesCurve(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count == MemoryLayout<InstrumentRequest>.size, let base = payload.baseAddress else { return false }
        switch base.loadUnaligned(as: InstrumentRequest.self) {
        case .program, .set(.duration, _), .set(.minFrequency, _), .set(.maxFrequency, _): return true
        default: return false
        }
    }
}
