import CVST3
import ToneShaperEditor
import ToneShaperPlugin

/// The plugin core's host services (``PluginHost``) over VST 3, which has neither a worker
/// nor a log: requests go to the core's ``WorkThread``, lines to standard error, and the
/// built-in documents are compiled into the plugin (``BuiltIns``).
struct VST3Services: ThreadedPluginHost {
    let work: WorkThread

    func log(_ level: PluginLogLevel, _ message: String) {
        guard level != .note else { return }  // a host's terminal is no place for progress
        message.withCString { toneshaper_vst3_log($0) }
    }

    func builtInDocument(_ index: Int) -> [UInt8]? { BuiltIns.document(index) }
}

/// The built-in shapes (Sessions/*.toneshaper, in name order), compiled in by
/// Scripts/build-vst3.sh: the programs of the plugin's one program list.
enum BuiltIns {
    static var count: Int { Int(toneshaper_vst3_builtin_count()) }

    /// Built-in document `index`: its bytes and its name (without ".toneshaper").
    static func entry(_ index: Int) -> BuiltInShape? { BuiltInShape.at(index, toneshaper_vst3_builtin) }
    static func document(_ index: Int) -> [UInt8]? { entry(index)?.document }
    static func name(_ index: Int) -> String? { entry(index)?.name }
}

/// What process() refuses: counted on the audio thread and logged from the work thread, a
/// line a kind at most once a second (the core's `Problems` and `HeldProblems`).
enum VST3Problem: Int, ParameterProblem {
    case eventPastBlock, eventOutOfOrder, unknownParameter, notModulatable, parameterNotFinite, parameterOutOfRange
    case noteOutOfRange, expressionRefused, midiMalformed

    static var count: Int { midiMalformed.rawValue + 1 }

    var message: StaticString { VST3Problem.messages[rawValue] }

    static let messages: [StaticString] = [
        "refused an event or a parameter point timed at or after the end of its block",
        "refused an event timed before the event ahead of it (events must come in time order)",
        "refused a parameter change for an id the plugin does not have", "refused a modulation of a parameter that is not modulatable",
        "refused a parameter value that is not a finite number", "refused a normalized parameter value outside 0...1",
        "refused a note event whose pitch, channel or velocity is out of range",
        "refused a note expression whose value is out of range or not finite",
        "refused a MIDI controller value that does not form a message, or a MIDI tuning message truncated or with a wrong checksum",
    ]
}

/// UTF-16 text for VST 3's strings (String128 and the like): `text` copied into `count`
/// code units, cut to fit, NUL-terminated; and a host's NUL-terminated text back.
enum Text16 {
    static func copy(_ text: String, into buffer: UnsafeMutablePointer<toneshaper_vst3_char16>?, count: Int = 128) {
        guard let buffer, count > 0 else { return }
        var written = 0
        for unit in text.utf16 where written < count - 1 {
            buffer[written] = unit
            written += 1
        }
        buffer[written] = 0
    }

    /// Into a fixed field of a VST 3 structure (a tuple of code units).
    static func copy<Field>(_ text: String, into field: inout Field) {
        withUnsafeMutableBytes(of: &field) { copy(text, into: $0.baseAddress?.assumingMemoryBound(to: UInt16.self), count: $0.count / 2) }
    }

    static func string(_ text: UnsafePointer<toneshaper_vst3_char16>?, limit: Int = 128) -> String? {
        guard let text else { return nil }
        var units: [UInt16] = []
        while units.count < limit, text[units.count] != 0 { units.append(text[units.count]) }
        return String(decoding: units, as: UTF16.self)
    }
}
