/// Which MIDI controller (CC 0...127) moves which parameter: document key `midiMap`
/// (`{"74": "maxFrequency"}`), `--midi-cc 74=frequency/max`, OSC `/midi/map 74 frequency/max`
/// and MIDI learn. One parameter may have several controllers; a controller moves one.
public struct MIDIControllerMap: Equatable, Sendable {
    public private(set) var entries: [Int: ParameterID] = [:]

    public init(_ entries: [Int: ParameterID] = [:]) {
        self.entries = entries.filter { MIDIControllerMap.isMappable($0.key) }
    }

    public subscript(controller: Int) -> ParameterID? {
        get { entries[controller] }
        set { if MIDIControllerMap.isMappable(controller) { entries[controller] = newValue } }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// CC 64 is the sustain pedal and 120...127 are channel-mode messages (all notes off,
    /// reset): those keep their MIDI meaning and are never mapped.
    public static func isMappable(_ controller: Int) -> Bool {
        (0...119).contains(controller) && controller != sustainController
    }
    public static let sustainController = 64

    /// A parameter named as anywhere else: its OSC path (`frequency/max`), document key
    /// (`maxFrequency`) or option (`max-frequency`).
    public static func parameter(named name: String) -> ParameterID? {
        (ParameterTable.spec(oscPath: name) ?? ParameterTable.spec(documentKey: name) ?? ParameterTable.spec(flag: name))?.id
    }

    /// Whether a controller may move this parameter: the table's `controller` column.
    public static func canMap(_ id: ParameterID) -> Bool { ParameterTable.spec(id).controller != .none }

    /// The value a controller at `value` (0...127) gives `id`, as the table's `controller`
    /// column scales it (`ControllerCurve`, which the audio side evaluates too) for a cycle
    /// as long as `shape`'s: a number of the parameter's kind, which its canonical form takes.
    public static func value(of id: ParameterID, controllerValue value: Int, shape: ToneShape) -> ParameterValue? {
        let spec = ParameterTable.spec(id)
        guard let number = spec.controllerCurve.value(UInt8(max(0, min(127, value))), cycle: shape.duration) else { return nil }
        switch spec.kind {
        case .flag: return .flag(number != 0)
        case .integer, .choice: return .integer(Int(number))
        case .real, .terms: return .real(number)
        }
    }
}

/// 2^x without libm, for the audio thread (a semitone is 2^(1/12)).
public enum FastPower {
    @inline(__always)
    public static func exp2(_ x: Double) -> Double {
        guard x.isFinite else { return 1 }
        let clamped = max(-60, min(60, x))
        var whole = Double(Int(clamped))  // floor, without a rounding rule (the proof forbids its metadata)
        if whole > clamped { whole -= 1 }
        let f = clamped - whole  // [0, 1)
        // exp(f ln2) by its Taylor series to degree 12: relative error below 1e-13 on [0, 1).
        let t = f * 0.6931471805599453
        var term = 1.0
        var sum = 1.0
        var k = 1.0
        while k <= 12 {
            term *= t / k
            sum += term
            k += 1
        }
        return sum * Double(sign: .plus, exponent: Int(whole), significand: 1)
    }
}
