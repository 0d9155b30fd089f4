import CVST3
import ToneShaperPlugin

/// One initialized instance: the VST 3 shell's state around the core's ``PluginSession``
/// (engine, work thread, parameter values, problems, what the window shares), and
/// everything process() touches, allocated when the host initializes the component. A plain
/// struct behind a pointer, so process() does no reference counting.
///
/// Threads: the main thread (the component's and the controller's calls, state, the editor
/// view), the audio thread (process), and the core's work thread.
struct Plugin {
    var session: PluginSession<VST3Services, VST3Problem>
    /// The notes the host started (VST 3's note ids, or pitch and channel), for its note-offs
    /// and expressions (``HostNotes``).
    var notes = HostNotes(ports: 1)
    /// What setupProcessing gave, taken at setActive(true) (before it: the defaults; Ardour 7
    /// activates a reopened session's instance before it sets it up).
    var sampleRate = 48_000.0
    var maximumBlock = PluginLimits.defaultMaximumBlock
    /// The normalized values of the MIDI parameters (``MIDIParameters``) and the program
    /// parameter, as the host last set them.
    let controllers: UnsafeMutablePointer<Double>
    var program = 0.0
    /// How many programs there are (the built-in shapes), for the audio thread.
    let programCount = BuiltIns.count
    /// Per parameter queue of a block, the next point to apply.
    let cursors: UnsafeMutablePointer<Int32>
    static var queueLimit: Int { 4096 }
    /// The host's component handler (main thread; a reference held), for the window's edits
    /// and for telling the host that values changed behind its back.
    var handler: UnsafeMutablePointer<toneshaper_vst3_component_handler>?

    static func make() -> UnsafeMutablePointer<Plugin> {
        let plugin = UnsafeMutablePointer<Plugin>.allocate(capacity: 1)
        let controllers = UnsafeMutablePointer<Double>.allocate(capacity: MIDIParameters.count)
        for index in 0..<MIDIParameters.count { (controllers + index).initialize(to: MIDIParameters.defaultValue(index)) }
        let cursors = UnsafeMutablePointer<Int32>.allocate(capacity: queueLimit)
        cursors.initialize(repeating: 0, count: queueLimit)
        plugin.initialize(
            to: Plugin(session: PluginSession(services: VST3Services(work: WorkThread())), controllers: controllers, cursors: cursors)
        )
        plugin.pointee.session.startWorker(workerBody, context: UnsafeMutableRawPointer(plugin))
        return plugin
    }

    static func destroy(_ plugin: UnsafeMutablePointer<Plugin>) {
        plugin.pointee.session.free()
        plugin.pointee.notes.free()
        plugin.pointee.controllers.deallocate()
        plugin.pointee.cursors.deallocate()
        if let handler = plugin.pointee.handler { _ = handler.pointee.vtable.pointee.release?(handler) }
        plugin.deinitialize(count: 1)
        plugin.deallocate()
    }

    static let workerBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let plugin = context?.assumingMemoryBound(to: Plugin.self) else { return nil }
        plugin.pointee.session.work.serve { kind, payload in plugin.pointee.session.work(kind, payload) }
        return nil
    }

    /// setActive: true starts playing at setupProcessing's rate and block size (IComponent's
    /// activation is CLAP's activate); false stops.
    mutating func setActive(_ on: Bool) -> Bool {
        guard on else {
            session.active = false
            return true
        }
        guard session.activate(sampleRate: sampleRate, maximumBlock: maximumBlock) else { return false }
        notes.clear()
        return true
    }

    /// On the main thread: when a program or a mapped controller moved values behind the
    /// host's back (or `always`: a shape opened in the window), the host is told to read them again.
    mutating func tellHostIfValuesMoved(always: Bool = false) {
        guard session.rescanIfWanted() || always, let handler else { return }
        _ = handler.pointee.vtable.pointee.restart_component?(handler, Int32(TONESHAPER_VST3_RESTART_PARAM_VALUES_CHANGED))
    }

    // MARK: - process()

    /// The audio thread's one entry: the answers waiting, the transport, then the block's
    /// events in time order, each parameter point applied at its frame before them, the block
    /// rendered in pieces between them. A block of no frames (a host's flush) takes the
    /// parameters only.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func process(_ data: UnsafeMutablePointer<toneshaper_vst3_process_data>) -> Int32 {
        let frames = Int(data.pointee.sample_count)
        var output: UnsafeMutablePointer<Float>?
        if data.pointee.output_count >= 1, let buses = data.pointee.outputs, buses.pointee.channel_count >= 1, let channels = buses.pointee.channels32
        {
            output = channels[0]
        }
        guard frames >= 0, frames == 0 || (output != nil && data.pointee.symbolic_sample_size == Int32(TONESHAPER_VST3_SAMPLE32)) else {
            return TONESHAPER_VST3_FALSE
        }
        let pushedBefore = session.work.pushedCount()
        if !session.work.answers.isEmpty || !session.fromMain.isEmpty { session.takeAnswers() }
        if let context = data.pointee.context { follow(context.pointee) }
        let changes = data.pointee.input_parameter_changes
        let queues = startParameters(changes)
        var done = 0
        if let output, let events = data.pointee.input_events {
            var count: Int32 = 0
            _unsafePerformance { count = events.pointee.vtable.pointee.get_event_count?(events) ?? 0 }
            var event = toneshaper_vst3_event()
            var previous = 0
            for index in 0..<count {
                var got = TONESHAPER_VST3_FALSE
                _unsafePerformance { got = events.pointee.vtable.pointee.get_event?(events, index, &event) ?? TONESHAPER_VST3_FALSE }
                guard got == TONESHAPER_VST3_OK, session.inOrder(Int(event.sample_offset), frames: frames, after: &previous) else { continue }
                applyParameters(changes, queues: queues, upTo: event.sample_offset, frames: frames, output: output, rendered: &done)
                handle(event, at: previous, output: output, rendered: &done)
            }
        }
        applyParameters(changes, queues: queues, upTo: Int32.max, frames: frames, output: output, rendered: &done)
        if let output, frames > 0 {
            session.engine.render(into: output + done, frames: frames - done)
            if notes.count > 0 { notes.endSilent(session.engine) { _ in true } }  // VST 3 has no note end to send
            let bus = data.pointee.outputs!
            bus.pointee.silence_flags = 0
            PluginSession<VST3Services, VST3Problem>.copyFirst(bus.pointee.channels32!, count: Int(bus.pointee.channel_count), frames: frames)
        }
        session.finishBlock(pushedBefore: pushedBefore)
        return TONESHAPER_VST3_OK
    }

    /// The host's transport (ProcessContext): playing or not, the frame, and the musical
    /// position where the host gives it.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func follow(_ context: toneshaper_vst3_process_context) {
        let state = context.state
        func valid(_ flag: Int32) -> Bool { state & UInt32(flag) != 0 }
        let musical = valid(TONESHAPER_VST3_CONTEXT_PROJECT_TIME_MUSIC_VALID) && valid(TONESHAPER_VST3_CONTEXT_BAR_POSITION_VALID)
        session.engine.follow(
            rolling: valid(TONESHAPER_VST3_CONTEXT_PLAYING), frame: Double(context.project_time_samples),
            quarterNote: musical ? context.project_time_music : nil, barStart: musical ? context.bar_position_music : nil,
            signature: valid(TONESHAPER_VST3_CONTEXT_TIME_SIG_VALID)
                ? (Int(context.time_sig_numerator), Int(context.time_sig_denominator)) : nil,
            tempo: valid(TONESHAPER_VST3_CONTEXT_TEMPO_VALID) ? context.tempo : nil)
    }
}
