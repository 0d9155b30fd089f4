/// One voice's place in the cycle and its running phase.
public struct VoiceState: Equatable, Sendable {
    /// The cycle sample the next output sample is taken from, in [0, S).
    public var cycleIndex: Int
    public var integrator: PhaseIntegrator

    public init(cycleIndex: Int, integrator: PhaseIntegrator) {
        self.cycleIndex = cycleIndex
        self.integrator = integrator
    }
}

/// The live frequency range over one pass of the kernel: curve values c (in the plan's base
/// range) become offset + slope * c Hz at the pass's first sample, and offset and slope move
/// by a step per sample while a range change ramps (both steps 0 otherwise).
public struct RangeRamp: Sendable {
    public let offset: Double, slope: Double
    public let offsetStep: Double, slopeStep: Double

    @inlinable
    public init(offset: Double, slope: Double, offsetStep: Double, slopeStep: Double) {
        self.offset = offset
        self.slope = slope
        self.offsetStep = offsetStep
        self.slopeStep = slopeStep
    }

    @inlinable public var isSteady: Bool { offsetStep == 0 && slopeStep == 0 }
}

/// Scratch memory for rendering a pair of voices: per voice two Double arrays (frequency, phase) and two of
/// fixed-point phase, and the ramp 0, 1, 2, ... that lets the inner loops count in Double
/// without converting integers.
public struct VoiceScratch {
    public static let arrays = 4
    public static let fixedArrays = 4
    public let base: UnsafeMutablePointer<Double>
    public let fixed: UnsafeMutablePointer<UInt64>
    /// Two arrays of cycle fractions u (main, echo): the scaling's input, in single precision.
    public let fractions: UnsafeMutablePointer<Float>
    public let stride: Int
    public let ramp: UnsafePointer<Double>

    public init(
        base: UnsafeMutablePointer<Double>, fixed: UnsafeMutablePointer<UInt64>, fractions: UnsafeMutablePointer<Float>,
        stride: Int, ramp: UnsafePointer<Double>
    ) {
        self.base = base
        self.fixed = fixed
        self.fractions = fractions
        self.stride = stride
        self.ramp = ramp
    }

    @inlinable @inline(__always) public func array(_ k: Int) -> UnsafeMutablePointer<Double> { base + k * stride }
    @inlinable @inline(__always) public func fixedArray(_ k: Int) -> UnsafeMutablePointer<UInt64> { fixed + k * stride }
    @inlinable @inline(__always) public func fractionArray(_ k: Int) -> UnsafeMutablePointer<Float> { fractions + k * stride }
}
