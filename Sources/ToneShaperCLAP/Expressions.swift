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

    /// The key of the sounding note the host gave `noteID`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func key(of noteID: Int32) -> UInt8? {
        for key in 0..<NoteExpressions.slots where noteIDs[key] == noteID { return UInt8(key) }
        return nil
    }

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
        var tuning: Double?
        var volume: Double?
        switch Int(event.expression_id) {
        case Int(TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING):
            guard event.value >= -120, event.value <= 120 else { return problems.note(.expressionRefused) }
            tuning = event.value
        case Int(TONESHAPER_CLAP_NOTE_EXPRESSION_VOLUME):
            guard event.value >= 0, event.value <= 4 else { return problems.note(.expressionRefused) }
            volume = event.value
        default:
            return  // pan, vibrato, brightness, pressure: not taken
        }
        // By note id when the host gives one (the key its note-on had), else by key and channel.
        var key: UInt8? = event.key >= 0 ? UInt8(event.key) : nil
        if event.note_id >= 0 {
            guard let found = expressions.key(of: event.note_id) else { return }  // that note has ended
            key = found
        }
        let channel: UInt8? = event.channel >= 0 ? UInt8(event.channel) : nil
        engine.express(key: key, channel: channel, tuning: tuning, volume: volume)
    }
}
