// The plain-data types a command carries across the lock-free channel to the audio
// thread (`EngineCommand.replacePlan`). Declaring the conformance makes the compiler refuse
// any stored property that would need retaining or releasing (a class reference, an
// array) on the audio thread.
extension RenderPlan: BitwiseCopyable {}
extension FourierTablePlan: BitwiseCopyable {}
extension WavetableLevel: BitwiseCopyable {}
extension WaveType: BitwiseCopyable {}
extension ScaleType: BitwiseCopyable {}
extension KernelLevel: BitwiseCopyable {}
