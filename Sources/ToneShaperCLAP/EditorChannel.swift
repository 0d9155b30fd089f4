import CCLAP
import Synchronization
import ToneShaperModel
import ToneShaperPlugin

/// What the editor window (on the main thread) and the plugin's other threads share, in
/// memory allocated with the instance; no side waits for another here:
///
/// - the window's parameter edits go to process() (or params.flush) on `edits`, a
///   ``MessageRing`` the main thread pushes and the audio side pops, which applies them as
///   the host's values and reports them to the host as output events;
/// - `counts` tells the main thread when the audio side has taken every edit pushed, so it
///   does not show a value the audio side has not reached yet as the host's;
/// - `playhead` holds where the cycle was at the last block's end (a Double's bits);
/// - the window's points reach the engine through `inbox` (``PointsMailbox``), taken on the
///   main thread as a state is, and the curve as it plays comes back through `outbox`,
///   filled off the audio thread whenever a document, program, duration or range changes it.
struct EditorChannel {
    let edits: MessageRing
    /// [0]: edits pushed (the main thread), [1]: edits taken (the audio side).
    let counts: UnsafeMutablePointer<Atomic<Int>>
    let playhead: UnsafeMutablePointer<Atomic<UInt64>>
    let inbox: UnsafeMutablePointer<PointsMailbox>
    let outbox: UnsafeMutablePointer<PointsMailbox>

    /// The kinds of message on `edits`.
    enum Kind: UInt32 {
        case begin = 1
        case value = 2
        case end = 3
    }

    /// An edit's payload: the CLAP parameter id and, for a value, the value.
    struct Edit {
        var id: UInt32
        var value: Double
    }

    static func make() -> EditorChannel {
        let counts = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
        counts.initialize(to: Atomic(0))
        (counts + 1).initialize(to: Atomic(0))
        let playhead = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: 1)
        playhead.initialize(to: Atomic(Double.nan.bitPattern))
        return EditorChannel(
            edits: MessageRing(slots: 64), counts: counts, playhead: playhead, inbox: PointsMailbox.make(), outbox: PointsMailbox.make())
    }

    func free() {
        edits.free()
        counts.deinitialize(count: 2)
        counts.deallocate()
        playhead.deinitialize(count: 1)
        playhead.deallocate()
        PointsMailbox.destroy(inbox)
        PointsMailbox.destroy(outbox)
    }

    /// On the main thread: one edit for the audio side; false when the queue is full.
    func push(_ kind: Kind, id: UInt32, value: Double) -> Bool {
        var edit = Edit(id: id, value: value)
        guard withUnsafeBytes(of: &edit, { edits.push(kind.rawValue, $0) }) else { return false }
        counts[0].add(1, ordering: .releasing)
        return true
    }

    /// Whether the audio side has taken every edit pushed.
    var settled: Bool { counts[1].load(ordering: .acquiring) == counts[0].load(ordering: .acquiring) }
}

extension Plugin {
    /// On the audio side (process, or params.flush): the window's edits, applied as the
    /// host's values are, and reported to the host in `out` (a gesture's begin and end, each
    /// value), so it records them as it records a knob of its own.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func takeEdits(_ out: UnsafePointer<toneshaper_clap_output_events>?) {
        let channel = editorChannel
        while channel.edits.pop({ kind, payload in
            guard payload.count == MemoryLayout<EditorChannel.Edit>.size, let base = payload.baseAddress else { return }
            let edit = base.loadUnaligned(as: EditorChannel.Edit.self)
            switch EditorChannel.Kind(rawValue: kind) {
            case .begin: report(gesture: UInt16(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN), id: edit.id, out)
            case .end: report(gesture: UInt16(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_END), id: edit.id, out)
            case .value:
                parameter(edit.id, edit.value, modulation: false)
                report(value: edit.value, id: edit.id, out)
            case nil: break
            }
        }) {
            channel.counts[1].add(1, ordering: .releasing)
        }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func report(gesture type: UInt16, id: UInt32, _ out: UnsafePointer<toneshaper_clap_output_events>?) {
        guard let out else { return }
        var event = toneshaper_clap_event_param_gesture()
        event.header = toneshaper_clap_event_header(
            size: UInt32(MemoryLayout<toneshaper_clap_event_param_gesture>.size), time: 0, space_id: UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE),
            type: type, flags: 0)
        event.param_id = id
        withUnsafePointer(to: &event) { pointer in
            let header = UnsafeRawPointer(pointer).assumingMemoryBound(to: toneshaper_clap_event_header.self)
            _unsafePerformance { _ = out.pointee.try_push?(out, header) }
        }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func report(value: Double, id: UInt32, _ out: UnsafePointer<toneshaper_clap_output_events>?) {
        guard let out else { return }
        var event = toneshaper_clap_event_param_value()
        event.header = toneshaper_clap_event_header(
            size: UInt32(MemoryLayout<toneshaper_clap_event_param_value>.size), time: 0, space_id: UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE),
            type: UInt16(TONESHAPER_CLAP_EVENT_PARAM_VALUE), flags: 0)
        event.param_id = id
        event.note_id = -1
        event.port_index = -1
        event.channel = -1
        event.key = -1
        event.value = value
        withUnsafePointer(to: &event) { pointer in
            let header = UnsafeRawPointer(pointer).assumingMemoryBound(to: toneshaper_clap_event_header.self)
            _unsafePerformance { _ = out.pointee.try_push?(out, header) }
        }
    }

    /// On the main thread: the points the window left in the inbox, to the engine as a
    /// state's document goes (its answer reaches the audio side at its next block; not
    /// active, it is taken here at once).
    mutating func takeEditorPoints() {
        waitForWorker()
        _ = shared.takePoints(from: editorChannel.inbox, answer: RingAnswer(ring: fromMain))
        if !active { takeAnswers() }
    }

    /// Off the audio thread: the curve as it plays into the outbox, for the window to show
    /// at its next timer; `always` (the window asked for it) starts the sending that
    /// documents, programs and new durations or ranges do from then on.
    func sendPointsToEditor(always: Bool) {
        if always { editorChannel.outbox.pointee.listen() }
        guard editorChannel.outbox.pointee.isListening else { return }
        shared.sendPoints(into: editorChannel.outbox)
    }

    /// Whether an engine request changes the curve as it plays (a program replaces it, a
    /// new duration stretches it, a new range maps it).
    static func changesCurve(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count == MemoryLayout<InstrumentRequest>.size, let base = payload.baseAddress else { return false }
        switch base.loadUnaligned(as: InstrumentRequest.self) {
        case .program, .set(.duration, _), .set(.minFrequency, _), .set(.maxFrequency, _): return true
        default: return false
        }
    }
}
