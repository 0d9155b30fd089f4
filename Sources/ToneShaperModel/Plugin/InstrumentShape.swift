import ToneShaperParameters

/// A tone shape as a plugin keeps it (every format, through ToneShaperPlugin): the curve's
/// points, and every parameter of the table as one number in the table's order, in the
/// form a plugin's control port carries it: a real or whole number, a choice's index, 0 or
/// 1 for a toggle, and for the Fourier terms a count with 0 meaning "nyquist". Every value
/// is taken by its row's one rule as it is set (``AudioParameters/Row/portValue(_:)``).
///
/// A knob cannot be refused, so where the node refuses a change that would break the
/// shape's relations (a minimum above the maximum, an echo beyond the cycle), a plugin
/// plays by a rule that depends only on the current port values, never on the order they
/// moved in: the range played is min(lo, hi) to max(lo, hi) (``playedRange(_:_:)``) and
/// the echo played lies within the cycle (``playedEchoOffset``). The points stay as drawn,
/// over the range they were drawn in (``drawnRange``): what is heard is that drawing mapped
/// onto the range played, as the engine maps a plan's range onto its live one. So a port
/// that passes the other end and comes back leaves the curve as it was, and a project
/// reopened with the same port values sounds the same whatever order the host restores
/// them in.
public struct InstrumentShape: Sendable {
    public let parameters: AudioParameters
    /// The curve as drawn, over ``drawnRange``; the range ports move none of its points.
    public private(set) var points: [CurvePoint]
    /// Each segment's curvature (the document's `curvatures`; empty: all straight).
    public var curvatures: [Double] = []
    /// The range the points were drawn in: the document's, or the range played when the
    /// points were set.
    public private(set) var drawnRange: FrequencyRange
    private var values: InlineArray<32, Double>
    public var controllers: MIDIControllerMap
    /// The MIDI keys' tuning (the document's `tuning`; nil: 12-TET), carried in the plan.
    public var tuning: Tuning?

    /// A frequency range, low end first.
    public struct FrequencyRange: Sendable, Equatable, BitwiseCopyable {
        public var low: Double
        public var high: Double

        public init(low: Double, high: Double) {
            self.low = low
            self.high = high
        }
    }

    /// `values` in the table's order (`parameters`' rows), each clamped; `points` drawn over
    /// the range the values give.
    public init(parameters: AudioParameters, points: [CurvePoint], values: [Double], controllers: MIDIControllerMap = MIDIControllerMap()) {
        precondition(!points.isEmpty, "a shape needs at least one point")
        precondition(values.count == parameters.count, "one value per parameter")
        self.parameters = parameters
        self.points = points
        self.values = InlineArray(repeating: 0)
        self.controllers = controllers
        self.drawnRange = FrequencyRange(low: 0, high: 0)
        for i in 0..<parameters.count { self.values[i] = parameters[i].portValue(values[i]) }
        drawnRange = playedRange
    }

    /// The rule a plugin applies to its two range ports: the range played is min(lo, hi)
    /// to max(lo, hi). It depends on the two values alone, not on which moved last.
    public static func playedRange(_ a: Double, _ b: Double) -> FrequencyRange {
        FrequencyRange(low: min(a, b), high: max(a, b))
    }

    /// The range played now (``playedRange(_:_:)`` of the two range ports).
    public var playedRange: FrequencyRange { InstrumentShape.playedRange(value(.minFrequency), value(.maxFrequency)) }

    /// The echo's offset played: the port's value, within the cycle.
    public var playedEchoOffset: Double { min(value(.echoOffset), value(.duration)) }

    /// The points as heard: the drawing mapped from ``drawnRange`` onto ``playedRange``.
    public var playedPoints: [CurvePoint] {
        let played = playedRange
        let map = FrequencyMap(fromMin: drawnRange.low, fromMax: drawnRange.high, toMin: played.low, toMax: played.high)
        return points.map { CurvePoint(time: $0.time, frequency: map.apply($0.frequency)) }
    }

    /// The value of `id`, as a control port carries it.
    public func value(_ id: ParameterID) -> Double { values[parameters.index(of: id)] }

    /// The value of the row at `index` (the table's order).
    public func value(at index: Int) -> Double { values[index] }

    /// The value of the row at `index` as a document of the shape played says it: the range
    /// played and the echo played, the port's value otherwise (a document the node reads
    /// has its minimum below its maximum and its echo within the cycle).
    public func playedValue(at index: Int) -> Double {
        switch parameters[index].id {
        case .minFrequency: return playedRange.low
        case .maxFrequency: return playedRange.high
        case .echoOffset: return playedEchoOffset
        default: return values[index]
        }
    }

    /// Sets `id`, clamped to its row's range, and returns the value taken. A new duration
    /// stretches the points' times with it; nothing else moves anything else (the range and
    /// the echo are played by the rules above).
    @discardableResult
    public mutating func set(_ id: ParameterID, _ proposed: Double) -> Double {
        let i = parameters.index(of: id)
        let v = parameters[i].portValue(proposed)
        if id == .duration {
            let factor = v / value(.duration)
            for k in points.indices { points[k].time = min(points[k].time * factor, v) }
        }
        values[i] = v
        return v
    }

    /// Replaces the points (times in seconds within the cycle, frequencies in Hz, as heard
    /// now): they are drawn over the range played now; the ports stay as they are.
    /// `curvatures`, when given, are the segments' (one a segment, or empty for straight);
    /// else moved points keep their segments' bends and another number of points starts
    /// straight.
    public mutating func setPoints(_ new: [CurvePoint], curvatures given: [Double]? = nil) {
        precondition(!new.isEmpty, "a shape needs at least one point")
        if let given {
            curvatures = given.count == new.count - 1 && given.contains { $0 != 0 } ? given : []
        } else if new.count != points.count {
            curvatures = []
        }
        points = new
        drawnRange = playedRange
    }

    /// This shape's sound with `current`'s MIDI setup (mode, root, bend range, voices,
    /// release, one-shot, transport, beats, controller map): what a program change loads,
    /// as the node's does.
    public func keepingPerformance(of current: InstrumentShape) -> InstrumentShape {
        var shape = self
        for i in 0..<parameters.count where parameters[i].performer {
            shape.values[i] = current.values[i]
        }
        shape.controllers = current.controllers
        return shape
    }

    /// What a plan is built from: the drawing over its own range (the engine maps that onto
    /// the range played, as it follows the range ports without a new plan).
    public var curve: CurveDescription {
        let waves = WaveType.allCases
        let scales = ScaleType.allCases
        let terms = value(.fourierTerms)
        return CurveDescription(
            points: points, duration: value(.duration), minFrequency: drawnRange.low, maxFrequency: drawnRange.high,
            wave: waves[min(waves.count - 1, Int(value(.wave)))], scale: scales[min(scales.count - 1, Int(value(.scale)))],
            antiAliased: value(.antiAlias) != 0, fourierTerms: terms < 1 ? .nyquist : .count(Int(terms)),
            fidelity: Int(value(.fidelity)), echoOffset: playedEchoOffset, curvatures: curvatures,
            tuning: tuning?.keyTuning(rootNote: performance.rootNote))
    }

    /// Whether `id` moving from `old` to `new` changes the plan's key tuning: a tuning laid
    /// out from the root note (no keyboard map) moves with the root.
    public func movesTuning(_ id: ParameterID, from old: Double, to new: Double) -> Bool {
        id == .rootNote && old != new && tuning != nil && tuning?.mapping == nil
    }

    /// Every row's value as played (the range and the echo by the plugin's rules), by id:
    /// what the audio side is made from, as the node's shape gives it.
    public var playedValues: ParameterValues {
        var played = ParameterValues()
        for i in 0..<parameters.count { played[parameters[i].id] = playedValue(at: i) }
        return played
    }

    /// How it plays from MIDI.
    public var performance: PerformanceSettings {
        var settings = PerformanceSettings()
        for i in 0..<parameters.count where parameters[i].performer {
            settings.set(parameters[i].id, values[i])
        }
        return settings
    }
}
