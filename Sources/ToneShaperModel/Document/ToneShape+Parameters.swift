import ToneShaperParameters

// The model's binding of the table's rows (ToneShaperParameters declares them, knowing no
// shape): where each value lives in a `ToneShape`, what setting it does to the rest of the
// shape, and how it must stand to the rest. The rows with a field of their own are named;
// every other row, a performance row or one added later, lives in the shape's performance
// values by id, so a new row needs nothing here.

extension ToneShape {
    /// The value of `id` in its canonical form (``ParameterSpec/canonical(_:)``); setting it
    /// stores a canonical value and nothing else (decoding a document), see
    /// ``ParameterSpec/apply(_:to:)`` for a change made while playing.
    public subscript(id: ParameterID) -> ParameterValue {
        get {
            switch id {
            case .minFrequency: return .real(minFrequency)
            case .maxFrequency: return .real(maxFrequency)
            case .wave: return .text(wave.rawValue)
            case .scale: return .text(scale.rawValue)
            case .echoOffset: return .real(echoOffset)
            case .echoVolume: return .real(echoVolume)
            case .amplitude: return .real(amplitude)
            case .tune: return .real(tune)
            case .duration: return .real(duration)
            case .fidelity: return .integer(fidelity)
            case .fourierTerms:
                if case .count(let n) = fourierTerms { return .integer(n) }
                return .text("nyquist")
            case .antiAlias: return .flag(antiAliased)
            default: return ParameterTable.spec(id).value(fromPort: performance[id])
            }
        }
        set {
            switch id {
            case .minFrequency: minFrequency = newValue.real
            case .maxFrequency: maxFrequency = newValue.real
            case .wave: wave = WaveType(rawValue: newValue.text)!
            case .scale: scale = ScaleType(rawValue: newValue.text)!
            case .echoOffset: echoOffset = newValue.real
            case .echoVolume: echoVolume = newValue.real
            case .amplitude: amplitude = newValue.real
            case .tune: tune = newValue.real
            case .duration: duration = newValue.real
            case .fidelity: fidelity = newValue.integer
            case .fourierTerms: fourierTerms = newValue == .text("nyquist") ? .nyquist : .count(newValue.integer)
            case .antiAlias: antiAliased = newValue.flag
            default: performance.set(id, ParameterTable.spec(id).portValue(of: newValue))
            }
        }
    }
}

extension ParameterSpec {
    /// Reads the parameter out of a shape (canonical form).
    public func value(in shape: ToneShape) -> ParameterValue { shape[id] }

    /// The value as a plugin's control carries it (``portValue(of:)`` of the shape's).
    public func portValue(in shape: ToneShape) -> Double { portValue(of: shape[id]) }

    /// Stores a canonical value into a shape, nothing else (decoding a document).
    func store(_ shape: inout ToneShape, _ value: ParameterValue) { shape[id] = value }

    /// Sets a canonical value while playing, with what that does to the rest of the shape:
    /// the range remaps the points onto it, a new duration stretches them (and keeps the
    /// echo within the cycle).
    func apply(_ value: ParameterValue, to shape: inout ToneShape) {
        switch id {
        case .minFrequency: shape.remapFrequencyRange(min: value.real, max: shape.maxFrequency)
        case .maxFrequency: shape.remapFrequencyRange(min: shape.minFrequency, max: value.real)
        case .duration:
            shape.rescaleDuration(value.real)
            shape.echoOffset = min(shape.echoOffset, value.real)
        default: shape[id] = value
        }
    }

    /// How the value must stand to the rest of the shape (min below max, the echo within the
    /// cycle); nil when it may.
    func problem(with value: ParameterValue, in shape: ToneShape) -> ControlError? {
        switch id {
        case .minFrequency where value.real > shape.maxFrequency:
            return ControlError(
                .parameter(id), "\(ParameterKind.plain(value.real)) Hz is above the maximum \(ParameterKind.plain(shape.maxFrequency)) Hz",
                remedy: .setRangeTogether)
        case .maxFrequency where value.real < shape.minFrequency:
            return ControlError(
                .parameter(id), "\(ParameterKind.plain(value.real)) Hz is below the minimum \(ParameterKind.plain(shape.minFrequency)) Hz",
                remedy: .setRangeTogether)
        case .echoOffset where value.real > shape.duration:
            return ControlError(
                .parameter(id), "\(ParameterKind.plain(value.real)) s is beyond the cycle's duration \(ParameterKind.plain(shape.duration)) s")
        default: return nil
        }
    }
}

extension ToneShape {
    /// Every row's value as a plugin's control carries it (``ParameterSpec/portValue(in:)``),
    /// by id: what the audio side is made from (`RealtimeRenderer(plan:values:...)`).
    public var playedValues: ParameterValues {
        var values = ParameterValues()
        for spec in ParameterTable.all { values[spec.id] = spec.portValue(in: self) }
        return values
    }
}
