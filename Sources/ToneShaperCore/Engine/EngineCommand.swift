/// A change for the audio thread. Plain data, so it crosses the lock-free queue without
/// allocation; prepared (validated, plans built) on the control side.
public enum EngineCommand: Sendable {
    /// Ramp the live frequency range; the curve is remapped affinely onto it.
    case setFrequencyRange(min: Double, max: Double)
    /// Ramp the master gain (linear, 0...1).
    case setAmplitude(Double)
    /// Ramp the echo voice's gain (0...1).
    case setEchoVolume(Double)
    /// Cross-fade to a new plan: a new curve, wave, scaling, echo offset, duration,
    /// fidelity or sample rate. Phase and cycle position carry over.
    case replacePlan(RenderPlan)
    /// Fade in from the start of the cycle (or back up, if a fade-out is under way).
    case play
    /// Fade out and hold.
    case stop

    public var replacesPlan: Bool {
        if case .replacePlan = self { return true }
        return false
    }
}
