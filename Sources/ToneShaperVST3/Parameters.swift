import CPluginSupport
import CVST3
import ToneShaperPlugin

/// The parameters VST 3 adds to the table's, because it has no MIDI: the program (the
/// built-in shapes, ``BuiltIns``), and per MIDI channel a hidden parameter for each
/// controller (0...127) and pitch bend, which a host fills from its MIDI through
/// IMidiMapping and process() turns back into the message. Their ids lie far above the
/// table's stable numbers and never change: the program 0x8000, a controller
/// 0x10000 + channel × 256 + its number (pitch bend's number is VST 3's kPitchBend, 129).
enum MIDIParameters {
    static var programID: UInt32 { 0x8000 }
    static var base: UInt32 { 0x10000 }
    /// Per channel: controllers 0...127, then pitch bend.
    static var perChannel: Int { 129 }
    static var count: Int { 16 * perChannel }

    static func id(_ index: Int) -> UInt32 {
        let number = index % perChannel
        return base + UInt32(index / perChannel) << 8 + UInt32(number < 128 ? number : Int(TONESHAPER_VST3_CONTROLLER_PITCH_BEND))
    }

    static func index(of id: UInt32) -> Int? {
        guard id >= base, id < base + 16 << 8 else { return nil }
        let channel = Int((id - base) >> 8)
        let number = Int((id - base) & 0xFF)
        if number < 128 { return channel * perChannel + number }
        return number == Int(TONESHAPER_VST3_CONTROLLER_PITCH_BEND) ? channel * perChannel + 128 : nil
    }

    static func isPitchBend(_ index: Int) -> Bool { index % perChannel == 128 }

    /// A controller's value (0...127) or pitch bend's (0...16383, 8192 the centre).
    static func value(_ index: Int, _ normalized: Double) -> Int {
        Int((min(1, max(0, normalized)) * (isPitchBend(index) ? 16383 : 127)).rounded())
    }

    static func normalized(_ index: Int, value: Double) -> Double { min(1, max(0, value / (isPitchBend(index) ? 16383 : 127))) }

    /// The MIDI message the parameter stands for.
    static func message(_ index: Int, _ normalized: Double) -> (UInt8, UInt8, UInt8) {
        let channel = UInt8(index / perChannel)
        let value = value(index, normalized)
        if isPitchBend(index) { return (0xE0 | channel, UInt8(value & 0x7F), UInt8(value >> 7)) }
        return (0xB0 | channel, UInt8(index % perChannel), UInt8(value))
    }

    static func defaultValue(_ index: Int) -> Double { isPitchBend(index) ? 0.5 : 0 }

    static func name(_ index: Int) -> String {
        let channel = " (channel " + String(index / perChannel + 1) + ")"
        return isPitchBend(index) ? "Pitch bend" + channel : "MIDI CC " + String(index % perChannel) + channel
    }

    /// The program at a normalized value, and back.
    static func program(_ normalized: Double, of count: Int = BuiltIns.count) -> Int {
        Int((min(1, max(0, normalized)) * Double(max(0, count - 1))).rounded())
    }
    static func normalized(program: Int) -> Double { BuiltIns.count > 1 ? Double(program) / Double(BuiltIns.count - 1) : 0 }
}

/// IEditController's parameters: the table's rows (``HostParameter``: the id the row's
/// stable number, title, unit, steps, the plain value and its text), then the program, then
/// the hidden MIDI parameters (``MIDIParameters``).
enum Parameters {
    static var count: Int { HostParameter.count + 1 + MIDIParameters.count }

    static func info(_ index: Int, into info: inout toneshaper_vst3_parameter_info) -> Bool {
        let rows = HostParameter.count
        guard index >= 0, index < count else { return false }
        info = toneshaper_vst3_parameter_info()
        info.unit_id = Int32(TONESHAPER_VST3_ROOT_UNIT)
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
            info.step_count = MIDIParameters.isPitchBend(midi) ? 16383 : 127
            info.default_normalized_value = MIDIParameters.defaultValue(midi)
            info.flags = Int32(TONESHAPER_VST3_PARAM_CAN_AUTOMATE | TONESHAPER_VST3_PARAM_IS_HIDDEN)
        }
        Text16.copy(title, into: &info.title)
        Text16.copy(title, into: &info.short_title)
        return true
    }

    /// The plain value at `normalized`: a row's value, a program's index, a controller's 0...127.
    static func plain(_ id: UInt32, _ normalized: Double) -> Double? {
        if let row = HostParameter.row(of: id) { return HostParameter.plain(row, normalized: normalized) }
        if id == MIDIParameters.programID { return Double(MIDIParameters.program(normalized)) }
        return MIDIParameters.index(of: id).map { Double(MIDIParameters.value($0, normalized)) }
    }

    static func normalized(_ id: UInt32, plain: Double) -> Double? {
        guard plain.isFinite else { return nil }
        if let row = HostParameter.row(of: id) { return HostParameter.normalized(row, plain) }
        if id == MIDIParameters.programID { return MIDIParameters.normalized(program: Int(plain.rounded())) }
        return MIDIParameters.index(of: id).map { MIDIParameters.normalized($0, value: plain) }
    }

    static func text(_ id: UInt32, _ normalized: Double) -> String? {
        guard normalized.isFinite else { return nil }
        if let row = HostParameter.row(of: id) { return HostParameter.text(row, HostParameter.plain(row, normalized: normalized)) }
        if id == MIDIParameters.programID { return BuiltIns.name(MIDIParameters.program(normalized)) }
        return plain(id, normalized).map { String(Int($0)) }
    }

    static func value(_ id: UInt32, text: String) -> Double? {
        if let row = HostParameter.row(of: id) { return HostParameter.value(row, text: text).map { HostParameter.normalized(row, $0) } }
        if id == MIDIParameters.programID {
            return (0..<BuiltIns.count).first { BuiltIns.name($0) == text }.map { MIDIParameters.normalized(program: $0) }
        }
        var number = 0.0
        guard text.withCString({ toneshaper_plugin_parse_number($0, &number) }) != 0 else { return nil }
        return normalized(id, plain: number)
    }
}

extension Plugin {
    /// getParamNormalized: the value as the host last set it (the table's rows as they play).
    func normalized(_ id: UInt32) -> Double {
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
        return true
    }
}
