/// What a render plan is built from: the drawn curve and the parameters that shape how it
/// is read (SPEC 3 and 4). The audio side's own view of a tone shape: the control side
/// (ToneShaperModel's `ToneShape`, a validated document) and the LV2 plugin each describe
/// their shape with it, so that both build plans with the same code (`CurveStorage`).
/// Values are expected in range already (the parameter table checks them).
public struct CurveDescription: Sendable, Equatable {
    public var points: [CurvePoint]
    /// Each segment's curvature (``SegmentCurvature``), in the points' order; empty when
    /// every segment is straight (a count other than one a segment is read as that too).
    public var curvatures: [Double]
    /// The cycle's length in seconds.
    public var duration: Double
    /// The range the points were drawn for: a live range change maps from it.
    public var minFrequency: Double
    public var maxFrequency: Double
    public var wave: WaveType
    public var scale: ScaleType
    public var antiAliased: Bool
    public var fourierTerms: FourierTerms
    /// The grid the curve is quantised to.
    public var fidelity: Int
    /// Seconds the echo voice runs ahead of the main one.
    public var echoOffset: Double
    /// The keys' tuning for MIDI notes (nil: 12-TET from the root note, as without one).
    public var tuning: KeyTuning?

    public init(
        points: [CurvePoint], duration: Double, minFrequency: Double, maxFrequency: Double, wave: WaveType, scale: ScaleType,
        antiAliased: Bool, fourierTerms: FourierTerms, fidelity: Int, echoOffset: Double, curvatures: [Double] = [],
        tuning: KeyTuning? = nil
    ) {
        precondition(!points.isEmpty && duration > 0 && fidelity >= 1, "a curve needs points, a duration and a grid")
        self.points = points
        self.curvatures = curvatures
        self.duration = duration
        self.minFrequency = minFrequency
        self.maxFrequency = maxFrequency
        self.wave = wave
        self.scale = scale
        self.antiAliased = antiAliased
        self.fourierTerms = fourierTerms
        self.fidelity = fidelity
        self.echoOffset = echoOffset
        self.tuning = tuning
    }
}
