/// Every parameter of a tone shape, declared once, in the manner of Faust's UI
/// declarations: the document keys and their defaults, the checks, the command-line
/// options, the OSC addresses, `/state`, and how a change reaches the sound all come from
/// these rows, so no front end can disagree with another.
public enum ParameterTable {
    /// The table's version at the plugin's first release (its lv2:minorVersion then). A row
    /// added later says so in ``ParameterSpec/addedIn``, with the next even number.
    public static let firstRelease = 2

    public static let all: [ParameterSpec] =
        [
            ParameterSpec(
                id: .minFrequency, number: 0, symbol: "min_frequency", documentKey: "minFrequency", oscPath: "frequency/min", flag: "min-frequency",
                kind: .real(FrequencyLimit.range), defaultValue: nil, unit: "Hz", change: .ramp,
                controller: .logarithmic(20...20_000), help: "Low end of the frequency range; the curve is remapped onto it",
                read: { .real($0.minFrequency) }, store: { $0.minFrequency = $1.real },
                sideEffect: { shape, v in shape.remapFrequencyRange(min: v.real, max: shape.maxFrequency) },
                constraint: { shape, v in
                    v.real <= shape.maxFrequency
                        ? nil
                        : ControlError(
                            .parameter(.minFrequency),
                            "\(ParameterKind.plain(v.real)) Hz is above the maximum \(ParameterKind.plain(shape.maxFrequency)) Hz",
                            remedy: .setRangeTogether)
                }),
            ParameterSpec(
                id: .maxFrequency, number: 1, symbol: "max_frequency", documentKey: "maxFrequency", oscPath: "frequency/max", flag: "max-frequency",
                kind: .real(FrequencyLimit.range), defaultValue: nil, unit: "Hz", change: .ramp,
                controller: .logarithmic(20...20_000), help: "High end of the frequency range; the curve is remapped onto it",
                read: { .real($0.maxFrequency) }, store: { $0.maxFrequency = $1.real },
                sideEffect: { shape, v in shape.remapFrequencyRange(min: shape.minFrequency, max: v.real) },
                constraint: { shape, v in
                    v.real >= shape.minFrequency
                        ? nil
                        : ControlError(
                            .parameter(.maxFrequency),
                            "\(ParameterKind.plain(v.real)) Hz is below the minimum \(ParameterKind.plain(shape.minFrequency)) Hz",
                            remedy: .setRangeTogether)
                }),
            ParameterSpec(
                id: .wave, number: 2, symbol: "wave", documentKey: "componentType", oscPath: "wave", flag: "wave",
                kind: .choice(WaveType.allCases.map { $0.rawValue }), defaultValue: .text(WaveType.sine.rawValue), unit: "", change: .newPlan,
                controller: .stepped, help: "Wave type, by name or by index from 0",
                read: { .text($0.wave.rawValue) }, store: { $0.wave = WaveType(rawValue: $1.text)! }),
            ParameterSpec(
                id: .scale, number: 3, symbol: "scale", documentKey: "scaleType", oscPath: "scale", flag: "scale",
                kind: .choice(ScaleType.allCases.map { $0.rawValue }), defaultValue: .text(ScaleType.sine.rawValue), unit: "", change: .newPlan,
                controller: .stepped, help: "Amplitude scaling over the cycle, by name or by index from 0",
                read: { .text($0.scale.rawValue) }, store: { $0.scale = ScaleType(rawValue: $1.text)! }),
            ParameterSpec(
                id: .echoOffset, number: 4, symbol: "echo_offset", documentKey: "echoOffsetTimeSeconds", oscPath: "echo/offset", flag: "echo-offset",
                kind: .real(0...ToneShapeLimits.maximumDuration), defaultValue: .real(0), unit: "s", change: .newPlan,
                controller: .cycle, help: "Echo voice this far ahead in the cycle (at most the duration)",
                read: { .real($0.echoOffset) }, store: { $0.echoOffset = $1.real },
                constraint: { shape, v in
                    v.real <= shape.duration
                        ? nil
                        : ControlError(
                            .parameter(.echoOffset),
                            "\(ParameterKind.plain(v.real)) s is beyond the cycle's duration \(ParameterKind.plain(shape.duration)) s")
                }),
            ParameterSpec(
                id: .echoVolume, number: 5, symbol: "echo_volume", documentKey: "echoVolume", oscPath: "echo/volume", flag: "echo-volume",
                kind: .real(0...1), defaultValue: .real(1), unit: "", change: .ramp,
                controller: .linear, help: "Echo gain; the mix is (main + volume * echo) / 2",
                read: { .real($0.echoVolume) }, store: { $0.echoVolume = $1.real }),
            ParameterSpec(
                id: .amplitude, number: 6, symbol: "amplitude", documentKey: "amplitude", oscPath: "amplitude", flag: "amplitude",
                kind: .real(0...1), defaultValue: .real(0.25), unit: "", change: .ramp,
                controller: .linear, help: "Master gain, linear (also the output's hard limit)",
                read: { .real($0.amplitude) }, store: { $0.amplitude = $1.real }),
            ParameterSpec(
                id: .tune, number: 19, symbol: "tune", addedIn: 4, documentKey: "tune", oscPath: "tune", flag: "tune",
                kind: .real(-100...100), defaultValue: .real(0), unit: "cents", change: .ramp,
                controller: .linear, help: "Fine tuning of everything played, in cents (100 = a semitone up)",
                read: { .real($0.tune) }, store: { $0.tune = $1.real }),
            ParameterSpec(
                id: .duration, number: 7, symbol: "duration", documentKey: "duration", oscPath: "duration", flag: "duration",
                kind: .real(ToneShapeLimits.minimumDuration...ToneShapeLimits.maximumDuration), defaultValue: nil,
                unit: "s", change: .newPlan,
                controller: .linear, help: "Cycle length; the curve's times stretch with it",
                read: { .real($0.duration) }, store: { $0.duration = $1.real },
                sideEffect: { shape, v in
                    shape.rescaleDuration(v.real)
                    shape.echoOffset = min(shape.echoOffset, v.real)
                }),
            ParameterSpec(
                id: .fidelity, number: 8, symbol: "fidelity", documentKey: "fidelity", oscPath: "fidelity", flag: "fidelity",
                kind: .integer(1...ToneShapeLimits.maximumFidelity), defaultValue: .integer(500), unit: "", change: .newPlan,
                controller: .stepped, help: "The grid the curve is quantised to; low values (1, 4) coarsen it audibly",
                read: { .integer($0.fidelity) }, store: { $0.fidelity = $1.integer }),
            ParameterSpec(
                id: .fourierTerms, number: 9, symbol: "fourier_terms", documentKey: "fourierTerms", oscPath: "fourier-terms", flag: "fourier-terms",
                kind: .terms, defaultValue: .integer(3), unit: "", change: .newPlan,
                controller: .none, help: "Partials of the Fourier waves; nyquist: every partial below Nyquist",
                read: { shape in
                    if case .count(let n) = shape.fourierTerms { return .integer(n) }
                    return .text("nyquist")
                },
                store: { shape, v in shape.fourierTerms = v == .text("nyquist") ? .nyquist : .count(v.integer) }),
            ParameterSpec(
                id: .antiAlias, number: 10, symbol: "anti_alias", documentKey: "antiAlias", oscPath: "anti-alias", flag: "anti-alias",
                kind: .flag, defaultValue: .flag(true), unit: "", change: .newPlan,
                controller: .toggle, help: "Band-limit the plain square, triangle and sawtooth",
                read: { .flag($0.antiAliased) }, store: { $0.antiAliased = $1.flag }),
        ] + performanceRows

    /// The table as the audio side reads it (see `AudioParameters`).
    public static let audioParameters = AudioParameters(
        all.map { spec in
            let range = spec.numericRange ?? 1...Double(Int32.max)  // `terms`: a count
            return AudioParameters.Row(
                id: spec.id, low: range.lowerBound, high: range.upperBound, ramps: spec.change == .ramp, controller: spec.controllerCurve,
                kind: spec.kind.portKind)
        })

    private static let byID: [ParameterID: ParameterSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    public static func spec(_ id: ParameterID) -> ParameterSpec { byID[id]! }
    public static func spec(oscPath: String) -> ParameterSpec? { all.first { $0.oscPath == oscPath } }
    public static func spec(flag: String) -> ParameterSpec? { all.first { $0.flag == flag } }
    public static func spec(documentKey: String) -> ParameterSpec? { all.first { $0.documentKey == documentKey } }
}

// The canonical forms `ParameterKind.canonical` produces, read back by the table's rows.
extension ParameterValue {
    package var real: Double {
        if case .flag(let b) = self { return b ? 1 : 0 }  // a flag row's ramp value
        return numeric ?? 0
    }
    package var integer: Int {
        if case .integer(let i) = self { return i }
        return Int(numeric ?? 0)
    }
    package var text: String {
        if case .text(let s) = self { return s }
        return description
    }
    package var flag: Bool {
        if case .flag(let b) = self { return b }
        return (numeric ?? 0) != 0
    }
}
