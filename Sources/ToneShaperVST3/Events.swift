import CVST3
import ToneShaperPlugin

/// VST 3's events and parameter changes in a block, to the core: a note-on, note-off or note
/// expression through the core's ``HostNotes`` (a note id, or -1 and the pitch and channel);
/// a parameter point by its id — the table's rows to their plain values, the program
/// parameter and the MIDI parameters (``MIDIParameters``) back to the MIDI message a host
/// turned into them, so the sound equals LV2's and CLAP's with the same MIDI.
extension Plugin {
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func handle(_ event: toneshaper_vst3_event, at time: Int, output: UnsafeMutablePointer<Float>, rendered done: inout Int) {
        guard event.bus_index == 0 else { return }
        switch Int32(event.type) {
        case TONESHAPER_VST3_EVENT_NOTE_ON:
            let note = event.note_on
            guard note.pitch >= 0, note.pitch <= 127, note.channel >= 0, note.channel <= 15, note.velocity.isFinite, note.velocity >= 0,
                note.velocity <= 1
            else { return session.problems.note(.noteOutOfRange) }
            let channel = UInt8(note.channel)
            let key = UInt8(note.pitch)
            notes.start(HostNotes.slot(key: key, channel: channel), noteID: max(-1, note.note_id), port: 0, channel: note.channel)
            session.startNote(key: key, channel: channel, velocity: Double(note.velocity), at: time - done)
        case TONESHAPER_VST3_EVENT_NOTE_OFF:
            let note = event.note_off
            guard note.velocity.isFinite, note.velocity >= 0, note.velocity <= 1 else { return session.problems.note(.noteOutOfRange) }
            let match = notes.match(port: 0, channel: Int(note.channel), key: Int(note.pitch), noteID: max(-1, note.note_id))
            session.endNotes(match, velocity: Double(note.velocity), choke: false, at: time, output: output, rendered: &done)
        case TONESHAPER_VST3_EVENT_NOTE_EXPRESSION_VALUE:
            // Checked first: a refused expression leaves the block as it would be without it.
            guard let (key, channel, tuning, volume) = expression(event.note_expression_value) else { return }
            session.renderUpTo(time, output: output, rendered: &done)
            session.engine.express(key: key, channel: channel, tuning: tuning, volume: volume)
        case TONESHAPER_VST3_EVENT_DATA:
            // A system exclusive message (the MIDI Tuning Standard's), copied before process() ends.
            let data = event.data
            guard data.type == TONESHAPER_VST3_DATA_MIDI_SYSEX, let bytes = data.bytes else { return }
            if session.engine.takeMIDI(frame: time - done, bytes: UnsafeRawBufferPointer(start: bytes, count: Int(data.size))) == .malformed {
                session.problems.note(.midiMalformed)
            }
        default:
            return  // poly pressure, chords, scales: not taken
        }
    }

    /// A note expression for one note (by its id), checked: tuning (normalized 0.5 is none,
    /// 0...1 spans -120...+120 semitones) and volume (normalized 0.25 is 0 dB: a gain of 4 ×
    /// normalized), the two a voice takes, as CLAP's tuning and volume; nil (noted when it
    /// is the host's fault) when nothing is to change.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func expression(_ event: toneshaper_vst3_note_expression_value) -> (UInt8?, UInt8?, Double?, Double?)? {
        guard event.value.isFinite, event.value >= 0, event.value <= 1, event.note_id >= 0 else {
            session.problems.note(.expressionRefused)
            return nil
        }
        var tuning: Double?
        var volume: Double?
        switch Int32(event.type_id) {
        case TONESHAPER_VST3_EXPRESSION_TUNING: tuning = (event.value - 0.5) * 240
        case TONESHAPER_VST3_EXPRESSION_VOLUME: volume = event.value * 4
        default: return nil  // pan, vibrato, brightness, expression: not taken
        }
        guard case .notes(let key, let channel) = notes.match(port: 0, channel: -1, key: -1, noteID: event.note_id) else { return nil }
        return (key, channel, tuning, volume)
    }

    // MARK: - Parameter changes

    /// The block's parameter queues, each from its first point; how many there are.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func startParameters(_ changes: UnsafeMutablePointer<toneshaper_vst3_parameter_changes>?) -> Int32 {
        guard let changes else { return 0 }
        var count: Int32 = 0
        _unsafePerformance { count = changes.pointee.vtable.pointee.get_parameter_count?(changes) ?? 0 }
        count = min(max(count, 0), Int32(Plugin.queueLimit))
        cursors.update(repeating: 0, count: Int(count))
        return count
    }

    /// Every point timed before `time` (each queue in its own order), rendered up to its frame
    /// first: sample-accurate automation between the block's events.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func applyParameters(
        _ changes: UnsafeMutablePointer<toneshaper_vst3_parameter_changes>?, queues: Int32, upTo time: Int32, frames: Int,
        output: UnsafeMutablePointer<Float>?, rendered done: inout Int
    ) {
        guard let changes, queues > 0 else { return }
        for index in 0..<queues {
            var queue: UnsafeMutablePointer<toneshaper_vst3_param_value_queue>?
            _unsafePerformance { queue = changes.pointee.vtable.pointee.get_parameter_data?(changes, index) }
            guard let queue else { continue }
            var id: UInt32 = 0
            var points: Int32 = 0
            _unsafePerformance {
                id = queue.pointee.vtable.pointee.get_parameter_id?(queue) ?? 0
                points = queue.pointee.vtable.pointee.get_point_count?(queue) ?? 0
            }
            while cursors[Int(index)] < points {
                var offset: Int32 = 0
                var value = 0.0
                var got = TONESHAPER_VST3_FALSE
                _unsafePerformance {
                    got = queue.pointee.vtable.pointee.get_point?(queue, cursors[Int(index)], &offset, &value) ?? TONESHAPER_VST3_FALSE
                }
                guard got != TONESHAPER_VST3_OK || offset < time else { break }
                cursors[Int(index)] += 1
                guard got == TONESHAPER_VST3_OK else { continue }
                // In the block (past its end: at its last frame); a flush's MIDI waits for the next block.
                let frame = min(max(0, Int(offset)), max(0, frames - 1))
                // Checked first: a refused point leaves the block as it would be without it.
                guard session.accepts(id, normalized: value) else { continue }
                if let output { session.renderUpTo(frame, output: output, rendered: &done) }
                parameter(id, normalized: value, at: output == nil ? 0 : frame - done)
            }
        }
    }

    /// One parameter point (``PluginSession/accepts(_:normalized:)`` already): a row of the table at its
    /// plain value, the program, or a MIDI parameter.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func parameter(_ id: UInt32, normalized: Double, at frame: Int) {
        if let row = session.params.row(id) {
            session.parameter(id, session.params.plain(row, normalized: normalized), modulation: false)
        } else if id == MIDIParameters.programID {
            program = normalized
            _ = session.midi(0xC0, UInt8(MIDIParameters.program(normalized, of: programCount)), 0, at: max(0, frame))
        } else if let index = MIDIParameters.index(of: id) {
            controllers[index] = normalized
            let message = MIDIParameters.message(index, normalized)
            if !session.midi(message.0, message.1, message.2, at: max(0, frame)) { session.problems.note(.midiMalformed) }
        }
    }
}
