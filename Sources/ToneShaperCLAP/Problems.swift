import ToneShaperPlugin

/// What process() and flush() refuse: counted on the audio thread and logged from the work
/// thread, a line a kind at most once a second (the core's `Problems` and `HeldProblems`).
enum CLAPProblem: Int, ParameterProblem {
    case eventPastBlock
    case eventOutOfOrder
    case eventTooShort
    case unknownEvent
    case unknownParameter
    case notModulatable
    case parameterNotFinite
    case parameterOutOfRange
    case midiMalformed
    case noteOutOfRange
    case expressionRefused
    case workQueueFull

    static var count: Int { workQueueFull.rawValue + 1 }

    var message: StaticString {
        switch self {
        case .eventPastBlock: return "refused an event timed at or after the end of its block"
        case .eventOutOfOrder: return "refused an event timed before the event ahead of it (events must come in time order)"
        case .eventTooShort: return "refused an event whose size is smaller than its type's"
        case .unknownEvent: return "ignored an event of a core type the plugin does not take"
        case .unknownParameter: return "refused a parameter event for an id the plugin does not have"
        case .notModulatable: return "refused a modulation of a parameter that is not modulatable (no CLAP_PARAM_IS_MODULATABLE in its info)"
        case .parameterNotFinite: return "refused a parameter value or modulation that is not a finite number"
        case .parameterOutOfRange: return "refused a parameter value outside the parameter's range"
        case .midiMalformed:
            return "refused a MIDI event whose bytes do not form a message, or a MIDI tuning message truncated or with a wrong checksum"
        case .noteOutOfRange: return "refused a note event whose key, channel or velocity is out of range"
        case .expressionRefused: return "refused a note expression whose value is out of range or not finite"
        case .workQueueFull: return "the work thread's queue was full; a request was dropped"
        }
    }
}
