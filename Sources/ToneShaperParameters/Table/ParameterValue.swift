import ToneShaperJSON

/// A parameter's value as any front end hands it over: OSC arguments, command-line text,
/// JSON, a MIDI controller. The table's `canonical(_:)` turns it into the one form the
/// parameter keeps (see `ParameterKind`).
public enum ParameterValue: Equatable, Hashable, Sendable, CustomStringConvertible {
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

    /// Text as typed on a command line or in a web form: numbers become numbers (whole
    /// ones integers, so that a choice can be given by its index), the rest stays text.
    public static func parsing(_ text: String) -> ParameterValue {
        if let i = Int(text) { return .integer(i) }
        if let d = NumberText.double(text) { return .real(d) }
        return .text(text)
    }

    /// A button's value (OSC controllers send 1 on press and 0 on release): true for a
    /// press. Names the problem for anything that is not a number or a flag.
    public func buttonPress() throws(ControlError) -> Bool {
        switch self {
        case .flag(let b): return b
        case .integer(let i): return i != 0
        case .real(let d) where d.isFinite: return d != 0
        default: throw ControlError(.value, "expects no value, or a button's 1 (press) or 0 (release), got \"\(self)\"")
        }
    }
}
