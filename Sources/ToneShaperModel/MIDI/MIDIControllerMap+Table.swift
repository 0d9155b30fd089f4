import ToneShaperParameters

// The map itself is the audio side's (ToneShaperAudio); naming a parameter and scaling a
// controller's value come from the parameter table.
extension MIDIControllerMap {
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
