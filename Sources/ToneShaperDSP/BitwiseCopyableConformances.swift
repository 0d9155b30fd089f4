import ToneShaperParameters

// The plain-data types a command carries across the lock-free channel to the audio
// thread (`EngineCommand.replacePlan`). Declaring the conformance makes the compiler refuse
// any stored property that would need retaining or releasing (a class reference, an
// array) on the audio thread.
extension RenderPlan: BitwiseCopyable {}
extension FourierTablePlan: BitwiseCopyable {}
extension WavetableLevel: BitwiseCopyable {}
extension KernelLevel: BitwiseCopyable {}
// A voice's state sits in fixed pools on the audio thread (the drone's, instrument mode's).
extension VoiceState: BitwiseCopyable {}
extension PhaseIntegrator: BitwiseCopyable {}
