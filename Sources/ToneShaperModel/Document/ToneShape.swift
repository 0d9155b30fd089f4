import ToneShaperJSON
import ToneShaperParameters

/// A tone shape: a frequency curve over one cycle and everything that says how it sounds.
/// This is the document (SPEC 2) in memory, already validated: every value is in range.
/// Its parameters are declared in `ParameterTable`, which also gives the defaults.
public struct ToneShape: Equatable, Sendable {
    public var points: [CurvePoint]
    /// Each segment's curvature in -1...1 (``SegmentCurvature``), in the points' order (one
    /// fewer than the points); empty while every segment is straight, as in every document
    /// written before curvatures came (document key `curvatures`, left out then).
    public var curvatures: [Double] = []
    public var duration: Double
    public var minFrequency: Double
    public var maxFrequency: Double
    public var wave: WaveType
    public var scale: ScaleType
    public var echoOffset: Double
    public var echoVolume: Double
    public var fidelity: Int
    /// Master gain, linear 0...1; also the hard limit no output sample exceeds.
    public var amplitude: Double
    /// Fine tuning of every frequency played, in cents (-100...100).
    public var tune = 0.0
    public var fourierTerms: FourierTerms
    /// Band-limit the plain Square, Triangle and Sawtooth (polyBLEP / polyBLAMP).
    /// Off gives the naive shapes of the reference app, sample for sample.
    public var antiAliased: Bool
    /// How it plays from MIDI and JACK transport (not part of the sound of the curve).
    public var performance = PerformanceSettings()
    /// MIDI controllers mapped to parameters (document key `midiMap`).
    public var midiMap = MIDIControllerMap()
    /// The MIDI keys' tuning, a Scala scale and keyboard mapping (document key `tuning`;
    /// nil: 12-TET from the root note).
    public var tuning: Tuning?
    public var name: String?
    public var description: String?
    /// Keys this project does not know, kept so that saving does not lose them.
    public var extraKeys: [String: JSONValue]

    /// A shape whose every optional parameter has the table's default.
    public static let tableDefaults: ToneShape = {
        var shape = ToneShape(
            points: [], duration: 1, minFrequency: 0, maxFrequency: 0, wave: .sine, scale: .sine,
            echoOffset: 0, echoVolume: 0, fidelity: 1, amplitude: 0, fourierTerms: .count(1),
            antiAliased: false, name: nil, description: nil)
        for spec in ParameterTable.all { if let value = spec.defaultValue { spec.store(&shape, value) } }
        return shape
    }()

    /// A shape with the points, duration and range given; every other parameter not given
    /// takes the parameter table's default (as in a document that leaves it out).
    public init(
        points: [CurvePoint], duration: Double, minFrequency: Double, maxFrequency: Double,
        wave: WaveType = tableDefaults.wave, scale: ScaleType = tableDefaults.scale,
        echoOffset: Double = tableDefaults.echoOffset, echoVolume: Double = tableDefaults.echoVolume,
        fidelity: Int = tableDefaults.fidelity, amplitude: Double = tableDefaults.amplitude,
        fourierTerms: FourierTerms = tableDefaults.fourierTerms, antiAliased: Bool = tableDefaults.antiAliased,
        name: String? = nil, description: String? = nil, extraKeys: [String: JSONValue] = [:]
    ) {
        self.points = points
        self.duration = duration
        self.minFrequency = minFrequency
        self.maxFrequency = maxFrequency
        self.wave = wave
        self.scale = scale
        self.echoOffset = echoOffset
        self.echoVolume = echoVolume
        self.fidelity = fidelity
        self.amplitude = amplitude
        self.fourierTerms = fourierTerms
        self.antiAliased = antiAliased
        self.name = name
        self.description = description
        self.extraKeys = extraKeys
    }
}

extension ToneShape {
    /// What the node plays when given no document: a gentle two-second rise and fall
    /// around A3, sine-scaled so that cycles join without a click.
    public static let defaultShape = ToneShape(
        points: [
            CurvePoint(time: 0, frequency: 220), CurvePoint(time: 1, frequency: 330),
            CurvePoint(time: 2, frequency: 220),
        ],
        duration: 2, minFrequency: 110, maxFrequency: 440,
        name: "default", description: "A gentle rise and fall around A3")

    /// Remaps every point affinely from the current range onto [newMin, newMax], as the
    /// reference app does when its range slider moves (SPEC 8). A zero-width old range
    /// has no scale to carry, so the points are shifted with its lower end instead.
    public mutating func remapFrequencyRange(min newMin: Double, max newMax: Double) {
        let map = FrequencyMap(fromMin: minFrequency, fromMax: maxFrequency, toMin: newMin, toMax: newMax)
        for i in points.indices { points[i].frequency = map.apply(points[i].frequency) }
        minFrequency = newMin
        maxFrequency = newMax
    }

    /// Changes the cycle length, stretching the point times with it so they stay inside it.
    public mutating func rescaleDuration(_ newDuration: Double) {
        let factor = newDuration / duration
        for i in points.indices { points[i].time = min(points[i].time * factor, newDuration) }
        duration = newDuration
    }

    /// True when the points do not reach from 0 to the duration. The curve is stretched so
    /// that its first and last point span the whole cycle (as the original app does), so
    /// such points do not play at the times they name.
    public var pointsLeaveGaps: Bool {
        guard let first = points.first, let last = points.last else { return false }
        return first.time > 0 || last.time < duration
    }
}

extension ToneShape {
    /// What the audio side builds a plan from (`CurveDescription`).
    public var curve: CurveDescription {
        CurveDescription(
            points: points, duration: duration, minFrequency: minFrequency, maxFrequency: maxFrequency, wave: wave, scale: scale,
            antiAliased: antiAliased, fourierTerms: fourierTerms, fidelity: fidelity, echoOffset: echoOffset,
            curvatures: curvatures, tuning: tuning?.keyTuning(rootNote: performance.rootNote))
    }
}
