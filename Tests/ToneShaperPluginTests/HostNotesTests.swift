import Testing
import ToneShaperPlugin

/// How a host's note event resolves against the notes it started (``HostNotes``): by note
/// id, checked against the other fields where given, or by port, channel and key with -1
/// as the wildcard; out-of-range fields are refused, another port's events reach nothing.
@Suite struct HostNotesTests {
    /// A3 (id 7) on channel 0 and E4 (id 8) on channel 1, both on port 0; a note-on without
    /// a channel (-1), C5 (id 12), plays on channel 0.
    static func started() -> HostNotes {
        var notes = HostNotes(ports: 1)
        notes.start(HostNotes.slot(key: 57, channel: 0), noteID: 7, port: 0, channel: 0)
        notes.start(HostNotes.slot(key: 64, channel: 1), noteID: 8, port: 0, channel: 1)
        notes.start(HostNotes.slot(key: 72, channel: 0), noteID: 12, port: 0, channel: -1)
        return notes
    }

    typealias Match = HostNotes.Match

    @Test(arguments: [
        // port, channel, key, note id → what it reaches
        (-1, -1, -1, -1, Match.notes(key: nil, channel: nil)),
        (0, -1, -1, -1, .notes(key: nil, channel: nil)),
        (-1, 1, -1, -1, .notes(key: nil, channel: 1)),
        (-1, -1, 64, -1, .notes(key: 64, channel: nil)),
        (0, 0, 57, -1, .notes(key: 57, channel: 0)),
        (-1, -1, -1, 7, .notes(key: 57, channel: 0)),
        (0, 1, 64, 8, .notes(key: 64, channel: 1)),
        (-1, 0, -1, 12, .notes(key: 72, channel: 0)),
        (-1, 0, -1, 8, .nothing),  // the id's note is on channel 1
        (-1, -1, 65, 8, .nothing),  // and on key 64
        (-1, -1, -1, 42, .nothing),  // no note has that id
        (1, -1, -1, -1, .nothing),  // not our port
        (1, -1, -1, 7, .nothing),
        (-2, -1, -1, -1, .refused),
        (-1, 16, -1, -1, .refused),
        (-1, -2, -1, -1, .refused),
        (-1, -1, 128, -1, .refused),
        (-1, -1, -2, -1, .refused),
        (-1, -1, -1, -2, .refused),
    ])
    func anEventResolves(port: Int, channel: Int, key: Int, noteID: Int, expected: Match) {
        let notes = Self.started()
        defer { notes.free() }
        #expect(notes.match(port: port, channel: channel, key: key, noteID: Int32(noteID)) == expected)
    }

    @Test func aNoteForgottenIsNoLongerReachedByItsID() {
        var notes = Self.started()
        defer { notes.free() }
        #expect(notes.count == 3)
        let slot = HostNotes.slot(key: 57, channel: 0)
        #expect(notes.slot(ofNoteID: 7) == slot && notes.note(in: slot) == (7, 0, 0))
        notes.forget(slot)
        notes.forget(slot)  // twice: counted once
        #expect(notes.count == 2 && notes.slot(ofNoteID: 7) == nil)
        #expect(notes.match(port: -1, channel: -1, key: -1, noteID: 7) == .nothing)
        // A new note on a slot takes it: the earlier id no longer reaches it.
        notes.start(HostNotes.slot(key: 64, channel: 1), noteID: 9, port: 0, channel: 1)
        #expect(notes.count == 2 && notes.slot(ofNoteID: 8) == nil && notes.slot(ofNoteID: 9) == HostNotes.slot(key: 64, channel: 1))
        notes.clear()
        #expect(notes.count == 0 && notes.slot(ofNoteID: 9) == nil)
    }
}
