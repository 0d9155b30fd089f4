/// Every parameter of a tone shape, declared once. The OSC address space, the command-line
/// flags, the document keys and the `/state` reply are all derived from this table (in the
/// manner of Faust's UI declarations), so the four can never disagree.
public enum ParameterID: String, CaseIterable, Sendable {
    case minFrequency, maxFrequency, wave, scale, echoOffset, echoVolume, amplitude
    case duration, fidelity, fourierTerms, antiAlias
}

/// How a change reaches the sound (SPEC 8).
public enum ChangeStyle: Sendable {
    /// A linear ramp across the period: no new plan, no click by construction.
    case ramp
    /// A new render plan, cross-faded over a few milliseconds.
    case crossfade
}

/// What values a parameter takes.
public enum ParameterKind: Sendable {
    case real(ClosedRange<Double>)
    case integer(ClosedRange<Int>)
    case choice([String])
    /// A whole number of at least 1, or the word "nyquist".
    case terms
    case flag
}

public enum ParameterValue: Equatable, Sendable, CustomStringConvertible {
    case real(Double)
    case integer(Int)
    case text(String)
    case flag(Bool)

    public var description: String {
        switch self {
        case .real(let d): return String(d)
        case .integer(let i): return String(i)
        case .text(let s): return s
        case .flag(let b): return b ? "true" : "false"
        }
    }

    /// The value as a number if it is an int or a float (OSC sends either for numbers).
    public var numeric: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let i): return Double(i)
        case .text, .flag: return nil
        }
    }

    /// The value as a number, if it is one; a flag counts as 0 or 1.
    public var number: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let i): return Double(i)
        case .flag(let b): return b ? 1 : 0
        case .text: return nil
        }
    }
}

public struct ParameterSpec: Sendable {
    public let id: ParameterID
    /// The key in a `.toneshaper` document.
    public let documentKey: String
    /// The OSC address below the prefix, without a leading slash ("frequency/min").
    public let oscPath: String
    /// The command-line option, without dashes ("min-frequency").
    public let flag: String
    public let kind: ParameterKind
    public let unit: String
    public let change: ChangeStyle
    public let help: String
}

public enum ParameterTable {
    public static let all: [ParameterSpec] = [
        ParameterSpec(id: .minFrequency, documentKey: "minFrequency", oscPath: "frequency/min", flag: "min-frequency",
                      kind: .real(0...96_000), unit: "Hz", change: .ramp,
                      help: "Low end of the frequency range; the curve is remapped onto it"),
        ParameterSpec(id: .maxFrequency, documentKey: "maxFrequency", oscPath: "frequency/max", flag: "max-frequency",
                      kind: .real(0...96_000), unit: "Hz", change: .ramp,
                      help: "High end of the frequency range; the curve is remapped onto it"),
        ParameterSpec(id: .wave, documentKey: "componentType", oscPath: "wave", flag: "wave",
                      kind: .choice(WaveType.allCases.map(\.rawValue)), unit: "", change: .crossfade,
                      help: "Wave type, by name or by index from 0"),
        ParameterSpec(id: .scale, documentKey: "scaleType", oscPath: "scale", flag: "scale",
                      kind: .choice(ScaleType.allCases.map(\.rawValue)), unit: "", change: .crossfade,
                      help: "Amplitude scaling over the cycle, by name or by index from 0"),
        ParameterSpec(id: .echoOffset, documentKey: "echoOffsetTimeSeconds", oscPath: "echo/offset", flag: "echo-offset",
                      kind: .real(0...ToneShapeDocument.maximumDuration), unit: "s", change: .crossfade,
                      help: "Echo offset into the cycle (at most the duration)"),
        ParameterSpec(id: .echoVolume, documentKey: "echoVolume", oscPath: "echo/volume", flag: "echo-volume",
                      kind: .real(0...1), unit: "", change: .ramp,
                      help: "Echo gain"),
        ParameterSpec(id: .amplitude, documentKey: "amplitude", oscPath: "amplitude", flag: "amplitude",
                      kind: .real(0...1), unit: "", change: .ramp,
                      help: "Master gain, linear (also the output's hard limit)"),
        ParameterSpec(id: .duration, documentKey: "duration", oscPath: "duration", flag: "duration",
                      kind: .real(1e-6...ToneShapeDocument.maximumDuration), unit: "s", change: .crossfade,
                      help: "Cycle length"),
        ParameterSpec(id: .fidelity, documentKey: "fidelity", oscPath: "fidelity", flag: "fidelity",
                      kind: .integer(1...ToneShapeDocument.maximumFidelity), unit: "", change: .crossfade,
                      help: "The grid the curve is quantised to"),
        ParameterSpec(id: .fourierTerms, documentKey: "fourierTerms", oscPath: "fourier-terms", flag: "fourier-terms",
                      kind: .terms, unit: "", change: .crossfade,
                      help: "Partials of the Fourier waves"),
        ParameterSpec(id: .antiAlias, documentKey: "antiAlias", oscPath: "anti-alias", flag: "anti-alias",
                      kind: .flag, unit: "", change: .crossfade,
                      help: "Band-limit the plain square, triangle and sawtooth"),
    ]

    public static func spec(_ id: ParameterID) -> ParameterSpec { all.first { $0.id == id }! }
    public static func spec(oscPath: String) -> ParameterSpec? { all.first { $0.oscPath == oscPath } }
    public static func spec(flag: String) -> ParameterSpec? { all.first { $0.flag == flag } }
}

/// Why a parameter change was refused.
public struct ParameterError: Error, Equatable, CustomStringConvertible, Sendable {
    public var parameter: String
    public var problem: String
    public init(parameter: String, problem: String) {
        self.parameter = parameter
        self.problem = problem
    }
    public var description: String { "\(parameter): \(problem)" }
}

extension ToneShape {
    public func value(of id: ParameterID) -> ParameterValue {
        switch id {
        case .minFrequency: return .real(minFrequency)
        case .maxFrequency: return .real(maxFrequency)
        case .wave: return .text(wave.rawValue)
        case .scale: return .text(scale.rawValue)
        case .echoOffset: return .real(echoOffset)
        case .echoVolume: return .real(echoVolume)
        case .amplitude: return .real(amplitude)
        case .duration: return .real(duration)
        case .fidelity: return .integer(fidelity)
        case .fourierTerms:
            if case .count(let n) = fourierTerms { return .integer(n) }
            return .text("nyquist")
        case .antiAlias: return .flag(antiAliased)
        }
    }

    /// This shape with one parameter changed, after checking the value; the shape is
    /// untouched when the value is refused.
    public func setting(_ id: ParameterID, to value: ParameterValue) throws(ParameterError) -> ToneShape {
        let spec = ParameterTable.spec(id)
        func fail(_ problem: String) -> ParameterError { ParameterError(parameter: spec.oscPath, problem: problem) }
        var shape = self
        switch spec.kind {
        case .real(let range):
            guard let d = value.numeric else { throw fail("expects a number\(spec.unit.isEmpty ? "" : " in \(spec.unit)"), got \"\(value)\"") }
            guard d.isFinite else { throw fail("expects a finite number, got \(d)") }
            guard range.contains(d) else { throw fail("\(d) is out of range \(range.lowerBound)...\(range.upperBound)\(spec.unit.isEmpty ? "" : " " + spec.unit)") }
            switch id {
            case .minFrequency:
                guard d <= maxFrequency else { throw fail("\(d) Hz is above the maximum \(maxFrequency) Hz; set both with frequency/range") }
                shape.remapFrequencyRange(min: d, max: maxFrequency)
            case .maxFrequency:
                guard d >= minFrequency else { throw fail("\(d) Hz is below the minimum \(minFrequency) Hz; set both with frequency/range") }
                shape.remapFrequencyRange(min: minFrequency, max: d)
            case .echoOffset:
                guard d <= duration else { throw fail("\(d) s is beyond the cycle's duration \(duration) s") }
                shape.echoOffset = d
            case .echoVolume: shape.echoVolume = d
            case .amplitude: shape.amplitude = d
            case .duration:
                shape.rescaleDuration(d)
                shape.echoOffset = min(shape.echoOffset, d)
            default: break
            }
        case .integer(let range):
            guard let d = value.numeric, d.isFinite, d == d.rounded() else { throw fail("expects a whole number, got \"\(value)\"") }
            guard d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
                throw fail("\(d) is out of range \(range.lowerBound)...\(range.upperBound)")
            }
            shape.fidelity = Int(d)
        case .choice(let names):
            switch value {
            case .text(let s):
                if id == .wave, let w = WaveType(name: s) { shape.wave = w }
                else if id == .scale, let c = ScaleType(name: s) { shape.scale = c }
                else { throw fail("unknown name \"\(s)\"; use one of \(names.joined(separator: ", "))") }
            case .integer(let i) where (0..<names.count).contains(i):
                if id == .wave { shape.wave = WaveType.allCases[i] } else { shape.scale = ScaleType.allCases[i] }
            default:
                throw fail("expects a name or an index 0...\(names.count - 1), got \"\(value)\"")
            }
        case .terms:
            switch value {
            case .text(let s):
                guard let t = FourierTerms(text: s) else { throw fail("expects a count of at least 1 or \"nyquist\", got \"\(s)\"") }
                shape.fourierTerms = t
            default:
                guard let d = value.number, d.isFinite, d == d.rounded(), d >= 1, d <= Double(Int32.max) else {
                    throw fail("expects a count of at least 1 or \"nyquist\", got \"\(value)\"")
                }
                shape.fourierTerms = .count(Int(d))
            }
        case .flag:
            switch value {
            case .flag(let b): shape.antiAliased = b
            case .integer(let i) where i == 0 || i == 1: shape.antiAliased = i == 1
            case .text(let s) where ["true", "false", "on", "off", "1", "0"].contains(s.lowercased()):
                shape.antiAliased = ["true", "on", "1"].contains(s.lowercased())
            default: throw fail("expects 0 or 1 (or true/false), got \"\(value)\"")
            }
        }
        return shape
    }

    /// Replaces the frequency range, remapping the curve onto it.
    public func settingFrequencyRange(min lo: Double, max hi: Double) throws(ParameterError) -> ToneShape {
        func fail(_ problem: String) -> ParameterError { ParameterError(parameter: "frequency/range", problem: problem) }
        guard lo.isFinite, hi.isFinite else { throw fail("expects two finite numbers in Hz") }
        guard lo >= 0, hi <= 96_000 else { throw fail("\(lo)...\(hi) Hz is out of range 0...96000 Hz") }
        guard lo <= hi else { throw fail("minimum \(lo) Hz is above maximum \(hi) Hz") }
        var shape = self
        shape.remapFrequencyRange(min: lo, max: hi)
        return shape
    }

    /// Replaces the curve with points (t0, f0, t1, f1, ...), checked as a document's points are.
    public func settingPoints(_ flat: [Double]) throws(ParameterError) -> ToneShape {
        func fail(_ problem: String) -> ParameterError { ParameterError(parameter: "points", problem: problem) }
        guard !flat.isEmpty, flat.count % 2 == 0 else { throw fail("expects pairs t0 f0 t1 f1 ..., got \(flat.count) numbers") }
        guard flat.count / 2 <= ToneShapeDocument.maximumPoints else { throw fail("too many points (\(flat.count / 2))") }
        var points: [CurvePoint] = []
        for i in stride(from: 0, to: flat.count, by: 2) {
            let t = flat[i], f = flat[i + 1]
            let k = i / 2
            guard t.isFinite, f.isFinite else { throw fail("point \(k) is not finite") }
            guard t >= 0, t <= duration else { throw fail("point \(k): time \(t) is outside 0...\(duration) s") }
            guard f >= 0, f <= 96_000 else { throw fail("point \(k): frequency \(f) Hz is outside 0...96000 Hz") }
            if let last = points.last, t < last.time { throw fail("point \(k): time \(t) comes before \(last.time); sort by time") }
            points.append(CurvePoint(time: t, frequency: f))
        }
        var shape = self
        shape.points = points
        // The range follows the points when they leave it, so a later range change maps them sensibly.
        let lo = points.map(\.frequency).min()!, hi = points.map(\.frequency).max()!
        shape.minFrequency = Swift.min(shape.minFrequency, lo)
        shape.maxFrequency = Swift.max(shape.maxFrequency, hi)
        return shape
    }
}
