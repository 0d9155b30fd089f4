import ToneShaperParameters

/// What an address takes: its arguments in order, each with a type, the values it accepts
/// and a unit. The core declares it beside the command's meaning, so that no front end has
/// to know it: OSCQuery's TYPE, RANGE and UNIT, the help texts and the reference tables are
/// read off it, and `ControlAddress.request(_:)` checks the count of arguments against it.
public struct ControlSignature: Sendable, Equatable, CustomStringConvertible {
    /// How many times the declared arguments come.
    public enum Arity: Sendable, Equatable {
        /// Exactly once each.
        case exact
        /// Once, or not at all (a button sends its press; a bare message is a press too).
        case optional
        /// Any number of times in turn (t0 f0 t1 f1 ...); none asks for the current value.
        case repeated
    }

    public let arguments: [ControlArgument]
    public let arity: Arity

    public init(_ arguments: [ControlArgument], arity: Arity = .exact) {
        self.arguments = arguments
        self.arity = arity
    }

    /// No arguments at all.
    public static let none = ControlSignature([])

    /// The arguments for people, one after another: "min: number 0...96000 Hz, max: ...";
    /// "[press: ...]" when optional; "(...) repeated" when repeated.
    public var description: String {
        let list = arguments.map(\.description).joined(separator: ", ")
        switch arity {
        case .exact: return list
        case .optional: return "[\(list)]"
        case .repeated: return "(\(list)) repeated"
        }
    }
}

/// One argument of an address.
public struct ControlArgument: Sendable, Equatable, CustomStringConvertible {
    /// What values the argument takes: a parameter's kinds (`ParameterKind`) and free text.
    public enum ValueType: Sendable, Equatable {
        case real(ClosedRange<Double>)
        case integer(ClosedRange<Int>)
        case choice([String])
        /// A count of at least 1, or the word "nyquist".
        case countOrNyquist
        case flag
        /// Text that names something (a document, a parameter): what it names.
        case text(String)
    }

    public let name: String
    public let type: ValueType
    /// "Hz", "s", "dBFS", or "" for none.
    public let unit: String
    /// The stretch a fader offers, where it is narrower than what is accepted: decibels
    /// go down to silence, a fader stops at -120 dBFS, far below what 24 bits resolve.
    public let controlRange: ClosedRange<Double>?

    public init(_ name: String, _ type: ValueType, unit: String = "", controlRange: ClosedRange<Double>? = nil) {
        self.name = name
        self.type = type
        self.unit = unit
        self.controlRange = controlRange
    }

    /// The argument that sets parameter `id`, under `name`: its kind and unit from the table.
    public init(_ name: String, parameter id: ParameterID) {
        let spec = ParameterTable.spec(id)
        let type: ValueType
        switch spec.kind {
        case .real(let range): type = .real(range)
        case .integer(let range): type = .integer(range)
        case .choice(let names): type = .choice(names)
        case .terms: type = .countOrNyquist
        case .flag: type = .flag
        }
        self.init(name, type, unit: spec.unit)
    }

    /// The numbers a control for it spans (OSCQuery's RANGE), when it has finite ones.
    public var numericRange: ClosedRange<Double>? {
        if let controlRange { return controlRange }
        switch type {
        case .real(let range): return range.lowerBound.isFinite && range.upperBound.isFinite ? range : nil
        case .integer(let range): return Double(range.lowerBound)...Double(range.upperBound)
        case .choice, .countOrNyquist, .flag, .text: return nil
        }
    }

    /// "min: number 0...96000 Hz", "value: name (Sine, Square, ...) or index 0...6".
    public var description: String {
        let unit = self.unit.isEmpty ? "" : " " + self.unit
        let plain = ParameterKind.plain
        switch type {
        case .real(let range) where !range.lowerBound.isFinite:
            return "\(name): number <= \(plain(range.upperBound))\(unit)"
        case .real(let range): return "\(name): number \(plain(range.lowerBound))...\(plain(range.upperBound))\(unit)"
        case .integer(let range): return "\(name): whole number \(range.lowerBound)...\(range.upperBound)\(unit)"
        case .choice(let names): return "\(name): name (\(names.joined(separator: ", "))) or index 0...\(names.count - 1)"
        case .countOrNyquist: return "\(name): count >= 1 or nyquist"
        case .flag: return "\(name): flag 0 or 1"
        case .text(let what): return "\(name): text, \(what)"
        }
    }
}
