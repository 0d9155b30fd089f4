// Polynomial sine and exponential in double precision, for the scalings and the tables'
// building. The render kernel may not call into C (glibc's sin/exp), so it evaluates these
// instead; both are accurate to about 1e-12, far below what a 24-bit or float output can
// show. (The kernel's single-precision sine is compiled with the kernel, per instruction
// set level: `sinUnit(_: Float)` in ToneShaperKernelBaseline.)

/// sin(2 pi p) for any finite p, accurate to about 1e-12.
@inlinable @inline(__always)
public func sin2pi(_ p: Double) -> Double {
    // Reduce to q in [-0.5, 0.5]: sin(2 pi p) = sin(2 pi q).
    let q = p - Double(Int(p + (p >= 0 ? 0.5 : -0.5)))
    // Fold onto [-1/4, 1/4] with sin(pi - a) = sin(a).
    let a = q < 0 ? -q : q
    let folded = a > 0.25 ? 0.5 - a : a
    let r = q < 0 ? -folded : folded
    return sinPoly(r * (2 * Double.pi))
}

/// Odd Taylor polynomial of sin on [-pi/2, pi/2] through x^17 (error below 3e-14 there).
@inlinable @inline(__always)
public func sinPoly(_ x: Double) -> Double {
    let x2 = x * x
    var s = 1.0 / 355687428096000.0  // 1/17!
    s = s * x2 - 1.0 / 1307674368000.0  // -1/15!
    s = s * x2 + 1.0 / 6227020800.0  // 1/13!
    s = s * x2 - 1.0 / 39916800.0  // -1/11!
    s = s * x2 + 1.0 / 362880.0  // 1/9!
    s = s * x2 - 1.0 / 5040.0  // -1/7!
    s = s * x2 + 1.0 / 120.0  // 1/5!
    s = s * x2 - 1.0 / 6.0  // -1/3!
    return x + x * x2 * s
}

/// 2^y for y in [-1100, 1100], relative error about 1e-13; underflows to 0 below -1022.
@inlinable @inline(__always)
public func exp2Fast(_ y: Double) -> Double {
    if y < -1022 { return 0 }
    let whole = Double(Int(y)) - (y < 0 && Double(Int(y)) != y ? 1 : 0)  // floor without C
    let f = y - whole  // f in [0, 1)
    // 2^f = e^(f ln2) by its Taylor series; 14 terms reach 1e-14 on [0, ln 2).
    let z = f * 0.6931471805599453
    var e = 1.0 / 87178291200.0  // 1/14!
    e = e * z + 1.0 / 6227020800.0
    e = e * z + 1.0 / 479001600.0
    e = e * z + 1.0 / 39916800.0
    e = e * z + 1.0 / 3628800.0
    e = e * z + 1.0 / 362880.0
    e = e * z + 1.0 / 40320.0
    e = e * z + 1.0 / 5040.0
    e = e * z + 1.0 / 720.0
    e = e * z + 1.0 / 120.0
    e = e * z + 1.0 / 24.0
    e = e * z + 1.0 / 6.0
    e = e * z + 0.5
    e = e * z + 1.0
    e = e * z + 1.0
    let bits = UInt64(Int64(whole) + 1023) << 52
    return e * Double(bitPattern: bits)
}

/// 1.5 * 2^52. For |x| < 2^51, x + roundingShift is x rounded to an integer (to nearest),
/// held in the low bits of the sum's bit pattern, and (x + roundingShift) - roundingShift is
/// that integer as a Double: rounding and an integer index without a conversion instruction
/// or a range check, so loops over it vectorise on every level.
@inlinable @inline(__always)
public var roundingShift: Double { 6755399441055744.0 }

/// x rounded to the nearest integer, for |x| < 2^51 (see `roundingShift`): two adds, where
/// `Double(Int(x))` costs a conversion each way and its range checks.
@inlinable @inline(__always)
public func nearestInteger(_ x: Double) -> Double { (x + roundingShift) - roundingShift }

/// The Int that `x`, an integer in [0, 2^51), holds, read from `x + roundingShift`'s low
/// bits: no range check, where `Int(x)` makes three (about ten instructions).
@inlinable @inline(__always)
public func integerValue(ofWhole x: Double) -> Int {
    Int(truncatingIfNeeded: (x + roundingShift).bitPattern & 0x7_FFFF_FFFF_FFFF)
}
