/// A tone shape as a host without the control core keeps it (the LV2 plugin): the curve's
/// points, and every parameter of the table as one number in the table's order, in the
/// form a plugin's control port carries it: a real or whole number, a choice's index, 0 or
/// 1 for a toggle, and for the Fourier terms a count with 0 meaning "nyquist". Every value
/// is clamped to its row's range as it is set (`AudioParameters.clamped`), and the shape's
/// relations hold after every change: the range is ordered, the echo lies within the cycle,
/// a new range remaps the points and a new duration stretches their times, as the control
/// core's edits do. So any sequence of sets gives a shape the node would accept.
public struct InstrumentShape: Sendable {
    public let parameters: AudioParameters
    public private(set) var points: [CurvePoint]
    private var values: InlineArray<32, Double>
    public var controllers: MIDIControllerMap

    /// `values` in the table's order (`parameters`' rows); each is clamped.
    public init(parameters: AudioParameters, points: [CurvePoint], values: [Double], controllers: MIDIControllerMap = MIDIControllerMap()) {
        precondition(!points.isEmpty, "a shape needs at least one point")
        precondition(values.count == parameters.count, "one value per parameter")
        self.parameters = parameters
        self.points = points
        self.values = InlineArray(repeating: 0)
        self.controllers = controllers
        for i in 0..<parameters.count { self.values[i] = InstrumentShape.clamp(parameters[i], values[i]) }
        let lo = value(.minFrequency)
        let hi = value(.maxFrequency)
        if lo > hi {
            self.values[parameters.index(of: .minFrequency)] = hi
            self.values[parameters.index(of: .maxFrequency)] = lo
        }
        self.values[parameters.index(of: .echoOffset)] = min(value(.echoOffset), value(.duration))
    }

    /// The value of `id`, as a control port carries it.
    public func value(_ id: ParameterID) -> Double { values[parameters.index(of: id)] }

    /// The value of the row at `index` (the table's order).
    public func value(at index: Int) -> Double { values[index] }

    /// Sets `id`, clamped, keeping the shape's relations: a range end moved past the other
    /// takes the other along; the points are remapped onto a new range and stretched over a
    /// new duration; the echo stays within the cycle. Returns the value taken.
    @discardableResult
    public mutating func set(_ id: ParameterID, _ proposed: Double) -> Double {
        let i = parameters.index(of: id)
        let v = InstrumentShape.clamp(parameters[i], proposed)
        switch id {
        case .minFrequency, .maxFrequency:
            var lo = id == .minFrequency ? v : value(.minFrequency)
            var hi = id == .maxFrequency ? v : value(.maxFrequency)
            if lo > hi {
                if id == .minFrequency { hi = lo } else { lo = hi }
            }
            let map = FrequencyMap(fromMin: value(.minFrequency), fromMax: value(.maxFrequency), toMin: lo, toMax: hi)
            for k in points.indices { points[k].frequency = map.apply(points[k].frequency) }
            values[parameters.index(of: .minFrequency)] = lo
            values[parameters.index(of: .maxFrequency)] = hi
        case .duration:
            let factor = v / value(.duration)
            for k in points.indices { points[k].time = min(points[k].time * factor, v) }
            values[i] = v
            let echo = parameters.index(of: .echoOffset)
            values[echo] = min(values[echo], v)
        case .echoOffset:
            values[i] = min(v, value(.duration))
        default:
            values[i] = v
        }
        return values[i]
    }

    /// Replaces the points (times in seconds within the cycle, frequencies in Hz): the
    /// range and the duration stay as they are.
    public mutating func setPoints(_ new: [CurvePoint]) {
        precondition(!new.isEmpty, "a shape needs at least one point")
        points = new
    }

    /// This shape's sound with `current`'s MIDI setup (mode, root, bend range, voices,
    /// release, one-shot, transport, beats, controller map): what a program change loads,
    /// as the node's does.
    public func keepingPerformance(of current: InstrumentShape) -> InstrumentShape {
        var shape = self
        for i in 0..<parameters.count where PerformanceSettings.isPerformance(parameters[i].id) {
            shape.values[i] = current.values[i]
        }
        shape.controllers = current.controllers
        return shape
    }

    /// What a plan is built from.
    public var curve: CurveDescription {
        let waves = WaveType.allCases
        let scales = ScaleType.allCases
        let terms = value(.fourierTerms)
        return CurveDescription(
            points: points, duration: value(.duration), minFrequency: value(.minFrequency), maxFrequency: value(.maxFrequency),
            wave: waves[min(waves.count - 1, Int(value(.wave)))], scale: scales[min(scales.count - 1, Int(value(.scale)))],
            antiAliased: value(.antiAlias) != 0, fourierTerms: terms < 1 ? .nyquist : .count(Int(terms)),
            fidelity: Int(value(.fidelity)), echoOffset: value(.echoOffset))
    }

    /// How it plays from MIDI.
    public var performance: PerformanceSettings {
        var settings = PerformanceSettings()
        for i in 0..<parameters.count where PerformanceSettings.isPerformance(parameters[i].id) {
            settings.set(parameters[i].id, values[i])
        }
        return settings
    }

    /// The row's one clamp, except that the Fourier terms keep 0 ("nyquist").
    private static func clamp(_ row: AudioParameters.Row, _ value: Double) -> Double {
        if row.id == .fourierTerms { return value >= 1 ? min(value, row.high).rounded() : 0 }
        let v = value >= row.low ? (value <= row.high ? value : row.high) : row.low
        // Whole-numbered rows (counts, notes, choices) take whole values, toggles 0 or 1.
        switch row.controller.shape {
        case .stepped: return v.rounded()
        case .toggle: return v >= 0.5 ? 1 : 0
        default: return v
        }
    }
}
