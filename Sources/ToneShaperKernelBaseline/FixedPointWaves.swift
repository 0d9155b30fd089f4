import ToneShaperDSP

/// Square, triangle and sawtooth with polyBLEP/polyBLAMP corners (`UnitWave.antiAliased`
/// is the formula), in single precision, straight from the fixed-point phase x and step D
/// of `PhaseIntegrator`, for the kernel's vectorised loops.
///
/// The distance to a corner is taken in the integers, where it is exact: x minus the corner,
/// its low 52 bits read as a signed number, is the distance wrapped into [-1/2, 1/2) cycle.
/// Divided by the step, it is the distance in samples that the polynomials need; only that
/// quotient is rounded to a Float. Everything is branch-free.
///
/// The 64-bit integers become floating point through the mantissa of a Double (`exact`)
/// rather than a conversion instruction: x86-64 has vector conversions from 64-bit integers
/// only with AVX-512, and below it the compiler emulates them at length (the triangle's three
/// conversions per sample were most of its cost on AVX2). The values are the same: each
/// integer is below 2^52, so its Double is exact, and rounding that to a Float rounds once.
enum FixedPointWaves {
    static let half: UInt64 = 1 << 51

    @inline(__always)
    static func square(_ x: UInt64, _ step: UInt64) -> Float {
        let inverse = inverseStep(step)
        return square(Kernel.floatPhase(x), samplesFrom(x, 0, inverse), samplesFrom(x, half, inverse))
    }

    /// The square from its phase as a Float and its distances in samples to the rise (at 0)
    /// and the fall (at 1/2), computed exactly from the fixed-point phase.
    @inline(__always)
    static func square(_ p: Float, _ fromRise: Float, _ fromFall: Float) -> Float {
        UnitWave.naiveSquare(p) + 2 * blep(fromRise) - 2 * blep(fromFall)
    }

    @inline(__always)
    static func sawtooth(_ x: UInt64, _ step: UInt64) -> Float {
        let inverse = inverseStep(step)
        return sawtooth(Kernel.floatPhase(x), samplesFrom(x, 0, inverse))
    }

    /// The sawtooth from its phase as a Float and its distance in samples to the wrap at 0.
    @inline(__always)
    static func sawtooth(_ p: Float, _ fromWrap: Float) -> Float {
        UnitWave.naiveSawtooth(p) - 2 * blep(fromWrap)
    }

    @inline(__always)
    static func triangle(_ x: UInt64, _ step: UInt64) -> Float {
        triangle(Kernel.floatPhase(x), cyclesPerSample(step))
    }

    /// The triangle from its phase p as a Float (the top 24 bits of the fixed-point phase) and
    /// its step dt in cycles per sample: in Floats alone, so that the kernel's loop over it
    /// runs eight samples to a vector. The square's and sawtooth's corners are steps in value
    /// and need the distance to them exact; the triangle's are changes of slope, whose
    /// residual is scaled by dt, so the distance's rounding in a Float (below 6e-8 cycle)
    /// moves a sample by at most 8 dt * (6e-8 / dt) / 2 = 2.4e-7.
    @inline(__always)
    static func triangle(_ p: Float, _ dt: Float) -> Float {
        let inverse = 1 / (dt > 0 ? dt : 1)
        // The slope (per unit phase) falls by 8 at p = 1/4 and rises by 8 at p = 3/4.
        let fromRise = wrapped(p - 0.75) * inverse
        let fromFall = wrapped(p - 0.25) * inverse
        return UnitWave.naiveTriangle(p) + 8 * dt * (blamp(fromRise) - blamp(fromFall))
    }

    /// A step as cycles per sample, in a Float.
    @inline(__always)
    static func cyclesPerSample(_ step: UInt64) -> Float {
        Float(exact(step)) * 0x1p-52
    }

    /// A distance in cycles wrapped into [-1/2, 1/2).
    @inline(__always)
    static func wrapped(_ d: Float) -> Float {
        d >= 0.5 ? d - 1 : (d < -0.5 ? d + 1 : d)
    }

    /// 1 / step; a zero step (0 Hz) gives 1, which puts every corner far away.
    @inline(__always)
    static func inverseStep(_ step: UInt64) -> Float {
        1 / Float(exact(step > 0 ? step : 1))
    }

    /// (x - corner) wrapped into [-1/2, 1/2) cycle, in samples: the wrapped distance s, a
    /// signed 52-bit integer, shifted by half a cycle into [0, 2^52), placed in the mantissa of
    /// 1.5 * 2^52 - 2^51 and that subtracted again, which leaves exactly s.
    @inline(__always)
    static func samplesFrom(_ x: UInt64, _ corner: UInt64, _ inverseStep: Float) -> Float {
        let shifted = (x &- corner &+ half) & PhaseIntegrator.mask
        return Float(Double(bitPattern: shifted | twoTo52) - roundingShift) * inverseStep
    }

    /// n (below 2^52) as a Double, exactly: n in the mantissa of 2^52, and 2^52 taken away.
    @inline(__always)
    static func exact(_ n: UInt64) -> Double {
        Double(bitPattern: n | twoTo52) - 0x1p52
    }

    /// The bits of 2^52 as a Double: its mantissa, all zero, takes any n below 2^52.
    static let twoTo52: UInt64 = 0x4330_0000_0000_0000

    /// The band-limited step minus the naive one, tau samples from the step: 0.5 (1 + tau)^2
    /// before it, -0.5 (1 - tau)^2 after, 0 beyond one sample (`UnitWave.blep`). Written with
    /// the magnitude and one max, which are single vector instructions, rather than a clamp.
    @inline(__always)
    static func blep(_ tau: Float) -> Float {
        let m = nearness(tau)
        let half = m * m * 0.5
        return tau < 0 ? half : -half
    }

    /// Its integral: the residual of a change of slope of one per sample, (1 - |tau|)^3 / 6
    /// within a sample of the corner (`UnitWave.blamp`).
    @inline(__always)
    static func blamp(_ tau: Float) -> Float {
        let m = nearness(tau)
        return m * m * m * (1.0 / 6)
    }

    /// 1 - |tau| within a sample of a corner, 0 beyond.
    @inline(__always)
    static func nearness(_ tau: Float) -> Float {
        let m = 1 - tau.magnitude
        return m > 0 ? m : 0
    }
}
