import CCLAP
import ToneShaperPlugin

/// Note expressions (CLAP's per-note tuning and volume). The notes sounding, by key and
/// channel with the host's note id, so an expression addressed by id, by key or to every
/// note finds its voices.
struct NoteExpressions {
    static var slots: Int { 128 }
    /// For each key (0...127): the note id the host gave its last note-on (-1: none).
    let noteIDs: UnsafeMutablePointer<Int32>

    init() {
        noteIDs = .allocate(capacity: NoteExpressions.slots)
        noteIDs.initialize(repeating: -1, count: NoteExpressions.slots)
    }

    func free() { noteIDs.deallocate() }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func noteOn(key: UInt8, channel: UInt8, noteID: Int32) {
        noteIDs[Int(key & 0x7F)] = noteID
    }
}

extension Plugin {
    /// A note expression: checked; tuning and volume are the ones a voice takes.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func expression(_ event: toneshaper_clap_event_note_expression) {
        guard event.value.isFinite, event.key >= -1, event.key <= 127, event.channel >= -1, event.channel <= 15 else {
            return problems.note(.expressionRefused)
        }
        switch Int(event.expression_id) {
        case Int(TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING):
            guard event.value >= -120, event.value <= 120 else { return problems.note(.expressionRefused) }
        case Int(TONESHAPER_CLAP_NOTE_EXPRESSION_VOLUME):
            guard event.value >= 0, event.value <= 4 else { return problems.note(.expressionRefused) }
        default:
            return  // pan, vibrato, brightness, pressure: not taken (the plugin declares none)
        }
    }
}
