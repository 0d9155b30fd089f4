/// What values a parameter takes, and the one check every front end's value goes
/// through (a document, a command-line option, an OSC message, a MIDI controller).
public enum ParameterKind: Sendable {
    /// A finite number in the range (kept as `.real`).
    case real(ClosedRange<Double>)
    /// A whole number in the range (kept as `.integer`; whole floats are accepted, since
    /// many controllers send nothing else).
    case integer(ClosedRange<Int>)
    /// One of the names, by name (case-insensitive, `-`/`_` for spaces) or by index from 0
    /// (kept as `.text` of the canonical name).
    case choice([String])
    /// A whole number of at least 1, or the word "nyquist" (kept as `.integer` or `.text("nyquist")`).
    case terms
    /// On or off (kept as `.flag`); also 0/1 and true/false, on/off as text.
    case flag

    /// `value` in this kind's canonical form, or why it is not acceptable. The problem is
    /// phrased without naming the parameter: the front end knows how its user names it.
    public func canonical(_ value: ParameterValue, unit: String) throws(ControlError) -> ParameterValue {
        let units = unit.isEmpty ? "" : " \(unit)"
        switch self {
        case .real(let range):
            guard let d = value.numeric else { throw ControlError(.value, "expects a number\(unit.isEmpty ? "" : " in \(unit)"), got \"\(value)\"") }
            guard d.isFinite else { throw ControlError(.value, "expects a finite number, got \(d)") }
            guard range.contains(d) else {
                throw ControlError(
                    .value,
                    "\(ParameterKind.plain(d)) is out of range \(ParameterKind.plain(range.lowerBound))...\(ParameterKind.plain(range.upperBound))\(units)"
                )
            }
            return .real(d)
        case .integer(let range):
            guard let d = value.numeric, d.isFinite, d == d.rounded() else { throw ControlError(.value, "expects a whole number, got \"\(value)\"") }
            guard d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
                throw ControlError(.value, "\(ParameterKind.plain(d)) is out of range \(range.lowerBound)...\(range.upperBound)")
            }
            return .integer(Int(d))
        case .choice(let names):
            switch value {
            case .text(let s):
                guard let match = names.first(where: { nameKey($0) == nameKey(s) }) else {
                    throw ControlError(.value, "unknown name \"\(s)\"; use one of \(names.joined(separator: ", "))")
                }
                return .text(match)
            case .integer, .real:
                guard let d = value.numeric, d == d.rounded(), d >= 0, d < Double(names.count) else { fallthrough }
                return .text(names[Int(d)])
            default:
                throw ControlError(.value, "expects a name or an index 0...\(names.count - 1), got \"\(value)\"")
            }
        case .terms:
            if case .text(let s) = value {
                if s.lowercased() == "nyquist" { return .text("nyquist") }
                if let n = Int(s) { return try canonical(.integer(n), unit: unit) }
            } else if let d = value.numeric, d.isFinite, d == d.rounded(), d >= 1, d <= Double(Int32.max) {
                return .integer(Int(d))
            }
            throw ControlError(.value, "expects a count of at least 1 or \"nyquist\", got \"\(value)\"")
        case .flag:
            switch value {
            case .flag(let b): return .flag(b)
            case .integer(let i) where i == 0 || i == 1: return .flag(i == 1)
            case .real(let d) where d == 0 || d == 1: return .flag(d == 1)
            case .text(let s) where ["true", "false", "on", "off", "1", "0", "yes", "no"].contains(s.lowercased()):
                return .flag(["true", "on", "1", "yes"].contains(s.lowercased()))
            default: throw ControlError(.value, "expects 0 or 1 (or true/false, on/off), got \"\(value)\"")
            }
        }
    }

    /// The numbers a plugin's control of this kind carries.
    public var portKind: AudioParameters.PortKind {
        switch self {
        case .real: return .real
        case .integer: return .integer
        case .choice: return .choice
        case .terms: return .terms
        case .flag: return .toggle
        }
    }

    /// A number as people write it: 96000, not 96000.0.
    public static func plain(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// The range as text for help and descriptions ("0...96000 Hz", "Sine, Square, ...").
    public func describeValues(unit: String) -> String {
        switch self {
        case .real(let range):
            return "\(ParameterKind.plain(range.lowerBound))...\(ParameterKind.plain(range.upperBound))\(unit.isEmpty ? "" : " " + unit)"
        case .integer(let range): return "\(range.lowerBound)...\(range.upperBound)"
        case .choice(let names): return names.joined(separator: ", ")
        case .terms: return "a count of at least 1, or nyquist"
        case .flag: return "1 or 0 (true or false)"
        }
    }
}
