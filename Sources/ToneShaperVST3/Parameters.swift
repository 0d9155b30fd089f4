import CVST3
import ToneShaperPlugin

/// IEditController's parameters: the table's rows (``HostParameter``: the id the row's
/// stable number, title, unit, steps, the plain value and its text), then the program, then
/// the hidden MIDI parameters (``MIDIParameters``).
enum Parameters {
    static var count: Int { HostParameter.count + 1 + MIDIParameters.count }

    static func info(_ index: Int, into info: inout toneshaper_vst3_parameter_info) -> Bool {
        let rows = HostParameter.count
        guard index >= 0, index < count else { return false }
        info = toneshaper_vst3_parameter_info()  // in unit 0, the root unit
        var title: String
        if index < rows {
            info.id = HostParameter.id(index)
            title = HostParameter.name(index)
            Text16.copy(HostParameter.unit(index), into: &info.units)
            info.step_count = Int32(HostParameter.stepCount(index))
            info.default_normalized_value = HostParameter.normalized(index, HostParameter.defaultValue(index))
            info.flags = Int32(TONESHAPER_VST3_PARAM_CAN_AUTOMATE) | (HostParameter.isChoice(index) ? Int32(TONESHAPER_VST3_PARAM_IS_LIST) : 0)
        } else if index == rows {
            info.id = MIDIParameters.programID
            title = "Program"
            info.step_count = Int32(max(0, BuiltIns.count - 1))
            info.flags = Int32(TONESHAPER_VST3_PARAM_CAN_AUTOMATE | TONESHAPER_VST3_PARAM_IS_LIST | TONESHAPER_VST3_PARAM_IS_PROGRAM_CHANGE)
        } else {
            let midi = index - rows - 1
            info.id = MIDIParameters.id(midi)
            title = MIDIParameters.name(midi)
            info.step_count = Int32(MIDIParameters.steps(midi))
            info.default_normalized_value = MIDIParameters.defaultValue(midi)
            info.flags = Int32(TONESHAPER_VST3_PARAM_CAN_AUTOMATE | TONESHAPER_VST3_PARAM_IS_HIDDEN)
        }
        Text16.copy(title, into: &info.title)
        Text16.copy(title, into: &info.short_title)
        return true
    }
}

/// The built-in shapes are the program list (IUnitInfo) and the program parameter's values.
extension BuiltIns: ProgramList {}

/// The parameters by id between normalized values, plain values and text (the core's).
typealias ParameterValues = NormalizedParameters<BuiltIns>

extension Plugin {
    /// getParamNormalized: the value as the host last set it (the table's rows as they play:
    /// read again first when a program or a mapped controller moved them behind its back).
    mutating func normalized(_ id: UInt32) -> Double {
        _ = session.rescanIfWanted()
        if let row = HostParameter.row(of: id) { return HostParameter.normalized(row, session.params.values[row]) }
        if id == MIDIParameters.programID { return program }
        return MIDIParameters.index(of: id).map { controllers[$0] } ?? 0
    }

    /// setParamNormalized: the host's value for the controller's side. While active the same
    /// value reaches process() (the host sends it there): only the program and MIDI values are
    /// kept here; not active, a row's value waits for activation as a value set in a block would.
    mutating func setNormalized(_ id: UInt32, _ value: Double) -> Bool {
        guard value.isFinite, value >= 0, value <= 1 else { return false }
        if let row = HostParameter.row(of: id) {
            if !session.active { session.parameter(id, HostParameter.plain(row, normalized: value), modulation: false) }
        } else if id == MIDIParameters.programID {
            program = value
        } else if let index = MIDIParameters.index(of: id) {
            controllers[index] = value
        } else {
            return false
        }
        tellHostIfValuesMoved()  // VST 3 has no call to the main thread: a later main-thread call tells it
        return true
    }
}
