import ToneShaperDSP

@testable import ToneShaperKernelBaseline

#if arch(x86_64)
    @testable import ToneShaperKernelV3
    @testable import ToneShaperKernelV4
#endif

/// The corner functions of the kernel as compiled for one instruction-set level (only call
/// it for a level in `KernelLevel.available`: another level's code may not run on this CPU).
struct CompiledCorners {
    let square: (UInt64, UInt64) -> Float
    let triangle: (UInt64, UInt64) -> Float
    let sawtooth: (UInt64, UInt64) -> Float

    static func at(_ level: KernelLevel) -> CompiledCorners {
        switch level {
        #if arch(x86_64)
            case .v4:
                return CompiledCorners(
                    square: { ToneShaperKernelV4.FixedPointWaves.square($0, $1) },
                    triangle: { ToneShaperKernelV4.FixedPointWaves.triangle($0, $1) },
                    sawtooth: { ToneShaperKernelV4.FixedPointWaves.sawtooth($0, $1) })
            case .v3:
                return CompiledCorners(
                    square: { ToneShaperKernelV3.FixedPointWaves.square($0, $1) },
                    triangle: { ToneShaperKernelV3.FixedPointWaves.triangle($0, $1) },
                    sawtooth: { ToneShaperKernelV3.FixedPointWaves.sawtooth($0, $1) })
        #endif
        default:
            return CompiledCorners(
                square: { ToneShaperKernelBaseline.FixedPointWaves.square($0, $1) },
                triangle: { ToneShaperKernelBaseline.FixedPointWaves.triangle($0, $1) },
                sawtooth: { ToneShaperKernelBaseline.FixedPointWaves.sawtooth($0, $1) })
        }
    }
}
