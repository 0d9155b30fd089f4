import CCLAP
import ToneShaperPlugin

/// CLAP's note events through the core's ``HostNotes``: a note-on takes its slot; a
/// note-off, a choke or an expression is resolved there (by note id, or with CLAP's
/// wildcards: -1 for any port, channel, key or id) to the notes the engine ends or
/// expresses. In instrument mode each note's end is sent to the host once its voices have
/// faded (CLAP_EVENT_NOTE_END, with the note's id, port, channel and key as its note-on gave
/// them), so it can end what it keeps per note; a new note on a key still sounding takes
/// its slot, and the earlier note's end is sent then, as its id no longer reaches a voice.
/// In drone mode a note transposes the loop and starts no voice of its own: nothing is ended.
extension Plugin {
    /// A CLAP note event (on, off, choke), checked, at `frame` of the engine's pending events
    /// (`time` from the block's start: a note's end renders up to it first).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func note(_ note: toneshaper_clap_event_note, at frame: Int, time: Int, output: UnsafeMutablePointer<Float>?, rendered done: inout Int) {
        guard note.velocity.isFinite, note.velocity >= 0, note.velocity <= 1 else { return session.problems.note(.noteOutOfRange) }
        guard note.header.type == UInt16(TONESHAPER_CLAP_EVENT_NOTE_ON) else {
            let choke = note.header.type == UInt16(TONESHAPER_CLAP_EVENT_NOTE_CHOKE)
            let match = notes.match(port: Int(note.port_index), channel: Int(note.channel), key: Int(note.key), noteID: note.note_id)
            session.endNotes(match, velocity: Double(note.velocity), choke: choke, at: time, output: output, rendered: &done)
            return
        }
        // A note-on names its note: no wildcards (a channel of -1 plays on the first).
        guard note.key >= 0, note.key <= 127, note.channel >= -1, note.channel <= 15, note.port_index >= -1, note.port_index < notes.ports
        else { return session.problems.note(.noteOutOfRange) }
        let channel = UInt8(max(note.channel, 0))
        let key = UInt8(note.key)
        noteStarted(note, slot: HostNotes.slot(key: key, channel: channel))
        session.startNote(key: key, channel: channel, velocity: Double(note.velocity), at: frame)
    }

    /// A note-on's slot is taken, and the end of a note that held it sent.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func noteStarted(_ note: toneshaper_clap_event_note, slot: Int) {
        // (In drone mode the earlier note had no voice: it is simply forgotten.)
        if notes.isStarted(slot) && session.engine.playsVoices
            && !Plugin.sendNoteEnd(notes.note(in: slot), key: slot & 0x7F, time: note.header.time, out: outEvents)
        {
            return  // the host keeps it: so does the slot
        }
        notes.start(slot, noteID: note.note_id, port: note.port_index, channel: note.channel)
    }

    /// A note expression: checked and resolved; tuning and volume are the ones a voice takes.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func expression(_ event: toneshaper_clap_event_note_expression) {
        guard event.value.isFinite else { return session.problems.note(.expressionRefused) }
        var tuning: Double?
        var volume: Double?
        switch Int(event.expression_id) {
        case Int(TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING):
            guard event.value >= -120, event.value <= 120 else { return session.problems.note(.expressionRefused) }
            tuning = event.value
        case Int(TONESHAPER_CLAP_NOTE_EXPRESSION_VOLUME):
            guard event.value >= 0, event.value <= 4 else { return session.problems.note(.expressionRefused) }
            volume = event.value
        default:
            return  // pan, vibrato, brightness, pressure: not taken
        }
        switch notes.match(port: Int(event.port_index), channel: Int(event.channel), key: Int(event.key), noteID: event.note_id) {
        case .refused: session.problems.note(.expressionRefused)
        case .nothing: break  // another port's, or a note that has ended
        case .notes(let key, let channel): session.engine.express(key: key, channel: channel, tuning: tuning, volume: volume)
        }
    }

    /// After a block is rendered: the notes whose voices no longer sound are ended, at the
    /// block's last frame.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func endSilentNotes(frames: Int) {
        let time = UInt32(max(0, frames - 1))
        let out = outEvents
        let given = notes  // the slots' pointers, read while `notes` forgets them
        // Unsent (the host's list is full): told at a later block.
        notes.endSilent(session.engine) { slot in Plugin.sendNoteEnd(given.note(in: slot), key: slot & 0x7F, time: time, out: out) }
    }

    /// CLAP_EVENT_NOTE_END for a note (as its note-on gave it), in the block's output list;
    /// false when the host's list refused it.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    static func sendNoteEnd(
        _ note: (noteID: Int32, port: Int16, channel: Int16), key: Int, time: UInt32, out: UnsafePointer<toneshaper_clap_output_events>?
    ) -> Bool {
        guard let out, let push = out.pointee.try_push else { return true }  // no list: nobody to tell
        var event = toneshaper_clap_event_note()
        event.header.size = UInt32(MemoryLayout<toneshaper_clap_event_note>.size)
        event.header.time = time
        event.header.space_id = UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE)
        event.header.type = UInt16(TONESHAPER_CLAP_EVENT_NOTE_END)
        event.header.flags = 0
        event.note_id = note.noteID
        event.port_index = note.port
        event.channel = note.channel
        event.key = Int16(key)
        event.velocity = 0
        var pushed = false
        // The host reads the whole event through its header: a pointer to the event itself.
        withUnsafePointer(to: &event) { whole in
            let header = UnsafeRawPointer(whole).assumingMemoryBound(to: toneshaper_clap_event_header.self)
            _unsafePerformance { pushed = push(out, header) }
        }
        return pushed
    }
}
