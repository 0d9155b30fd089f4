import CPluginSupport

/// The programs a format offers as a parameter (VST 3's program list: the built-in shapes),
/// by index: how many, and each one's name.
public protocol ProgramList {
    static var count: Int { get }
    static func name(_ index: Int) -> String?
}

/// Every parameter of a format whose host sets values normalized to 0...1 (VST 3), by id:
/// the table's rows (``HostParameter``), the program (one of `Programs`) and the MIDI
/// parameters (``MIDIParameters``), between normalized values, plain values and text. The
/// shell declares how its ABI describes them; what they mean is here.
public enum NormalizedParameters<Programs: ProgramList> {
    /// The plain value at `normalized`: a row's value, a program's index, a controller's 0...127.
    public static func plain(_ id: UInt32, _ normalized: Double) -> Double? {
        if let row = HostParameter.row(of: id) { return HostParameter.plain(row, normalized: normalized) }
        if id == MIDIParameters.programID { return Double(MIDIParameters.program(normalized, of: Programs.count)) }
        return MIDIParameters.index(of: id).map { Double(MIDIParameters.value($0, normalized)) }
    }

    public static func normalized(_ id: UInt32, plain: Double) -> Double? {
        guard plain.isFinite else { return nil }
        if let row = HostParameter.row(of: id) { return HostParameter.normalized(row, plain) }
        if id == MIDIParameters.programID { return MIDIParameters.normalized(program: Int(plain.rounded()), of: Programs.count) }
        return MIDIParameters.index(of: id).map { MIDIParameters.normalized($0, value: plain) }
    }

    public static func text(_ id: UInt32, _ normalized: Double) -> String? {
        guard normalized.isFinite else { return nil }
        if let row = HostParameter.row(of: id) { return HostParameter.text(row, HostParameter.plain(row, normalized: normalized)) }
        if id == MIDIParameters.programID { return Programs.name(MIDIParameters.program(normalized, of: Programs.count)) }
        return plain(id, normalized).map { String(Int($0)) }
    }

    public static func value(_ id: UInt32, text: String) -> Double? {
        if let row = HostParameter.row(of: id) { return HostParameter.value(row, text: text).map { HostParameter.normalized(row, $0) } }
        if id == MIDIParameters.programID {
            return (0..<Programs.count).first { Programs.name($0) == text }.map { MIDIParameters.normalized(program: $0, of: Programs.count) }
        }
        var number = 0.0
        guard text.withCString({ toneshaper_plugin_parse_number($0, &number) }) != 0 else { return nil }
        return normalized(id, plain: number)
    }
}

extension PluginSession {
    /// Whether a host's normalized parameter point can be taken: a finite value in 0...1 of
    /// a row, the program or a MIDI parameter; else the problem is counted. (Checked before
    /// the block is split at it, so a refused point changes no sample.)
    public func accepts(_ id: UInt32, normalized: Double) -> Bool {
        let refusal: HostParameters.Refusal
        if !normalized.isFinite {
            refusal = .notFinite
        } else if normalized < 0 || normalized > 1 {
            refusal = .outOfRange
        } else if params.row(id) == nil && id != MIDIParameters.programID && MIDIParameters.index(of: id) == nil {
            refusal = .unknownID
        } else {
            return true
        }
        problems.note(Problem(refused: refusal))
        return false
    }
}
