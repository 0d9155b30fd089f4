/// The trapezoid rule that turns frequency into phase, in the two forms the project needs.
public enum TrapezoidIntegrator {
    /// Partial integrals of `samples` with spacing `step`, continuing from a carried
    /// (integral, last sample) when given: result[0] is the carried integral advanced by
    /// one trapezoid from the carried sample, or 0 when nothing is carried.
    /// Integrating a signal piece by piece this way equals integrating it whole, which is
    /// what lets the node render one JACK period at a time (SPEC 7).
    public static func partialIntegrals(_ samples: [Double], step: Double,
                                        carrying carried: (integral: Double, sample: Double)? = nil) -> [Double] {
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
/// frequency and is kept in [0, 1), where a periodic wave of period 1 cannot tell.
public struct PhaseIntegrator: Equatable, Sendable {
    /// Phase in cycles, in [0, 1) once the first sample has been taken.
    public var phase: Double
    /// The frequency of the last sample, carried into the next trapezoid.
    public var lastFrequency: Double

    /// Starts so that the first sample's phase is exactly 0.
    public init(firstFrequency v0: Double, halfSamplePeriod h: Double) {
        // The first step adds (v0 + v0) * h; starting one such step below zero lands on 0 exactly.
        phase = -((v0 + v0) * h)
        lastFrequency = v0
    }

    public init(phase: Double, lastFrequency: Double) {
        self.phase = phase
        self.lastFrequency = lastFrequency
    }

    /// Takes one sample at frequency v (Hz); h = 1 / (2 sampleRate). Returns the phase.
    /// v is at most Nyquist, so one step adds at most 1/2 and one subtraction wraps it.
    @inlinable @inline(__always)
    public mutating func advance(_ v: Double, halfSamplePeriod h: Double) -> Double {
        phase += (lastFrequency + v) * h
        if phase >= 1 { phase -= 1 }
        lastFrequency = v
        return phase
    }
}
