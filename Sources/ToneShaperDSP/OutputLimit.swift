/// The last line of defence of every output sample: never beyond the amplitude limit, never
/// NaN, never a subnormal (which costs downstream DSP dearly and is far below any 24-bit
/// step). Branch-free, so loops over it vectorise; inlinable, so each kernel level compiles
/// it with its own instructions.
public enum OutputLimit {
    @inlinable @inline(__always)
    public static func limited(_ sample: Float, _ limit: Float) -> Float {
        let high = sample > limit ? limit : sample
        let clamped = high < -limit ? -limit : high
        let magnitude = clamped < 0 ? -clamped : clamped
        return magnitude >= 1e-30 ? clamped : 0
    }
}
