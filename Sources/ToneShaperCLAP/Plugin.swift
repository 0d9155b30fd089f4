import CCLAP
import CPluginSupport
import Synchronization
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// One instance: the CLAP shell around the plugin core's ``PluginSession`` (engine, work
/// thread, parameter values, problems, what the editor window shares), and everything
/// process() touches, allocated in init. A plain struct behind a pointer (the plugin's
/// `plugin_data`), so process() does no reference counting.
///
/// Threads: the main thread (init, activate, params' info and text, state, preset load, the
/// editor window: clap.gui, its timer and descriptor), the audio thread (process, and flush
/// while active), and the core's work thread (plans built and freed, problems logged).
struct Plugin {
    let host: UnsafePointer<toneshaper_clap_host>
    let hostParams: UnsafePointer<toneshaper_clap_host_params>?
    let stereo: Bool
    var session: PluginSession<CLAPServices, CLAPProblem>
    /// The notes the host started, for its note-offs, chokes and expressions by id or with
    /// wildcards, and the ends it is owed (``HostNotes``); the block's list to tell it in.
    var notes = HostNotes(ports: 1)
    var outEvents: UnsafePointer<toneshaper_clap_output_events>?

    static func make(host: UnsafePointer<toneshaper_clap_host>, stereo: Bool) -> UnsafeMutablePointer<Plugin> {
        let hostLog = host.pointee.get_extension?(host, TONESHAPER_CLAP_EXT_LOG).map { $0.assumingMemoryBound(to: toneshaper_clap_host_log.self) }
        let hostParams = host.pointee.get_extension?(host, TONESHAPER_CLAP_EXT_PARAMS).map {
            $0.assumingMemoryBound(to: toneshaper_clap_host_params.self)
        }
        let services = CLAPServices(host: host, hostLog: hostLog, work: WorkThread())
        let plugin = UnsafeMutablePointer<Plugin>.allocate(capacity: 1)
        plugin.initialize(to: Plugin(host: host, hostParams: hostParams, stereo: stereo, session: PluginSession(services: services)))
        plugin.pointee.session.startWorker(workerBody, context: UnsafeMutableRawPointer(plugin))
        return plugin
    }

    /// destroy: the work thread stopped, then everything make allocated freed.
    static func destroy(_ plugin: UnsafeMutablePointer<Plugin>) {
        plugin.pointee.session.free()
        plugin.pointee.notes.free()
        plugin.deinitialize(count: 1)
        plugin.deallocate()
    }

    /// The work thread: the core's work, then, when it moved parameters behind the host's
    /// back (a program change, a mapped controller), the host is asked for a main-thread
    /// callback (request_callback may be called from any thread).
    static let workerBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let plugin = context?.assumingMemoryBound(to: Plugin.self) else { return nil }
        let host = plugin.pointee.host
        plugin.pointee.session.work.serve { kind, payload in
            plugin.pointee.session.work(kind, payload)
            if plugin.pointee.session.rescanWanted.isRaised { host.pointee.request_callback?(host) }
        }
        return nil
    }

    /// on_main_thread: after a program change or a mapped controller, the parameters read
    /// the document as it now plays, and the host is told to read their values again.
    mutating func onMainThread() {
        guard session.rescanIfWanted(), let hostParams, let rescan = hostParams.pointee.rescan else { return }
        rescan(host, TONESHAPER_CLAP_PARAM_RESCAN_VALUES)
    }

    /// activate: the core's activation at the host's sample rate and largest block.
    mutating func activate(sampleRate: Double, maximumBlock: Int) -> Bool {
        guard session.activate(sampleRate: sampleRate, maximumBlock: maximumBlock) else { return false }
        notes.clear()
        return true
    }

    // MARK: - process()

    /// The audio thread's one entry: the answers waiting, then the block's events in time
    /// order, the block rendered in pieces between parameter and transport events (notes
    /// are placed at their frames within a piece).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func process(_ process: UnsafePointer<toneshaper_clap_process>) -> Int32 {
        let frames = Int(process.pointee.frames_count)
        guard process.pointee.audio_outputs_count >= 1, let outputs = process.pointee.audio_outputs,
            outputs.pointee.channel_count >= 1, let channels = outputs.pointee.data32, let left = channels[0]
        else { return Int32(TONESHAPER_CLAP_PROCESS_ERROR) }
        let pushedBefore = session.work.pushedCount()
        // Most blocks find nothing waiting: looked at here, without a call each.
        if !session.work.answers.isEmpty || !session.fromMain.isEmpty { session.takeAnswers() }
        if !session.editorChannel.edits.isEmpty { takeEdits(process.pointee.out_events) }
        if let transport = process.pointee.transport { follow(transport) }
        outEvents = process.pointee.out_events
        var done = 0
        if let input = process.pointee.in_events {
            var count: UInt32 = 0
            _unsafePerformance { count = input.pointee.size?(input) ?? 0 }
            var previous = 0
            for index in 0..<count {
                var event: UnsafePointer<toneshaper_clap_event_header>?
                _unsafePerformance { event = input.pointee.get?(input, index) }
                guard let event, session.inOrder(Int(event.pointee.time), frames: frames, after: &previous) else { continue }
                handle(event, at: previous, output: left, rendered: &done)
            }
        }
        session.engine.render(into: left + done, frames: frames - done)
        if notes.count > 0 { endSilentNotes(frames: frames) }
        outEvents = nil
        PluginSession<CLAPServices, CLAPProblem>.copyFirst(channels, count: Int(outputs.pointee.channel_count), frames: frames)
        session.finishBlock(pushedBefore: pushedBefore)
        return Int32(TONESHAPER_CLAP_PROCESS_CONTINUE)
    }

    /// One event of the block (or of a flush, with no output: `output` nil).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func handle(
        _ event: UnsafePointer<toneshaper_clap_event_header>, at time: Int, output: UnsafeMutablePointer<Float>?, rendered done: inout Int
    ) {
        guard event.pointee.space_id == UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE) else { return }  // another vendor's events: not for us
        let raw = UnsafeRawPointer(event)
        let size = Int(event.pointee.size)
        switch Int(event.pointee.type) {
        case Int(TONESHAPER_CLAP_EVENT_NOTE_ON), Int(TONESHAPER_CLAP_EVENT_NOTE_OFF), Int(TONESHAPER_CLAP_EVENT_NOTE_CHOKE):
            guard size >= MemoryLayout<toneshaper_clap_event_note>.size else { return session.problems.note(.eventTooShort) }
            note(raw.loadUnaligned(as: toneshaper_clap_event_note.self), at: time - done, time: time, output: output, rendered: &done)
        case Int(TONESHAPER_CLAP_EVENT_NOTE_EXPRESSION):
            guard size >= MemoryLayout<toneshaper_clap_event_note_expression>.size else { return session.problems.note(.eventTooShort) }
            if let output { session.renderUpTo(time, output: output, rendered: &done) }
            expression(raw.loadUnaligned(as: toneshaper_clap_event_note_expression.self))
        case Int(TONESHAPER_CLAP_EVENT_PARAM_VALUE):
            guard size >= MemoryLayout<toneshaper_clap_event_param_value>.size else { return session.problems.note(.eventTooShort) }
            if let output { session.renderUpTo(time, output: output, rendered: &done) }
            let value = raw.loadUnaligned(as: toneshaper_clap_event_param_value.self)
            session.parameter(value.param_id, value.value, modulation: false)
        case Int(TONESHAPER_CLAP_EVENT_PARAM_MOD):
            guard size >= MemoryLayout<toneshaper_clap_event_param_mod>.size else { return session.problems.note(.eventTooShort) }
            if let output { session.renderUpTo(time, output: output, rendered: &done) }
            let mod = raw.loadUnaligned(as: toneshaper_clap_event_param_mod.self)
            session.parameter(mod.param_id, mod.amount, modulation: true)
        case Int(TONESHAPER_CLAP_EVENT_TRANSPORT):
            guard size >= MemoryLayout<toneshaper_clap_event_transport>.size else { return session.problems.note(.eventTooShort) }
            if let output { session.renderUpTo(time, output: output, rendered: &done) }
            follow(raw.assumingMemoryBound(to: toneshaper_clap_event_transport.self))
        case Int(TONESHAPER_CLAP_EVENT_MIDI):
            guard size >= MemoryLayout<toneshaper_clap_event_midi>.size else { return session.problems.note(.eventTooShort) }
            let midi = raw.loadUnaligned(as: toneshaper_clap_event_midi.self)
            if !session.midi(midi.data.0, midi.data.1, midi.data.2, at: time - done) { session.problems.note(.midiMalformed) }
        case Int(TONESHAPER_CLAP_EVENT_MIDI_SYSEX):
            // The MIDI Tuning Standard's messages; the bytes are copied before process() ends.
            guard size >= MemoryLayout<toneshaper_clap_event_midi_sysex>.size else { return session.problems.note(.eventTooShort) }
            let sysex = raw.loadUnaligned(as: toneshaper_clap_event_midi_sysex.self)
            guard let buffer = sysex.buffer else { return session.problems.note(.midiMalformed) }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(sysex.size))
            if session.engine.takeMIDI(frame: time - done, bytes: bytes) == .malformed { session.problems.note(.midiMalformed) }
        case Int(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN), Int(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_END),
            Int(TONESHAPER_CLAP_EVENT_NOTE_END):
            return  // nothing to do: a gesture's values come as values
        default:
            session.problems.note(.unknownEvent)
        }
    }

    /// The host's transport, as the engine follows a time:Position: rolling or not, the
    /// frame, and bar, beat and tempo when the host has them (CLAP's beats are quarter notes).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func follow(_ transport: UnsafePointer<toneshaper_clap_event_transport>) {
        let t = transport.pointee
        func has(_ flag: Int) -> Bool { t.flags & UInt32(flag) != 0 }
        let factor = TONESHAPER_CLAP_TIME_FACTOR
        let tempo = has(Int(TONESHAPER_CLAP_TRANSPORT_HAS_TEMPO)) && t.tempo.isFinite && t.tempo > 0 ? t.tempo : nil
        let beats = has(Int(TONESHAPER_CLAP_TRANSPORT_HAS_BEATS_TIMELINE)) ? Double(t.song_pos_beats) / factor : nil
        var frame: Double?
        if has(Int(TONESHAPER_CLAP_TRANSPORT_HAS_SECONDS_TIMELINE)) {
            frame = Double(t.song_pos_seconds) / factor * session.engine.sampleRate
        } else if let tempo, let beats {
            frame = beats * 60 / tempo * session.engine.sampleRate
        }
        // The bar counted from where it starts on the beat timeline, not read from
        // bar_number, which hosts number differently: Qtractor 0.9.31 gives 1 at song
        // position 0, where CLAP says 0, and the cycle in beats then started a bar late.
        let signature = has(Int(TONESHAPER_CLAP_TRANSPORT_HAS_TIME_SIGNATURE)) ? (Int(t.tsig_num), Int(t.tsig_denom)) : nil
        session.engine.follow(
            rolling: has(Int(TONESHAPER_CLAP_TRANSPORT_IS_PLAYING)), frame: frame, quarterNote: beats, barStart: Double(t.bar_start) / factor,
            signature: signature, tempo: tempo)
    }

    // MARK: - Parameters off the block

    /// params.flush: the editor window's edits (reported in `output`), then the events
    /// (parameters only count here; notes wait for a block), on
    /// the audio thread while active, else on the main thread (the values then wait for
    /// activation: ``PluginSession/takePending()``).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func flush(_ input: UnsafePointer<toneshaper_clap_input_events>?, _ output: UnsafePointer<toneshaper_clap_output_events>?) {
        let pushedBefore = session.work.pushedCount()
        takeEdits(output)
        if let input {
            var count: UInt32 = 0
            _unsafePerformance { count = input.pointee.size?(input) ?? 0 }
            var done = 0
            for index in 0..<count {
                var event: UnsafePointer<toneshaper_clap_event_header>?
                _unsafePerformance { event = input.pointee.get?(input, index) }
                guard let event else { continue }
                let type = Int(event.pointee.type)
                guard type == Int(TONESHAPER_CLAP_EVENT_PARAM_VALUE) || type == Int(TONESHAPER_CLAP_EVENT_PARAM_MOD) else { continue }
                handle(event, at: 0, output: nil, rendered: &done)
            }
        }
        session.finishBlock(pushedBefore: pushedBefore)
    }
}
