import ToneShaperParameters

/// Amplitude scaling over the cycle, scale(u) for u in [0, 1) (SPEC 5).
public enum AmplitudeScaling {
    /// ln(32767): the Exponential scaling falls to one 16-bit step at the cycle's end.
    @usableFromInline static let exponentialRate = 10.397177190355384
    @usableFromInline static let log2e = 1.4426950408889634

    @inlinable @inline(__always)
    public static func value(_ type: ScaleType, at u: Double) -> Double {
        switch type {
        case .none: return 1
        case .linear: return linear(u)
        case .sine: return sin2pi(u * 0.5)  // abs(sin(pi u)) = sin(pi u) on [0, 1)
        case .triangle: return triangle(u)
        case .parabolic: return parabolic(u)
        case .exponential: return exp2Fast(-exponentialRate * log2e * u)
        case .twoStep:
            if u < 0.2 { return smoothstep(u / 0.2) }
            if u <= 0.8 { return 1 }
            return smoothstep((1 - u) / 0.2)
        case .wideTwoStep:
            return u <= 0.5 ? smoothstep(u / 0.5) : smoothstep((1 - u) / 0.5)
        }
    }

    // The polynomial scalings, once, in any precision: the kernel uses them in Float.

    @inlinable @inline(__always)
    public static func linear<T: BinaryFloatingPoint>(_ u: T) -> T { 1 - u }

    @inlinable @inline(__always)
    public static func triangle<T: BinaryFloatingPoint>(_ u: T) -> T { u <= 0.5 ? 2 * u : 2 * (1 - u) }

    @inlinable @inline(__always)
    public static func parabolic<T: BinaryFloatingPoint>(_ u: T) -> T {
        let x = u - 1
        return x * x
    }

    @inlinable @inline(__always)
    static func smoothstep(_ x: Double) -> Double { x * x * (3 - 2 * x) }
}
