import ToneShaperDSP

extension Kernel {
    /// The engine's mix while nothing ramps (nearly always): out = (main + echoGain * echo)
    /// * gain, limited. Here rather than in the engine so that it runs at the kernel's level,
    /// eight samples to a vector on v3.
    // Compiled here, at this module's x86-64 level, and only called from other modules:
    // Embedded Swift would otherwise compile a copy into each caller at the caller's level
    // (the baseline), and its fused multiply-adds would become calls to libm's fmaf.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @export(interface)
    public static func mix(
        main: UnsafePointer<Float>, echo: UnsafePointer<Float>, echoGain: Float, gain: Float, limit: Float,
        count: Int, out: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count { out[i] = OutputLimit.limited((main[i] + echoGain * echo[i]) * gain, limit) }
    }
}
