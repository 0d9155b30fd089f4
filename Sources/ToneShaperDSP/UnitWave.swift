import ToneShaperParameters

/// The unit functions s(p) of SPEC 4: period 1, peak 1, p in [0, 1).
public enum UnitWave {
    /// Upper bound on the partials of a Fourier wave, whatever `fourierTerms` says: near
    /// 0 Hz "as many as fit below Nyquist" would be unbounded. 2048 covers 12 Hz at 48 kHz.
    /// It is also the largest band-limited table (see `FourierWavetables`).
    /// A literal, so the kernels read it as a constant (not through a global's accessor); the
    /// table's `ToneShapeLimits.maximumPartials` is the same number (RowBindingTests).
    public static let maximumPartials = 2048

    /// The naive shapes, exactly as the formulas of SPEC 4 (the reference app's sound).
    @inlinable @inline(__always)
    public static func naive(_ wave: WaveType, _ p: Double) -> Double {
        switch wave {
        case .sine, .squareFourier, .triangleFourier, .sawtoothFourier: return sin2pi(p)
        case .square: return naiveSquare(p)
        case .triangle: return naiveTriangle(p)
        case .sawtooth: return naiveSawtooth(p)
        }
    }

    // The three naive shapes, once, in any precision: the kernel uses them in Float (with
    // its corners added) and in Double, the reference formulas in Double. Branch-free
    // selects, so that loops over them vectorise.

    @inlinable @inline(__always)
    public static func naiveSquare<T: BinaryFloatingPoint>(_ p: T) -> T { p < 0.5 ? 1 : -1 }

    @inlinable @inline(__always)
    public static func naiveTriangle<T: BinaryFloatingPoint>(_ p: T) -> T {
        p < 0.25 ? 4 * p : (p < 0.75 ? 2 - 4 * p : 4 * p - 4)
    }

    @inlinable @inline(__always)
    public static func naiveSawtooth<T: BinaryFloatingPoint>(_ p: T) -> T { 2 * p - 1 }

    /// Square, Triangle and Sawtooth with their discontinuities smoothed by polyBLEP
    /// (value steps) and polyBLAMP (slope steps) over the two samples around each one.
    /// `dt` is the phase advanced per sample, v / sampleRate, below 0.5.
    @inlinable @inline(__always)
    public static func antiAliased(_ wave: WaveType, _ p: Double, _ dt: Double) -> Double {
        let naiveValue = naive(wave, p)
        guard dt > 1e-12 else { return naiveValue }
        switch wave {
        case .square:
            return naiveValue + 2 * blep(p, 0, dt) - 2 * blep(p, 0.5, dt)
        case .sawtooth:
            return naiveValue - 2 * blep(p, 0, dt)
        case .triangle:
            // The slope (per unit phase) falls by 8 at p = 1/4 and rises by 8 at p = 3/4.
            return naiveValue + 8 * dt * (blamp(p, 0.75, dt) - blamp(p, 0.25, dt))
        default:
            return naiveValue
        }
    }

    /// Residual of a unit step at phase `edge`, seen from phase p: the band-limited step
    /// minus the naive one, with the step smeared over one sample each side.
    @inlinable @inline(__always)
    static func blep(_ p: Double, _ edge: Double, _ dt: Double) -> Double {
        let tau = wrappedDistance(p, edge) / dt  // in samples
        if tau >= 1 || tau <= -1 { return 0 }
        if tau < 0 {
            let a = tau + 1
            return 0.5 * a * a
        }
        let b = 1 - tau
        return -0.5 * b * b
    }

    /// Residual of a unit slope change (per sample) at phase `edge`: the integral of `blep`.
    @inlinable @inline(__always)
    static func blamp(_ p: Double, _ edge: Double, _ dt: Double) -> Double {
        let tau = wrappedDistance(p, edge) / dt
        if tau >= 1 || tau <= -1 { return 0 }
        let b = 1 - (tau < 0 ? -tau : tau)
        return b * b * b / 6
    }

    /// p - edge wrapped into [-1/2, 1/2).
    @inlinable @inline(__always)
    static func wrappedDistance(_ p: Double, _ edge: Double) -> Double {
        var d = p - edge
        if d >= 0.5 { d -= 1 } else if d < -0.5 { d += 1 }
        return d
    }

    /// The highest harmonic number k whose frequency k * v is below `nyquist`.
    @inlinable @inline(__always)
    public static func highestHarmonicBelowNyquist(frequency v: Double, nyquist: Double) -> Int {
        if v <= 0 { return maximumPartials }
        let ratio = nyquist / v
        if ratio > Double(maximumPartials) + 1 { return maximumPartials }
        let whole = Int(ratio)
        // k * v < nyquist strictly: at an exact multiple the partial sits on Nyquist and goes.
        return Double(whole) == ratio ? whole - 1 : whole
    }

    /// The Fourier waves of SPEC 4, summing only the partials below Nyquist.
    /// `terms` is `fourierTerms` (use `FourierTerms.limit`); `highest` comes from
    /// `highestHarmonicBelowNyquist` for this sample's frequency.
    ///
    /// The formula, kept as the reference for the tests: the render kernel reads
    /// band-limited tables of these same sums instead (`FourierWavetables`), whose cost
    /// does not grow with the number of partials.
    @inlinable @inline(__always)
    public static func fourier(_ wave: WaveType, _ p: Double, terms: Int, highest: Int) -> Double {
        let theta = p
        switch wave {
        case .squareFourier:
            // First `terms` odd k, each k below Nyquist: k = 2j + 1 <= min(2 terms - 1, highest).
            let top = min(terms > maximumPartials ? maximumPartials : 2 * terms - 1, highest)
            return (4 / Double.pi) * oddSineSum(theta, top: top, alternating: false, squaredDenominator: false)
        case .triangleFourier:
            let top = min(terms, highest)
            return (8 / (Double.pi * Double.pi)) * oddSineSum(theta, top: top, alternating: true, squaredDenominator: true)
        case .sawtoothFourier:
            let top = min(terms, highest)
            return -(2 / Double.pi) * sineSum(theta, top: top)
        default:
            return naive(wave, p)
        }
    }

    /// sum over k = 1...top of sin(2 pi k p) / k, by the Chebyshev recurrence
    /// sin((k+1)a) = 2 cos(a) sin(ka) - sin((k-1)a): one multiply-add per partial.
    @inlinable @inline(__always)
    static func sineSum(_ p: Double, top: Int) -> Double {
        if top < 1 { return 0 }
        let s1 = sin2pi(p)
        let twoCos = 2 * sin2pi(p + 0.25)
        var previous = 0.0
        var current = s1
        var sum = s1
        var k = 2
        while k <= top {
            let next = twoCos * current - previous
            previous = current
            current = next
            sum += next / Double(k)
            k += 1
        }
        return sum
    }

    /// sum over odd k = 1, 3, ... <= top of (+-1) sin(2 pi k p) / k (or / k^2).
    @inlinable @inline(__always)
    static func oddSineSum(_ p: Double, top: Int, alternating: Bool, squaredDenominator: Bool) -> Double {
        if top < 1 { return 0 }
        let s1 = sin2pi(p)
        // Stepping k by 2 is the recurrence at angle 2a: sin((k+2)a) = 2 cos(2a) sin(ka) - sin((k-2)a).
        let twoCos2 = 2 * sin2pi(2 * p + 0.25)
        var previous = -s1  // sin(-a)
        var current = s1
        var sum = s1
        var sign = 1.0
        var k = 3
        while k <= top {
            let next = twoCos2 * current - previous
            previous = current
            current = next
            if alternating { sign = -sign }
            let kd = Double(k)
            sum += sign * next / (squaredDenominator ? kd * kd : kd)
            k += 2
        }
        return sum
    }
}
