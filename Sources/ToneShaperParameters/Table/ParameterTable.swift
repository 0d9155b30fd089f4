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
                id: .minFrequency, symbol: "min_frequency", documentKey: "minFrequency", oscPath: "frequency/min", flag: "min-frequency",
                kind: .real(FrequencyLimit.range), defaultValue: nil, unit: "Hz", change: .ramp,
                controller: .logarithmic(20...20_000), presentation: .init(.shape, priority: 9, editorPlace: 0, logarithmic: true),
                help: "Low end of the frequency range; the curve is remapped onto it"),
            ParameterSpec(
                id: .maxFrequency, symbol: "max_frequency", documentKey: "maxFrequency", oscPath: "frequency/max", flag: "max-frequency",
                kind: .real(FrequencyLimit.range), defaultValue: nil, unit: "Hz", change: .ramp,
                controller: .logarithmic(20...20_000), presentation: .init(.shape, priority: 9, editorPlace: 1, logarithmic: true),
                help: "High end of the frequency range; the curve is remapped onto it"),
            ParameterSpec(
                id: .wave, symbol: "wave", documentKey: "componentType", oscPath: "wave", flag: "wave",
                kind: .choice(WaveType.allCases.map { $0.rawValue }), defaultValue: .text(WaveType.sine.rawValue), unit: "", change: .newPlan,
                controller: .stepped, presentation: .init(.sound, priority: 8, editorPlace: 3),
                help: "Wave type, by name or by index from 0"),
            ParameterSpec(
                id: .scale, symbol: "scale", documentKey: "scaleType", oscPath: "scale", flag: "scale",
                kind: .choice(ScaleType.allCases.map { $0.rawValue }), defaultValue: .text(ScaleType.sine.rawValue), unit: "", change: .newPlan,
                controller: .stepped, presentation: .init(.sound, priority: 4, editorPlace: 4),
                help: "Amplitude scaling over the cycle, by name or by index from 0"),
            ParameterSpec(
                id: .echoOffset, symbol: "echo_offset", documentKey: "echoOffsetTimeSeconds", oscPath: "echo/offset", flag: "echo-offset",
                kind: .real(0...ToneShapeLimits.maximumDuration), defaultValue: .real(0), unit: "s", change: .newPlan,
                controller: .cycle, presentation: .init(.sound, priority: 5, editorPlace: 5),
                help: "Echo voice this far ahead in the cycle (at most the duration)"),
            ParameterSpec(
                id: .echoVolume, symbol: "echo_volume", documentKey: "echoVolume", oscPath: "echo/volume", flag: "echo-volume",
                kind: .real(0...1), defaultValue: .real(1), unit: "", change: .ramp,
                controller: .linear, presentation: .init(.sound, priority: 5, editorPlace: 6, modulatable: true),
                help: "Echo gain; the mix is (main + volume * echo) / 2"),
            ParameterSpec(
                id: .amplitude, symbol: "amplitude", documentKey: "amplitude", oscPath: "amplitude", flag: "amplitude",
                kind: .real(0...1), defaultValue: .real(0.25), unit: "", change: .ramp,
                controller: .linear, presentation: .init(.sound, priority: 10, editorPlace: 7, modulatable: true),
                help: "Master gain, linear (also the output's hard limit)"),
            ParameterSpec(
                id: .tune, symbol: "tune", addedIn: 4, documentKey: "tune", oscPath: "tune", flag: "tune",
                kind: .real(-100...100), defaultValue: .real(0), unit: "cents", change: .ramp,
                controller: .linear, presentation: .init(.sound, priority: 3, editorPlace: 8, modulatable: true),
                help: "Fine tuning of everything played, in cents (100 = a semitone up)"),
            ParameterSpec(
                id: .duration, symbol: "duration", documentKey: "duration", oscPath: "duration", flag: "duration",
                kind: .real(ToneShapeLimits.minimumDuration...ToneShapeLimits.maximumDuration), defaultValue: nil,
                unit: "s", change: .newPlan,
                controller: .linear, presentation: .init(.shape, priority: 7, editorPlace: 2, logarithmic: true),
                help: "Cycle length; the curve's times stretch with it"),
            ParameterSpec(
                id: .fidelity, symbol: "fidelity", documentKey: "fidelity", oscPath: "fidelity", flag: "fidelity",
                kind: .integer(1...ToneShapeLimits.maximumFidelity), defaultValue: .integer(500), unit: "", change: .newPlan,
                controller: .stepped, presentation: .init(.shape, editorPlace: 9, logarithmic: true),
                help: "The grid the curve is quantised to; low values (1, 4) coarsen it audibly"),
            ParameterSpec(
                id: .fourierTerms, symbol: "fourier_terms", documentKey: "fourierTerms", oscPath: "fourier-terms", flag: "fourier-terms",
                kind: .terms, defaultValue: .integer(3), unit: "", change: .newPlan,
                controller: .none, presentation: .init(.sound),
                help: "Partials of the Fourier waves; nyquist: every partial below Nyquist"),
            ParameterSpec(
                id: .antiAlias, symbol: "anti_alias", documentKey: "antiAlias", oscPath: "anti-alias", flag: "anti-alias",
                kind: .flag, defaultValue: .flag(true), unit: "", change: .newPlan,
                controller: .toggle, presentation: .init(.sound),
                help: "Band-limit the plain square, triangle and sawtooth"),
        ] + performanceRows

    /// The table as the audio side reads it (see `AudioParameters`).
    public static let audioParameters = AudioParameters(
        all.map { spec in
            let range = spec.numericRange ?? 1...Double(Int32.max)  // `terms`: a count
            return AudioParameters.Row(
                id: spec.id, low: range.lowerBound, high: range.upperBound, ramps: spec.change == .ramp, controller: spec.controllerCurve,
                kind: spec.kind.portKind, performer: spec.isPerformance)
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
