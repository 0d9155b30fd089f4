/// How a change reaches the sound (SPEC 8). The controller derives what it sends the
/// audio thread from this column.
public enum ChangeStyle: Sendable {
    /// A linear ramp across one period: no new plan, no click by construction.
    case ramp
    /// A new render plan, cross-faded over a few milliseconds.
    case newPlan
}

/// How a MIDI controller's 0...127 spans a parameter: a column of the table, resolved to
/// numbers (`ParameterSpec.controllerCurve`) for the control side and the audio side alike.
public enum ControllerScaling: Sendable, Equatable {
    /// No controller moves it.
    case none
    /// Evenly over the kind's range.
    case linear
    /// Over `range`, in equal steps of pitch (a frequency).
    case logarithmic(ClosedRange<Double>)
    /// From 0 to the cycle's duration (a place in the cycle).
    case cycle
    /// Off below 64, on from 64.
    case toggle
    /// Evenly over the kind's range, in whole numbers (a count, a note, a choice's index).
    case stepped
}

/// One row of the parameter table: everything a front end needs to offer the parameter
/// and everything the core needs to check and apply it.
public struct ParameterSpec: Sendable {
    public let id: ParameterID
    /// The parameter's number, for good: a plugin format that names parameters by number
    /// (CLAP's and VST3's ids) uses it, and a saved project refers to it. Never reused,
    /// never derived from the row's position: it is the id's raw value, declared with it.
    public let number: Int
    /// The plugin port's symbol (LV2's lv2:symbol), for good: hosts save a project's values
    /// and automation by it. Written out, not derived from the option's spelling, so that
    /// renaming an option breaks no saved project.
    public let symbol: String
    /// The version of the table the row came in (``ParameterTable/firstRelease`` for the
    /// rows of the first release). A plugin's description places a row's port by it (a
    /// port added goes after every existing one) and takes its minor version from the
    /// newest row; a document leaves out a later row's key while it has its default, so a
    /// document written before the row came reads and writes as it did.
    public let addedIn: Int
    /// The key in a `.toneshaper` document.
    public let documentKey: String
    /// Whether a document must carry the key (the original app always writes these).
    public var requiredInDocument: Bool { defaultValue == nil }
    /// The OSC address below the prefix, without a leading slash ("frequency/min").
    public let oscPath: String
    /// The command-line option, without dashes ("min-frequency").
    public let flag: String
    public let kind: ParameterKind
    /// The value a document without the key gets; nil for the keys a document must carry.
    public let defaultValue: ParameterValue?
    public let unit: String
    public let change: ChangeStyle
    /// How a MIDI controller moves it.
    public let controller: ControllerScaling
    public let help: String
    /// How it is shown: its group, its name, its place in the editors, its bar's scale.
    public let presentation: Presentation
    /// Whether it is the MIDI performer's (how a shape is played: the mode, the root, the
    /// voices...) rather than the sound's: the audio side hands it there, and a program
    /// change keeps it.
    public var isPerformance: Bool { presentation.group == .playing }

    init(
        id: ParameterID, symbol: String, addedIn: Int = ParameterTable.firstRelease, documentKey: String, oscPath: String, flag: String,
        kind: ParameterKind, defaultValue: ParameterValue?, unit: String, change: ChangeStyle, controller: ControllerScaling,
        presentation: Presentation, help: String
    ) {
        self.id = id
        self.number = Int(id.rawValue)
        self.symbol = symbol
        self.addedIn = addedIn
        self.documentKey = documentKey
        self.oscPath = oscPath
        self.flag = flag
        self.kind = kind
        self.defaultValue = defaultValue
        self.unit = unit
        self.change = change
        self.controller = controller
        self.presentation = presentation
        self.help = help
    }

    /// `value` checked against the kind and turned into its canonical form.
    public func canonical(_ value: ParameterValue) throws(ControlError) -> ParameterValue {
        do { return try kind.canonical(value, unit: unit) } catch { throw error.about(id) }
    }

    /// A canonical value of this parameter as a plugin's control carries it.
    public func portValue(of value: ParameterValue) -> Double {
        switch (kind, value) {
        case (.choice(let names), .text(let name)): return Double(names.firstIndex(of: name) ?? 0)
        case (.terms, .text): return 0
        case (.terms, .integer(let n)): return Double(min(n, ToneShapeLimits.maximumPartials))
        case (.flag, .flag(let on)): return on ? 1 : 0
        default: return value.real
        }
    }

    /// The canonical value a plugin's control at `port` stands for (``portValue(of:)``
    /// read back): a choice's name, "nyquist" for 0 terms, a flag for a toggle.
    public func value(fromPort port: Double) -> ParameterValue {
        switch kind {
        case .real: return .real(port)
        case .integer: return .integer(Int(port))
        case .choice(let names): return .text(names[max(0, min(names.count - 1, Int(port)))])
        case .terms: return port >= 1 ? .integer(Int(port)) : .text("nyquist")
        case .flag: return .flag(port != 0)
        }
    }

    /// The `controller` column in numbers: the one evaluator of a controller's value, on
    /// either side.
    public var controllerCurve: ControllerCurve {
        let range = numericRange ?? 0...0
        switch controller {
        case .none: return ControllerCurve(.none)
        case .linear: return ControllerCurve(.linear, low: range.lowerBound, high: range.upperBound)
        case .stepped: return ControllerCurve(.stepped, low: range.lowerBound, high: range.upperBound)
        case .toggle: return ControllerCurve(.toggle, low: 0, high: 1)
        case .cycle: return ControllerCurve(.cycle, low: 0, high: range.upperBound)
        case .logarithmic(let r):
            return ControllerCurve(.logarithmic, low: r.lowerBound, high: r.upperBound, octaves: ParameterSpec.log2(r.upperBound / r.lowerBound))
        }
    }

    /// The range of a real-valued parameter, as numbers (for MIDI CC mapping, OSCQuery RANGE).
    public var numericRange: ClosedRange<Double>? {
        switch kind {
        case .real(let r): return r
        case .integer(let r): return Double(r.lowerBound)...Double(r.upperBound)
        case .choice(let names): return 0...Double(names.count - 1)
        case .flag: return 0...1
        case .terms: return nil
        }
    }

    /// log2(x) for x > 0, in plain Swift (Embedded Swift imports no libm): the exponent, plus
    /// the significand's logarithm from the series of atanh, which converges in a few terms
    /// on [1, 2). Inlinable: the audio side reads an MTS-ESP master's frequencies with it,
    /// under the real-time proof.
    @inlinable
    public static func log2(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log2 of a positive number")
        let m = x.significand
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        var term = z
        var sum = 0.0
        var k = 1.0
        while true {
            let next = sum + term / k
            if next == sum { break }
            sum = next
            term *= z2
            k += 2
        }
        return Double(x.exponent) + 2 * sum / 0.693_147_180_559_945_3
    }
}
