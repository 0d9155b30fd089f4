/// The notes a host started with note events of its own (CLAP's, VST3's), each with the
/// id, port and channel its note-on gave, by the slot the engine tells notes apart by
/// (channel × 128 + key): what a note-off, a choke or an expression addressed by note id
/// or with wildcards resolves against (``match(port:channel:key:noteID:)``), and what a
/// host that follows notes is told has ended. A format's shell keeps one per instance and
/// says what its events hold; the matching is the same for every format. Allocated once;
/// the audio thread only reads and writes the slots.
public struct HostNotes {
    /// What a note event addresses, once resolved.
    public enum Match: Equatable, BitwiseCopyable, Sendable {
        /// The notes of `key` on `channel` (nil: any key, any channel) as the engine plays them.
        case notes(key: UInt8?, channel: UInt8?)
        /// No note here: another port's, or a note id that has ended (not a fault: the
        /// host may address a note that just finished).
        case nothing
        /// A field outside what the format allows (a key above 127, a channel above 15, a
        /// negative id other than the wildcard): a fault of the host's, counted by the shell.
        case refused
    }

    public static var slots: Int { 16 * 128 }
    static var words: Int { slots / 64 }
    /// The note ports this plugin has (0..<ports; -1 is every one).
    public let ports: Int16
    /// Slots of notes started and not yet ended, and (filled after each block) slots whose
    /// voices sound: bit `slot`.
    let started: UnsafeMutablePointer<UInt64>
    let sounding: UnsafeMutablePointer<UInt64>
    /// Per slot, the note-on's id, port and channel as the host gave them (its channel may be -1).
    let noteIDs: UnsafeMutablePointer<Int32>
    let notePorts: UnsafeMutablePointer<Int16>
    let channels: UnsafeMutablePointer<Int16>
    /// Notes started and not yet ended.
    public private(set) var count = 0

    public init(ports: Int16 = 1) {
        self.ports = ports
        started = .allocate(capacity: HostNotes.words)
        started.initialize(repeating: 0, count: HostNotes.words)
        sounding = .allocate(capacity: HostNotes.words)
        sounding.initialize(repeating: 0, count: HostNotes.words)
        noteIDs = .allocate(capacity: HostNotes.slots)
        noteIDs.initialize(repeating: -1, count: HostNotes.slots)
        notePorts = .allocate(capacity: HostNotes.slots)
        notePorts.initialize(repeating: 0, count: HostNotes.slots)
        channels = .allocate(capacity: HostNotes.slots)
        channels.initialize(repeating: 0, count: HostNotes.slots)
    }

    public func free() {
        started.deallocate()
        sounding.deallocate()
        noteIDs.deallocate()
        notePorts.deallocate()
        channels.deallocate()
    }

    /// The slot of `key` on the engine's `channel`.
    public static func slot(key: UInt8, channel: UInt8) -> Int { Int(channel & 0x0F) << 7 | Int(key & 0x7F) }

    public func isStarted(_ slot: Int) -> Bool { started[slot >> 6] & (1 << UInt64(slot & 63)) != 0 }

    /// The note in `slot` as its note-on gave it: id, port, channel (key: `slot & 127`).
    public func note(in slot: Int) -> (noteID: Int32, port: Int16, channel: Int16) {
        (noteIDs[slot], notePorts[slot], channels[slot])
    }

    /// A note-on took `slot` (a note still there is replaced: the shell ends it first).
    public mutating func start(_ slot: Int, noteID: Int32, port: Int16, channel: Int16) {
        if !isStarted(slot) { count += 1 }
        started[slot >> 6] |= 1 << UInt64(slot & 63)
        noteIDs[slot] = noteID
        notePorts[slot] = port
        channels[slot] = channel
    }

    /// The note in `slot` has ended.
    public mutating func forget(_ slot: Int) {
        guard isStarted(slot) else { return }
        started[slot >> 6] &= ~(1 << UInt64(slot & 63))
        count -= 1
    }

    /// Nothing sounds any more (activation): no end is owed.
    public mutating func clear() {
        started.update(repeating: 0, count: HostNotes.words)
        count = 0
    }

    /// The slot of the started note the host gave `noteID`.
    public func slot(ofNoteID noteID: Int32) -> Int? {
        guard noteID >= 0, count > 0 else { return nil }
        for word in 0..<HostNotes.words {
            var bits = started[word]
            while bits != 0 {
                let slot = word << 6 | bits.trailingZeroBitCount
                bits &= bits - 1
                if noteIDs[slot] == noteID { return slot }
            }
        }
        return nil
    }

    /// Resolves a note event's address, each field -1 for "any" (CLAP's wildcards: a
    /// note-off whose key and note id are -1 ends every note of its port and channel).
    /// A note id names one note, which the other fields, where given, must agree with;
    /// without one, the port must be one of ours and the key and channel select the notes.
    public func match(port: Int, channel: Int, key: Int, noteID: Int32) -> Match {
        guard port >= -1, channel >= -1, channel <= 15, key >= -1, key <= 127, noteID >= -1 else { return .refused }
        guard port < Int(ports) else { return .nothing }
        if noteID >= 0 {
            guard let slot = slot(ofNoteID: noteID) else { return .nothing }
            let given = note(in: slot)
            if port >= 0 && port != Int(given.port) { return .nothing }
            if channel >= 0 && channel != Int(max(given.channel, 0)) { return .nothing }
            if key >= 0 && key != slot & 0x7F { return .nothing }
            return .notes(key: UInt8(slot & 0x7F), channel: UInt8(slot >> 7))
        }
        return .notes(key: key >= 0 ? UInt8(key) : nil, channel: channel >= 0 ? UInt8(channel) : nil)
    }

    /// After a block is rendered: each started note whose voices no longer sound is handed
    /// to `ended` (its slot), and forgotten when `ended` says it is done with (a host's list
    /// may be full: then it is offered again after the next block). In drone mode
    /// (`voices` false) the notes are forgotten at once: they never had a voice.
    public mutating func endSilent<Host: PluginHost>(_ engine: PluginEngine<Host>, _ ended: (Int) -> Bool) {
        guard count > 0 else { return }
        let voices = engine.playsVoices
        sounding.update(repeating: 0, count: HostNotes.words)
        engine.markSoundingNotes(sounding)
        for word in 0..<HostNotes.words {
            var silent = started[word] & ~sounding[word]
            while silent != 0 {
                let slot = word << 6 | silent.trailingZeroBitCount
                silent &= silent - 1
                if voices && !ended(slot) { continue }
                forget(slot)
            }
        }
    }
}
