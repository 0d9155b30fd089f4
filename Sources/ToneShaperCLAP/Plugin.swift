import CCLAP
import CPluginSupport
import Synchronization
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// One instance: the CLAP shell around the plugin core (``PluginEngine``), and everything
/// process() touches, allocated in init. A plain struct behind a pointer (the plugin's
/// `plugin_data`), so process() does no reference counting.
///
/// Threads: the main thread (init, activate, params' info and text, state, preset load, the
/// editor window: clap.gui, its timer and descriptor, ``EditorChannel``),
/// the audio thread (process, and flush while active), and the plugin's own work thread
/// (plans built and freed, problems logged), which talks to the audio thread through two
/// lock-free queues (``MessageRing``).
struct Plugin {
    static var defaultSampleRate: Double { 48_000 }

    /// Where this instance lives (the work thread is given it).
    let me: UnsafeMutablePointer<Plugin>
    let host: UnsafePointer<toneshaper_clap_host>
    let hostParams: UnsafePointer<toneshaper_clap_host_params>?
    let stereo: Bool
    /// The audio thread's engine. `shared` is a copy of it for the work and main threads:
    /// the same player and builder behind the same pointers; they call only its builder's
    /// side (work, load, documentForSaving), which orders itself.
    var engine: PluginEngine<CLAPServices>
    var shared: PluginEngine<CLAPServices>
    let services: CLAPServices
    /// The plugin's own work thread (the core's: CLAP has no worker), whose answers
    /// process() takes at its start, as it takes the main thread's (a state or a preset
    /// loaded, the editor's curve).
    let work: WorkThread
    let fromMain: MessageRing
    /// The work thread asked for a main-thread callback to rescan the parameters.
    let rescanWanted: UnsafeMutablePointer<Atomic<Bool>>
    /// The values the host set, their modulation, and those set while not active (``HostParameters``).
    let params: HostParameters
    let problems: Problems<CLAPProblem>
    let heldProblems: HeldProblems<CLAPProblem>
    /// What the editor window shares with the audio side (``EditorChannel``).
    let editorChannel: EditorChannel
    /// The notes the host started, for its note-offs, chokes and expressions by id or with
    /// wildcards, and the ends it is owed (``HostNotes``); the block's list to tell it in.
    var notes = HostNotes(ports: 1)
    var outEvents: UnsafePointer<toneshaper_clap_output_events>?
    var active = false
    /// The host renders offline (clap.render): process() waits for the work thread's plans
    /// at the end of each block, as a synchronous worker would give them.
    var offline = false

    static func make(host: UnsafePointer<toneshaper_clap_host>, stereo: Bool) -> UnsafeMutablePointer<Plugin> {
        let hostLog = host.pointee.get_extension?(host, TONESHAPER_CLAP_EXT_LOG).map { $0.assumingMemoryBound(to: toneshaper_clap_host_log.self) }
        let hostParams = host.pointee.get_extension?(host, TONESHAPER_CLAP_EXT_PARAMS).map {
            $0.assumingMemoryBound(to: toneshaper_clap_host_params.self)
        }
        let work = WorkThread()
        let services = CLAPServices(host: host, hostLog: hostLog, work: work)
        let engine = PluginEngine(sampleRate: defaultSampleRate, maximumBlock: PluginLimits.defaultMaximumBlock, host: services)
        let rescanWanted = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: 1)
        rescanWanted.initialize(to: Atomic(false))
        let plugin = UnsafeMutablePointer<Plugin>.allocate(capacity: 1)
        plugin.initialize(
            to: Plugin(
                me: plugin, host: host, hostParams: hostParams, stereo: stereo, engine: engine, shared: engine, services: services,
                work: work, fromMain: MessageRing(slots: 64), rescanWanted: rescanWanted,
                params: HostParameters(), problems: Problems(), heldProblems: HeldProblems(),
                editorChannel: EditorChannel.make()))
        plugin.pointee.startWorker()
        return plugin
    }

    /// destroy: the work thread stopped, then everything make allocated freed.
    static func destroy(_ plugin: UnsafeMutablePointer<Plugin>) {
        plugin.pointee.stopWorker()
        let services = plugin.pointee.services
        plugin.pointee.heldProblems.flush(host: services)
        plugin.pointee.engine.free()
        plugin.pointee.work.free()
        plugin.pointee.fromMain.free()
        plugin.pointee.rescanWanted.deinitialize(count: 1)
        plugin.pointee.rescanWanted.deallocate()
        plugin.pointee.params.free()
        plugin.pointee.problems.free()
        plugin.pointee.heldProblems.free()
        plugin.pointee.editorChannel.free()
        plugin.pointee.notes.free()
        plugin.deinitialize(count: 1)
        plugin.deallocate()
    }

    // MARK: - The work thread

    mutating func startWorker() {
        if !work.start(Plugin.workerBody, context: UnsafeMutableRawPointer(me)) {
            services.log(.error, "the work thread could not be started: changes that need a new plan are not heard")
        }
    }

    mutating func stopWorker() { work.stop() }

    static let workerBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let plugin = context?.assumingMemoryBound(to: Plugin.self) else { return nil }
        plugin.pointee.work.serve { kind, payload in plugin.pointee.doWork(kind, payload) }
        return nil
    }

    /// On the work thread: one message queued for it.
    func doWork(_ kind: UInt32, _ payload: UnsafeRawBufferPointer) {
        switch WorkKind(rawValue: kind) {
        case .engine:
            shared.work(payload, answer: RingAnswer(ring: work.answers))
            if Plugin.changesDocument(payload) { askForRescan() }
            if Plugin.changesCurve(payload) { sendPointsToEditor(always: false) }
        case .problems:
            heldProblems.take(payload, now: toneshaper_plugin_monotonic_seconds(), host: services)
        case nil: services.log(.error, "the work thread was given a message of an unknown kind; ignored")
        }
    }

    /// Whether an engine request changes parameters behind the host's back (a program
    /// change loads a built-in document; a MIDI controller moves a mapped parameter).
    static func changesDocument(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count == MemoryLayout<InstrumentRequest>.size, let base = payload.baseAddress else { return false }
        switch base.loadUnaligned(as: InstrumentRequest.self) {
        case .program, .controller: return true
        default: return false
        }
    }

    /// On the work thread: the host is asked for a main-thread callback (request_callback
    /// may be called from any thread), in which the parameters read the document again.
    func askForRescan() {
        rescanWanted.pointee.store(true, ordering: .releasing)
        host.pointee.request_callback?(host)
    }

    /// on_main_thread: after a program change or a mapped controller, the parameters read
    /// the document as it now plays, and the host is told to read their values again.
    mutating func onMainThread() {
        guard rescanWanted.pointee.exchange(false, ordering: .acquiringAndReleasing) else { return }
        waitForWorker()
        params.refresh(from: shared)
        if let hostParams, let rescan = hostParams.pointee.rescan { rescan(host, TONESHAPER_CLAP_PARAM_RESCAN_VALUES) }
    }

    /// Off the audio thread: waits (at most a second) until the work thread has done what
    /// was queued for it so far.
    func waitForWorker() { work.waitUntilDone() }

    // MARK: - Activation

    /// activate: an engine for the host's sample rate and largest block, playing the same
    /// document (made anew only when they differ from the engine's).
    mutating func activate(sampleRate: Double, maximumBlock: Int) -> Bool {
        guard sampleRate > 0, sampleRate.isFinite, sampleRate < 10_000_000, maximumBlock > 0 else {
            services.log(.error, "activate was given a sample rate or a block size the plugin cannot play; not activated")
            return false
        }
        if sampleRate != engine.sampleRate || maximumBlock > engine.maximumBlock {
            stopWorker()
            let document = Array(shared.documentForSaving())
            work.clear()
            fromMain.clear()
            engine.free()
            engine = PluginEngine(sampleRate: sampleRate, maximumBlock: max(maximumBlock, 1), host: services)
            shared = engine
            _ = document.withUnsafeBytes { engine.restore(document: $0) }
            startWorker()
        }
        takeAnswers()  // what came while no block ran, before the values set meanwhile
        takePending()
        sendPointsToEditor(always: false)  // values set meanwhile may have stretched or mapped the curve
        notes.clear()
        active = true
        return true
    }

    /// The values set while the plugin was not active, to the engine at once (activation,
    /// or a state saved before it).
    mutating func takePending() { engine.activate(moved: params.takePending()) }

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
        let pushedBefore = work.pushedCount()
        // Most blocks find nothing waiting: looked at here, without a call each.
        if !work.answers.isEmpty || !fromMain.isEmpty { takeAnswers() }
        if !editorChannel.edits.isEmpty { takeEdits(process.pointee.out_events) }
        if let transport = process.pointee.transport { follow(transport) }
        outEvents = process.pointee.out_events
        var done = 0
        if let input = process.pointee.in_events {
            var count: UInt32 = 0
            _unsafePerformance { count = input.pointee.size?(input) ?? 0 }
            var previous: UInt32 = 0
            for index in 0..<count {
                var event: UnsafePointer<toneshaper_clap_event_header>?
                _unsafePerformance { event = input.pointee.get?(input, index) }
                guard let event else { continue }
                let time = event.pointee.time
                guard Int(time) < frames else {
                    problems.note(.eventPastBlock)
                    continue
                }
                guard time >= previous else {
                    problems.note(.eventOutOfOrder)
                    continue
                }
                previous = time
                handle(event, at: Int(time), output: left, rendered: &done)
            }
        }
        engine.render(into: left + done, frames: frames - done)
        if notes.count > 0 { endSilentNotes(frames: frames) }
        outEvents = nil
        let channelCount = Int(outputs.pointee.channel_count)
        if channelCount > 1 {
            for channel in 1..<channelCount {
                if let other = channels[channel] { for i in 0..<frames { other[i] = left[i] } }
            }
        }
        finishBlock(pushedBefore: pushedBefore)
        editorChannel.playhead.pointee.store(engine.cyclePosition.bitPattern, ordering: .relaxed)
        return Int32(TONESHAPER_CLAP_PROCESS_CONTINUE)
    }

    /// At a block's end: its problems to the work thread, which is woken when anything was
    /// queued for it (offline: and waited for).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func finishBlock(pushedBefore: Int) {
        let services = self.services
        problems.handOff { services.push(.problems, $0) }
        work.finishBlock(pushedBefore: pushedBefore, offline: offline)
    }

    /// The answers of the work and main threads.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func takeAnswers() {
        while work.answers.pop({ _, payload in engine.workResponse(payload) }) {}
        while fromMain.pop({ _, payload in engine.workResponse(payload) }) {}
    }

    /// Renders up to `time` (frames from the block's start) when an event changes what plays there.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func renderUpTo(_ time: Int, output: UnsafeMutablePointer<Float>, rendered done: inout Int) {
        guard time > done else { return }
        engine.render(into: output + done, frames: time - done)
        done = time
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
            guard size >= MemoryLayout<toneshaper_clap_event_note>.size else { return problems.note(.eventTooShort) }
            note(raw.loadUnaligned(as: toneshaper_clap_event_note.self), at: time - done, time: time, output: output, rendered: &done)
        case Int(TONESHAPER_CLAP_EVENT_NOTE_EXPRESSION):
            guard size >= MemoryLayout<toneshaper_clap_event_note_expression>.size else { return problems.note(.eventTooShort) }
            if let output { renderUpTo(time, output: output, rendered: &done) }
            expression(raw.loadUnaligned(as: toneshaper_clap_event_note_expression.self))
        case Int(TONESHAPER_CLAP_EVENT_PARAM_VALUE):
            guard size >= MemoryLayout<toneshaper_clap_event_param_value>.size else { return problems.note(.eventTooShort) }
            if let output { renderUpTo(time, output: output, rendered: &done) }
            let value = raw.loadUnaligned(as: toneshaper_clap_event_param_value.self)
            parameter(value.param_id, value.value, modulation: false)
        case Int(TONESHAPER_CLAP_EVENT_PARAM_MOD):
            guard size >= MemoryLayout<toneshaper_clap_event_param_mod>.size else { return problems.note(.eventTooShort) }
            if let output { renderUpTo(time, output: output, rendered: &done) }
            let mod = raw.loadUnaligned(as: toneshaper_clap_event_param_mod.self)
            parameter(mod.param_id, mod.amount, modulation: true)
        case Int(TONESHAPER_CLAP_EVENT_TRANSPORT):
            guard size >= MemoryLayout<toneshaper_clap_event_transport>.size else { return problems.note(.eventTooShort) }
            if let output { renderUpTo(time, output: output, rendered: &done) }
            follow(raw.assumingMemoryBound(to: toneshaper_clap_event_transport.self))
        case Int(TONESHAPER_CLAP_EVENT_MIDI):
            guard size >= MemoryLayout<toneshaper_clap_event_midi>.size else { return problems.note(.eventTooShort) }
            let midi = raw.loadUnaligned(as: toneshaper_clap_event_midi.self)
            self.midi(midi.data.0, midi.data.1, midi.data.2, at: time - done)
        case Int(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN), Int(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_END),
            Int(TONESHAPER_CLAP_EVENT_MIDI_SYSEX), Int(TONESHAPER_CLAP_EVENT_NOTE_END):
            return  // nothing to do: a gesture's values come as values, no system exclusive is taken
        default:
            problems.note(.unknownEvent)
        }
    }

    /// A MIDI 1.0 message from a note port of the MIDI dialect (CLAP's event holds three
    /// bytes whatever the message: the core takes as many as its status says).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func midi(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, at frame: Int) {
        var bytes = (status, data1, data2)
        let length = max(1, HostMIDI.length(status: status))
        let verdict = withUnsafeBytes(of: &bytes) { engine.takeMIDI(frame: frame, bytes: UnsafeRawBufferPointer(rebasing: $0[0..<min(3, length)])) }
        if verdict == .malformed { problems.note(.midiMalformed) }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func send(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, at frame: Int) {
        var bytes = (status, data1, data2)
        withUnsafeBytes(of: &bytes) { engine.handleMIDI(frame: frame, bytes: $0) }
    }

    /// A parameter's value (or its modulation) from the host: refused when the id is not one
    /// of ours, the number not finite, or the value outside the range; a stepped one rounded.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func parameter(_ id: UInt32, _ value: Double, modulation isModulation: Bool) {
        do throws(HostParameters.Refusal) {
            // Not active: the row waits for activation.
            guard let taken = try params.set(id, value, modulation: isModulation, active: active) else { return }
            engine.setControl(row: taken.row, value: taken.value)
        } catch {
            switch error {
            case .unknownID: problems.note(.unknownParameter)
            case .notFinite: problems.note(.parameterNotFinite)
            case .outOfRange: problems.note(.parameterOutOfRange)
            case .notModulatable: problems.note(.notModulatable)
            }
        }
    }

    /// The host's transport, as the engine follows a time:Position: rolling or not, the
    /// frame, and bar, beat and tempo when the host has them (CLAP's beats are quarter notes).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func follow(_ transport: UnsafePointer<toneshaper_clap_event_transport>) {
        let t = transport.pointee
        let flags = t.flags
        let factor = TONESHAPER_CLAP_TIME_FACTOR
        let hasTempo = flags & UInt32(TONESHAPER_CLAP_TRANSPORT_HAS_TEMPO) != 0 && t.tempo.isFinite && t.tempo > 0
        var frame: Double?
        if flags & UInt32(TONESHAPER_CLAP_TRANSPORT_HAS_SECONDS_TIMELINE) != 0 {
            frame = Double(t.song_pos_seconds) / factor * engine.sampleRate
        } else if hasTempo, flags & UInt32(TONESHAPER_CLAP_TRANSPORT_HAS_BEATS_TIMELINE) != 0 {
            frame = Double(t.song_pos_beats) / factor * 60 / t.tempo * engine.sampleRate
        }
        var bar: Double?
        var barBeat: Double?
        var beatsPerBar: Double?
        var beatsPerMinute: Double?
        if hasTempo, flags & UInt32(TONESHAPER_CLAP_TRANSPORT_HAS_BEATS_TIMELINE) != 0,
            flags & UInt32(TONESHAPER_CLAP_TRANSPORT_HAS_TIME_SIGNATURE) != 0, t.tsig_num > 0, t.tsig_denom > 0
        {
            // The signature's beat is 4/denominator quarter notes.
            let quartersPerBeat = 4 / Double(t.tsig_denom)
            // The bar counted from where it starts on the beat timeline (bar 0 at song position
            // 0), not read from bar_number, which hosts number differently: Qtractor 0.9.31
            // gives 1 at song position 0, where CLAP says 0, and the cycle in beats then
            // started a bar late.
            bar = (Double(t.bar_start) / factor / (Double(t.tsig_num) * quartersPerBeat)).rounded()
            barBeat = Double(t.song_pos_beats - t.bar_start) / factor / quartersPerBeat
            beatsPerBar = Double(t.tsig_num)
            beatsPerMinute = t.tempo / quartersPerBeat
        }
        let speed: Double = flags & UInt32(TONESHAPER_CLAP_TRANSPORT_IS_PLAYING) != 0 ? 1 : 0
        engine.setPosition(speed: speed, frame: frame, bar: bar, barBeat: barBeat, beatsPerBar: beatsPerBar, beatsPerMinute: beatsPerMinute)
    }

    // MARK: - Parameters off the block

    /// params.flush: the editor window's edits (reported in `output`), then the events
    /// (parameters only count here; notes wait for a block), on
    /// the audio thread while active, else on the main thread (the values then wait for
    /// activation: ``takePending()``).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func flush(_ input: UnsafePointer<toneshaper_clap_input_events>?, _ output: UnsafePointer<toneshaper_clap_output_events>?) {
        let pushedBefore = work.pushedCount()
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
        finishBlock(pushedBefore: pushedBefore)
    }
}
