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

    var message: StaticString { LV2Problem.messages[rawValue] }

    /// The lines logged, in the order of the cases.
    static let messages: [StaticString] = [
        "refused an event that runs past the end of its sequence (the rest of the sequence was skipped)",
        "refused a control sequence whose size is larger than the port's buffer",
        "refused a control port buffer that is not an atom:Sequence",
        "the host sent events in beats before any tempo (time:Position with time:beatsPerMinute); they were played at their block's start (said once)",
        "an event's frame was outside the block or before the previous one; it was played at the nearest frame",
        "ignored an event of an unknown atom type",
        "refused a MIDI event whose length does not match its status byte, or a MIDI tuning message truncated or with a wrong checksum",
        "refused an atom:Object too short to hold its id and type",
        "refused a patch:Set without a patch:property URID",
        "refused a patch:Set without a patch:value",
        "refused a patch:Set of a property the plugin does not have",
        "refused a patch:Set of the document file whose value is not an atom:Path",
        "refused a document path that is empty, not terminated or longer than 4096 bytes",
        "ignored a control port value that is not a finite number",
        "the host's worker queue was full; a request was dropped",
        "refused a patch:Set of the curve's points that is not an atom:Vector of atom:Double pairs of at most 4000 points",
    ]
}
