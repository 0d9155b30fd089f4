import CCLAP
import ToneShaperPlugin

/// The notes the host started with CLAP note events, until their voices have faded out:
/// then the host is told (CLAP_EVENT_NOTE_END, with the note's id, port, channel and key as
/// its note-on gave them), so it can end what it keeps per note (note expressions, a
/// modulator's voice). Instrument mode only: in drone mode a note transposes the loop and
/// starts no voice of its own. One slot per channel and key (the notes the engine tells
/// apart): a new note on a key still sounding takes its slot, and the earlier note's end is
/// sent then, as its id no longer reaches a voice (``NoteExpressions``). Allocated once;
/// the audio thread only reads and writes the slots.
struct NoteEnds {
    static var slots: Int { 16 * 128 }
    static var words: Int { slots / 64 }
    /// Slots of notes started and not yet ended, and (filled after each block) slots whose
    /// voices sound: bit `channel * 128 + key`.
    let started: UnsafeMutablePointer<UInt64>
    let sounding: UnsafeMutablePointer<UInt64>
    /// Per slot, the note-on's id, port and channel as the host gave them (its channel may be -1).
    let noteIDs: UnsafeMutablePointer<Int32>
    let ports: UnsafeMutablePointer<Int16>
    let channels: UnsafeMutablePointer<Int16>
    var count = 0

    init() {
        started = .allocate(capacity: NoteEnds.words)
        started.initialize(repeating: 0, count: NoteEnds.words)
        sounding = .allocate(capacity: NoteEnds.words)
        sounding.initialize(repeating: 0, count: NoteEnds.words)
        noteIDs = .allocate(capacity: NoteEnds.slots)
        noteIDs.initialize(repeating: -1, count: NoteEnds.slots)
        ports = .allocate(capacity: NoteEnds.slots)
        ports.initialize(repeating: 0, count: NoteEnds.slots)
        channels = .allocate(capacity: NoteEnds.slots)
        channels.initialize(repeating: 0, count: NoteEnds.slots)
    }

    func free() {
        started.deallocate()
        sounding.deallocate()
        noteIDs.deallocate()
        ports.deallocate()
        channels.deallocate()
    }

    /// Nothing sounds any more (activation): no end is owed.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func clear() {
        started.update(repeating: 0, count: NoteEnds.words)
        count = 0
    }
}

extension Plugin {
    /// A CLAP note-on (its key and engine channel checked): its slot is taken, and the end of
    /// a note that held it sent.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func noteStarted(_ note: toneshaper_clap_event_note, key: UInt8, channel: UInt8, out: UnsafePointer<toneshaper_clap_output_events>?) {
        let slot = Int(channel) << 7 | Int(key)
        let bit: UInt64 = 1 << UInt64(slot & 63)
        if noteEnds.started[slot >> 6] & bit != 0 {
            // (In drone mode the earlier note had no voice: it is simply forgotten.)
            if engine.playsVoices && !sendNoteEnd(slot, time: note.header.time, out: out) { return }  // the host keeps it: so does the slot
        } else {
            noteEnds.count += 1
        }
        noteEnds.started[slot >> 6] |= bit
        noteEnds.noteIDs[slot] = note.note_id
        noteEnds.ports[slot] = note.port_index
        noteEnds.channels[slot] = note.channel
    }

    /// After a block is rendered: the notes whose voices no longer sound are ended, at the
    /// block's last frame (in drone mode they are forgotten: they never had a voice).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func endSilentNotes(frames: Int, out: UnsafePointer<toneshaper_clap_output_events>?) {
        guard noteEnds.count > 0 else { return }
        let voices = engine.playsVoices
        noteEnds.sounding.update(repeating: 0, count: NoteEnds.words)
        engine.markSoundingNotes(noteEnds.sounding)
        for word in 0..<NoteEnds.words {
            var ended = noteEnds.started[word] & ~noteEnds.sounding[word]
            while ended != 0 {
                let bit = ended.trailingZeroBitCount
                ended &= ended - 1
                let slot = word << 6 | bit
                if voices && !sendNoteEnd(slot, time: UInt32(max(0, frames - 1)), out: out) { continue }  // told at a later block
                noteEnds.started[word] &= ~(1 << UInt64(bit))
                noteEnds.count -= 1
            }
        }
    }

    /// CLAP_EVENT_NOTE_END for the note in `slot`; false when the host's list refused it.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func sendNoteEnd(_ slot: Int, time: UInt32, out: UnsafePointer<toneshaper_clap_output_events>?) -> Bool {
        guard let out, let push = out.pointee.try_push else { return true }  // no list: nobody to tell
        var event = toneshaper_clap_event_note()
        event.header.size = UInt32(MemoryLayout<toneshaper_clap_event_note>.size)
        event.header.time = time
        event.header.space_id = UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE)
        event.header.type = UInt16(TONESHAPER_CLAP_EVENT_NOTE_END)
        event.header.flags = 0
        event.note_id = noteEnds.noteIDs[slot]
        event.port_index = noteEnds.ports[slot]
        event.channel = noteEnds.channels[slot]
        event.key = Int16(slot & 0x7F)
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
