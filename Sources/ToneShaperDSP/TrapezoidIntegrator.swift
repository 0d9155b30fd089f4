/// The trapezoid rule that turns frequency into phase, in the two forms the project needs.
public enum TrapezoidIntegrator {
    /// Partial integrals of `samples` with spacing `step`, continuing from a carried
    /// (integral, last sample) when given: result[0] is the carried integral advanced by
    /// one trapezoid from the carried sample, or 0 when nothing is carried.
    /// Integrating a signal piece by piece this way equals integrating it whole, which is
    /// what lets the node render one JACK period at a time (SPEC 7).
    public static func partialIntegrals(
        _ samples: [Double], step: Double,
        carrying carried: (integral: Double, sample: Double)? = nil
    ) -> [Double] {
        var result = [Double]()
        result.reserveCapacity(samples.count)
        var integral = 0.0
        var previous = 0.0
        var hasPrevious = false
        if let carried {
            integral = carried.integral
            previous = carried.sample
            hasPrevious = true
        }
        for v in samples {
            if hasPrevious { integral += (previous + v) * step / 2 }
            result.append(integral)
            previous = v
            hasPrevious = true
        }
        return result
    }
}

/// The running phase of one voice: x advances by the trapezoid of the instantaneous
/// frequency and is kept modulo 1, where a periodic wave of period 1 cannot tell.
///
/// The phase is held in fixed point, in units of 2^-52 cycle. Each trapezoid is rounded
/// once to that unit and then added exactly, so wrapping costs nothing (integers wrap by
/// themselves), the sum does not depend on how the samples are grouped into periods, and
/// the render kernel's running sum is an integer add (one cycle) rather than a
/// floating-point add and compare (see the kernel, `ToneShaperKernelBaseline`). The price is at most half a unit,
/// 1.1e-16 cycle, per sample: 4.6e-7 cycle after 24 hours at 48 kHz.
public struct PhaseIntegrator: Equatable, Sendable {
    /// One cycle in fixed-point units. Computed rather than stored, as is `mask`: constants
    /// the kernel modules fold in, with no global to initialise on the audio thread.
    @inlinable public static var unitsPerCycle: Double { 4_503_599_627_370_496.0 }  // 2^52
    @inlinable public static var mask: UInt64 { (1 << 52) - 1 }

    /// The phase in units of 2^-52 cycle; only its low 52 bits count.
    public var fixedPhase: UInt64
    /// The frequency of the last sample, carried into the next trapezoid.
    public var lastFrequency: Double

    /// Phase in cycles, in [0, 1). Inlinable: the engine reads and sets it on the audio
    /// thread (the echo voice's phase), where the compiler must see it to prove it safe.
    @inlinable public var phase: Double {
        get { PhaseIntegrator.cycles(fixedPhase) }
        set { fixedPhase = PhaseIntegrator.fixed(newValue) }
    }

    /// Starts so that the first sample's phase is exactly 0.
    public init(firstFrequency v0: Double, halfSamplePeriod h: Double) {
        // One step below zero: the first sample adds that same step back.
        fixedPhase = 0 &- PhaseIntegrator.step(v0, v0, scale: h * PhaseIntegrator.unitsPerCycle)
        lastFrequency = v0
    }

    /// Takes one sample at frequency v (Hz); h = 1 / (2 sampleRate). Returns the phase.
    @inlinable @inline(__always)
    public mutating func advance(_ v: Double, halfSamplePeriod h: Double) -> Double {
        fixedPhase &+= PhaseIntegrator.step(lastFrequency, v, scale: h * PhaseIntegrator.unitsPerCycle)
        lastFrequency = v
        return phase
    }

    /// One trapezoid, (a + b) h, in fixed-point units: `scale` is h * 2^52. For a and b in
    /// [0, Nyquist] the value is in [0, 2^51], where adding 2^52 rounds it to an integer
    /// that the low bits then hold: a conversion without a range check, so loops over it
    /// vectorise.
    @inlinable @inline(__always)
    public static func step(_ a: Double, _ b: Double, scale: Double) -> UInt64 {
        ((a + b) * scale + unitsPerCycle).bitPattern &- unitsPerCycle.bitPattern
    }

    /// Fixed-point units to cycles in [0, 1), exactly.
    @inlinable @inline(__always)
    public static func cycles(_ fixed: UInt64) -> Double {
        Double(bitPattern: (fixed & mask) | 0x3FF0_0000_0000_0000) - 1
    }

    /// Cycles (any finite value, taken modulo 1) to fixed-point units, rounded; 0 for NaN
    /// or infinity. No C call, so the audio thread may use it.
    @inlinable
    public static func fixed(_ x: Double) -> UInt64 {
        guard x.isFinite, abs(x) < 9e15 else { return 0 }
        let whole = Double(Int(x))
        var r = x - whole
        if r < 0 { r += 1 }
        return UInt64(r * unitsPerCycle + 0.5) & mask
    }
}
