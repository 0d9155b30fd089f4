/// How a segment of the curve bends between its two points (Vital's and Surge's curvature
/// handle): c in -1...1, 0 straight (linear in Hz, as every curve was before curvatures
/// came), c > 0 starting slowly and ending fast, c < 0 the reverse.
///
/// The segment's progress at u in 0...1 is u^(4^c) for c >= 0 and its mirror
/// 1 - (1 - u)^(4^-c) for c < 0: at the middle 0.5 for c = 0, 0.25 for c = 0.5, 0.75 for
/// c = -0.5, 1/16 and 15/16 at the ends of the range. Computed without libm (the grid is
/// built the same way in every host, the Embedded plugins included).
public enum SegmentCurvature {
    /// The range a curvature may take.
    public static let range: ClosedRange<Double> = -1...1

    /// The progress at `u` (0...1) along a segment of curvature `c`.
    public static func progress(_ u: Double, _ c: Double) -> Double {
        if c == 0 { return u }
        if c > 0 { return power(u, FastPower.exp2(2 * c)) }
        return 1 - power(1 - u, FastPower.exp2(-2 * c))
    }

    /// x^k for x in 0...1 and k > 0: 2^(k log2 x).
    static func power(_ x: Double, _ k: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return FastPower.exp2(k * ParameterSpec.log2(x))
    }
}
