/// What the audio side knows of the parameter table, as plain data handed to it when a
/// renderer is made (`ParameterTable.audioParameters`): for each row, in the table's order,
/// its id, range, change style and controller curve. The audio thread cannot read the table
/// itself (its rows hold closures and text, behind lazily made globals); this copy is
/// derived from it, so the two cannot disagree. A row's place here is the parameter's small
/// index for the audio side's fixed tables (the audio report).
public struct AudioParameters: Sendable, BitwiseCopyable {
    /// The numbers a plugin's control carries for a row (its port's type).
    public enum PortKind: UInt8, Sendable, BitwiseCopyable {
        /// Any number in the range.
        case real
        /// A whole number in the range.
        case integer
        /// 0 or 1.
        case toggle
        /// An index into the row's names.
        case choice
        /// Fourier terms: a count of partials, 0 for every partial below Nyquist.
        case terms
    }

    public struct Row: Sendable, BitwiseCopyable {
        public let id: ParameterID
        /// The range every value the audio side takes is clamped to (its one clamp).
        public let low: Double
        public let high: Double
        /// True for `.ramp` rows: the audio side changes them itself; the others need a new
        /// plan, which only the control side builds.
        public let ramps: Bool
        public let controller: ControllerCurve
        /// What numbers a plugin's control of the row takes (``portValue(_:)``).
        public let kind: PortKind
        /// The MIDI performer's (``ParameterSpec/isPerformance``), not the engine's.
        public let performer: Bool

        public init(id: ParameterID, low: Double, high: Double, ramps: Bool, controller: ControllerCurve, kind: PortKind, performer: Bool) {
            self.id = id
            self.low = low
            self.high = high
            self.ramps = ramps
            self.controller = controller
            self.kind = kind
            self.performer = performer
        }

        /// A finite value of a plugin's control for the row, as the plugin plays it: within
        /// the range, whole for whole-numbered kinds, 0 or 1 for a toggle (lv2core: on above
        /// 0), and for the Fourier terms a count up to the kernel's partials, or 0 for
        /// "nyquist". The one rule every plugin format applies to what its host sends.
        #if REALTIME_PROOF
            @_noLocks @_noAllocation
        #endif
        @inlinable
        public func portValue(_ value: Double) -> Double {
            switch kind {
            case .real: return clamped(value)
            case .integer, .choice: return Row.nearestWhole(clamped(value))
            case .toggle: return value > 0 ? 1 : 0
            case .terms: return value >= 1 ? Row.nearestWhole(min(value, Double(ToneShapeLimits.maximumPartials))) : 0
            }
        }

        /// The whole number nearest `value` (halves away from zero, as `rounded()`), for a
        /// value within a row's range; written out because `rounded()`'s rule is a type whose
        /// metadata the real-time proof refuses.
        #if REALTIME_PROOF
            @_noLocks @_noAllocation
        #endif
        @inlinable
        static func nearestWhole(_ value: Double) -> Double {
            let whole = Double(Int(value))  // toward zero; exact for the ranges of the table
            let rest = value - whole
            return rest >= 0.5 ? whole + 1 : (rest <= -0.5 ? whole - 1 : whole)
        }

        /// `value` within the range (NaN becomes the low end): the audio side's one clamp.
        #if REALTIME_PROOF
            @_noLocks @_noAllocation
        #endif
        @inlinable
        public func clamped(_ value: Double) -> Double {
            value >= low ? (value <= high ? value : high) : low
        }
    }

    /// Room for the table's rows (it has fewer; `init` checks).
    public static let capacity = 32
    @usableFromInline var rows: InlineArray<32, Row>
    public private(set) var count = 0

    public init(_ table: [Row]) {
        precondition(table.count <= AudioParameters.capacity, "more parameters than the audio side has room for")
        rows = InlineArray(
            repeating: Row(id: table[0].id, low: 0, high: 0, ramps: false, controller: ControllerCurve(.none), kind: .real, performer: false))
        for row in table {
            rows[count] = row
            count += 1
        }
    }

    /// The row at `index` (0..<count).
    @inlinable public subscript(index: Int) -> Row { rows[index] }

    /// The index of `id`'s row (every parameter has one: the table declares each once).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inlinable
    public func index(of id: ParameterID) -> Int {
        var i = 0
        while i < count && rows[i].id != id { i += 1 }
        precondition(i < count, "a parameter without a row")
        return i
    }

    @inlinable public func row(_ id: ParameterID) -> Row { rows[index(of: id)] }

    /// `value` within `id`'s range (NaN becomes the low end): the audio side's one clamp,
    /// where it takes a value, whoever sent it.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inlinable
    public func clamped(_ id: ParameterID, _ value: Double) -> Double {
        row(id).clamped(value)
    }
}
