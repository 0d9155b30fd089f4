import ToneShaperPlugin

/// What run() refuses: counted on the audio thread and logged from the worker, a line a
/// kind at most once a second (the core's `Problems` and `HeldProblems`).
enum LV2Problem: Int, PluginProblem {
    case eventPastSequence
    case sequenceLongerThanBuffer
    case sequenceNotASequence
    case beatsWithoutTempo
    case eventFrameOutOfOrder
    case unknownEventType
    case midiWrongLength
    case unknownObject
    case patchSetWithoutProperty
    case patchSetWithoutValue
    case patchSetUnknownProperty
    case patchSetValueNotAPath
    case pathTooLong
    case controlNotFinite
    case workQueueFull
    case pointsMalformed

    static var count: Int { pointsMalformed.rawValue + 1 }

    var message: StaticString {
        switch self {
        case .eventPastSequence: return "refused an event that runs past the end of its sequence (the rest of the sequence was skipped)"
        case .sequenceLongerThanBuffer: return "refused a control sequence whose size is larger than the port's buffer"
        case .sequenceNotASequence: return "refused a control port buffer that is not an atom:Sequence"
        case .beatsWithoutTempo:
            return
                "the host sent events in beats before any tempo (time:Position with time:beatsPerMinute); they were played at their block's start (said once)"
        case .eventFrameOutOfOrder: return "an event's frame was outside the block or before the previous one; it was played at the nearest frame"
        case .unknownEventType: return "ignored an event of an unknown atom type"
        case .midiWrongLength:
            return "refused a MIDI event whose length does not match its status byte, or a MIDI tuning message truncated or with a wrong checksum"
        case .unknownObject: return "refused an atom:Object too short to hold its id and type"
        case .patchSetWithoutProperty: return "refused a patch:Set without a patch:property URID"
        case .patchSetWithoutValue: return "refused a patch:Set without a patch:value"
        case .patchSetUnknownProperty: return "refused a patch:Set of a property the plugin does not have"
        case .patchSetValueNotAPath: return "refused a patch:Set of the document file whose value is not an atom:Path"
        case .pathTooLong: return "refused a document path that is empty, not terminated or longer than 4096 bytes"
        case .controlNotFinite: return "ignored a control port value that is not a finite number"
        case .workQueueFull: return "the host's worker queue was full; a request was dropped"
        case .pointsMalformed:
            return "refused a patch:Set of the curve's points that is not an atom:Vector of atom:Double pairs of at most 4000 points"
        }
    }
}
