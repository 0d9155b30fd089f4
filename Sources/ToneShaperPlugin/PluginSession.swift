import CPluginSupport
import Synchronization
import ToneShaperModel
import ToneShaperParameters

/// The kinds of message on the queue to a shell's own work thread (``WorkThread``).
public enum PluginWork: UInt32 {
    /// The engine's own request: ``PluginEngine/work(_:answer:)``.
    case engine = 1
    /// The counts of a block's problems, to log.
    case problems = 2
}

/// A format's host services over the plugin's own work thread (a format without a worker:
/// CLAP, VST 3): the engine's requests go on its queue.
public protocol ThreadedPluginHost: PluginHost {
    var work: WorkThread { get }
}

extension ThreadedPluginHost {
    public func scheduleWork(_ request: UnsafeRawBufferPointer) -> Bool { work.push(PluginWork.engine.rawValue, request) }
}

/// The problems every shell over a ``PluginSession`` counts (among its own kinds): a
/// parameter it must refuse, an event past its block or out of order.
public protocol ParameterProblem: PluginProblem {
    static var eventPastBlock: Self { get }
    static var eventOutOfOrder: Self { get }
    static var unknownParameter: Self { get }
    static var notModulatable: Self { get }
    static var parameterNotFinite: Self { get }
    static var parameterOutOfRange: Self { get }
    static var noteOutOfRange: Self { get }
}

extension ParameterProblem {
    /// The kind a host's refused parameter counts as.
    init(refused: HostParameters.Refusal) {
        switch refused {
        case .unknownID: self = .unknownParameter
        case .notFinite: self = .parameterNotFinite
        case .outOfRange: self = .parameterOutOfRange
        case .notModulatable: self = .notModulatable
        }
    }
}

/// One instance of a plugin whose format has no worker of its own (CLAP, VST 3), whatever the
/// format: the audio thread's engine and the copy the other threads use, the plugin's work
/// thread and the main thread's queue of answers, the host's parameter values, the problems
/// counted and held, and what the editor window shares. A shell keeps one behind a pointer,
/// converts its format's calls to these, and keeps nothing else.
///
/// Threads: the main thread (activation, state, documents, the window), the audio thread
/// (the block's calls, under "The audio thread"), and the work thread (``work(_:_:)``). Being
/// generic, the audio thread's calls are proved free of locks and allocation where a shell
/// specializes them, in its process().
public struct PluginSession<Host: ThreadedPluginHost, Problem: ParameterProblem> {
    /// The audio thread's engine. `shared` is a copy of it for the work and main threads:
    /// the same player and builder behind the same pointers; they call only its builder's
    /// side (work, load, documentForSaving), which orders itself.
    public var engine: PluginEngine<Host>
    public var shared: PluginEngine<Host>
    public let services: Host
    public let fromMain: MessageRing
    public let params: HostParameters
    public let problems: Problems<Problem>
    public let heldProblems: HeldProblems<Problem>
    public let editorChannel: EditorChannel
    /// The work thread asked the main thread to read the parameters again (a program
    /// change, a mapped controller), for the shell to tell its host.
    public let rescanWanted: ChangeFlag
    public var active = false
    /// The host renders offline: each block waits for the work thread's plans.
    public var offline = false
    var worker: (body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer)?

    public var work: WorkThread { services.work }

    public init(services: Host, sampleRate: Double = 48_000) {
        self.services = services
        engine = PluginEngine(sampleRate: sampleRate, maximumBlock: PluginLimits.defaultMaximumBlock, host: services)
        shared = engine
        fromMain = MessageRing(slots: 64)
        params = HostParameters()
        problems = Problems()
        heldProblems = HeldProblems()
        editorChannel = EditorChannel.make()
        rescanWanted = ChangeFlag()
    }

    /// Frees everything (the work thread stopped first).
    public mutating func free() {
        stopWorker()
        heldProblems.flush(host: services)
        engine.free()
        work.free()
        fromMain.free()
        params.free()
        problems.free()
        heldProblems.free()
        editorChannel.free()
        rescanWanted.free()
    }

    // MARK: - The work thread

    /// Starts the work thread on `body(context)`, which calls ``work(_:_:)`` for each message
    /// (a C function cannot be generic: the shell gives its own).
    public mutating func startWorker(_ body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer)
    {
        worker = (body, context)
        if !work.start(body, context: context) {
            services.log(.error, "the work thread could not be started: changes that need a new plan are not heard")
        }
    }

    public func stopWorker() { work.stop() }

    /// On the work thread: one message queued for it.
    public func work(_ kind: UInt32, _ payload: UnsafeRawBufferPointer) {
        switch PluginWork(rawValue: kind) {
        case .engine:
            shared.work(payload, answer: RingAnswer(ring: work.answers))
            if PluginSession.changes(payload, document: true) {
                rescanWanted.raise()
                publishTuning()  // a program brings its document's tuning
            }
            if PluginSession.changes(payload, document: false) { sendPointsToEditor(always: false) }
        case .problems:
            heldProblems.take(payload, now: toneshaper_plugin_monotonic_seconds(), host: services)
        case nil: services.log(.error, "the work thread was given a message of an unknown kind; ignored")
        }
    }

    /// Whether an engine request changes parameters behind the host's back (`document`: a
    /// program change loads a built-in document, a MIDI controller moves a mapped parameter)
    /// or the curve as it plays (a program replaces it, a new duration stretches it, a new
    /// range maps it).
    static func changes(_ payload: UnsafeRawBufferPointer, document: Bool) -> Bool {
        guard payload.count == MemoryLayout<InstrumentRequest>.size, let base = payload.baseAddress else { return false }
        switch base.loadUnaligned(as: InstrumentRequest.self) {
        case .program: return true
        case .controller: return document
        case .set(.duration, _), .set(.minFrequency, _), .set(.maxFrequency, _): return !document
        default: return false
        }
    }

    /// On the main thread, after the work thread asked for it: the parameters read the
    /// document as it now plays; true when the shell should tell its host.
    public mutating func rescanIfWanted() -> Bool {
        waitForWorker()  // a request the audio thread queued may be on its way (it returns at once when none is)
        guard rescanWanted.take() else { return false }
        params.refresh(from: shared)
        return true
    }

    /// Off the audio thread: waits (at most a second) until the work thread has done what
    /// was queued for it so far.
    public func waitForWorker() { work.waitUntilDone() }

    // MARK: - Activation

    /// Activation: an engine for the host's sample rate and largest block, playing the same
    /// document (made anew only when they differ from the engine's).
    public mutating func activate(sampleRate: Double, maximumBlock: Int) -> Bool {
        guard sampleRate > 0, sampleRate.isFinite, sampleRate < 10_000_000, maximumBlock > 0 else {
            services.log(.error, "the host gave a sample rate or a block size the plugin cannot play; not activated")
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
            if let worker { startWorker(worker.body, context: worker.context) }
        }
        takeAnswers()  // what came while no block ran, before the values set meanwhile
        takePending()
        sendPointsToEditor(always: false)  // values set meanwhile may have stretched or mapped the curve
        active = true
        return true
    }

    /// The values set while the plugin was not active, to the engine at once (activation,
    /// or a state saved before it).
    public mutating func takePending() { engine.activate(moved: params.takePending()) }

    // MARK: - The audio thread

    /// The answers of the work and main threads.
    public mutating func takeAnswers() {
        while work.answers.take({ _, payload in engine.workResponse(payload) }) {}
        while fromMain.take({ _, payload in engine.workResponse(payload) }) {}
    }

    /// Renders up to `time` (frames from the block's start) when an event changes what plays there.
    public mutating func renderUpTo(_ time: Int, output: UnsafeMutablePointer<Float>, rendered done: inout Int) {
        guard time > done else { return }
        engine.render(into: output + done, frames: time - done)
        done = time
    }

    /// A parameter's value (or its modulation) from the host: refused (counted) when the id
    /// is not one of ours, the number not finite, or the value outside the range; a stepped
    /// one rounded. Not active, the row waits for activation.
    public mutating func parameter(_ id: UInt32, _ value: Double, modulation isModulation: Bool) {
        do throws(HostParameters.Refusal) {
            guard let taken = try params.set(id, value, modulation: isModulation, active: active) else { return }
            engine.setControl(row: taken.row, value: taken.value)
        } catch {
            problems.note(Problem(refused: error))
        }
    }

    /// Whether a block's event at `time` comes before the block's end (`frames`) and not
    /// before the one ahead of it (`previous`, then moved to it); counted when not.
    public func inOrder(_ time: Int, frames: Int, after previous: inout Int) -> Bool {
        guard time >= 0, time < frames else {
            problems.note(.eventPastBlock)
            return false
        }
        guard time >= previous else {
            problems.note(.eventOutOfOrder)
            return false
        }
        previous = time
        return true
    }

    /// A MIDI message the shell made from its format's event (checked already), at `frame`.
    public mutating func send(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, at frame: Int) {
        var bytes = (status, data1, data2)
        withUnsafeBytes(of: &bytes) { engine.handleMIDI(frame: frame, bytes: $0) }
    }

    /// A host's note-on (checked already), as a MIDI note-on at `frame` of the engine's
    /// pending events; `velocity` 0...1 (0 would be a note-off in MIDI: the softest is 1).
    public mutating func startNote(key: UInt8, channel: UInt8, velocity: Double, at frame: Int) {
        send(0x90 | channel, key, UInt8(max(1, min(127, (velocity * 127).rounded()))), at: frame)
    }

    /// A host's note-off or choke, resolved by ``HostNotes/match(port:channel:key:noteID:)``:
    /// one note ends with a MIDI note-off at its frame, as its note-on came; several (a
    /// wildcard) or a choke end now, rendered up to `time` (from the block's start) first.
    public mutating func endNotes(
        _ match: HostNotes.Match, velocity: Double, choke: Bool, at time: Int, output: UnsafeMutablePointer<Float>?, rendered done: inout Int
    ) {
        switch match {
        case .refused: problems.note(.noteOutOfRange)
        case .nothing: break
        case .notes(let key?, let channel?) where !choke:
            send(0x80 | channel, key, UInt8(min(127, (velocity * 127).rounded())), at: time - done)
        case .notes(let key, let channel):
            if let output { renderUpTo(time, output: output, rendered: &done) }
            engine.endNotes(key: key, channel: channel, choke: choke)
        }
    }

    /// The first channel's `frames` samples copied into the others of `channels` (a stereo
    /// output plays the same sound).
    public static func copyFirst(_ channels: UnsafePointer<UnsafeMutablePointer<Float>?>, count: Int, frames: Int) {
        guard count > 1, let left = channels[0] else { return }
        for channel in 1..<count {
            if let other = channels[channel] { for i in 0..<frames { other[i] = left[i] } }
        }
    }

    /// A MIDI 1.0 message of up to three bytes, as the core takes every format's MIDI; false
    /// when it is malformed.
    public mutating func midi(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, at frame: Int) -> Bool {
        var bytes = (status, data1, data2)
        let length = max(1, HostMIDI.length(status: status))
        let verdict = withUnsafeBytes(of: &bytes) { engine.takeMIDI(frame: frame, bytes: UnsafeRawBufferPointer(rebasing: $0[0..<min(3, length)])) }
        return verdict != .malformed
    }

    /// At a block's end: its problems to the work thread, which is woken when anything was
    /// queued for it (offline: and waited for); the playhead for the window.
    public mutating func finishBlock(pushedBefore: Int) {
        if problems.any() {  // nearly every block has none: no copy of the work thread for the closure
            let work = self.work
            problems.handOff { work.push(PluginWork.problems.rawValue, $0) }
        }
        services.work.finishBlock(pushedBefore: pushedBefore, offline: offline)
        editorChannel.playhead.pointee.store(engine.cyclePosition.bitPattern, ordering: .relaxed)
    }

    // MARK: - Documents (main thread)

    /// The document as it plays, to save whole (modulation is the host's, not the project's).
    public mutating func documentToSave() -> [UInt8] {
        if !active { takePending() }
        waitForWorker()  // the changes queued so far reach the document first
        return params.unmodulated(Array(shared.documentForSaving()))
    }

    /// A document to play (a state, a preset, a program): checked here, then handed to the
    /// engine, whose plan reaches the audio thread at its next block; the parameters then
    /// read its values. False (logged, the sound unchanged) when it is refused.
    public mutating func play(document bytes: [UInt8], what: String) -> Bool {
        let shape: ToneShape
        do throws(DocumentError) {
            shape = try ToneShapeDocument.decode(bytes, source: "document")
        } catch {
            services.log(.error, what + " was refused, the sound is unchanged: " + error.description)
            return false
        }
        waitForWorker()
        // Not active, no block runs: the engine takes it at once. Active, its answer waits
        // for the next block.
        let loaded = bytes.withUnsafeBytes { active ? shared.load(document: $0, answer: RingAnswer(ring: fromMain)) : engine.restore(document: $0) }
        guard loaded else { return false }
        params.reset(to: shape)
        sendPointsToEditor(always: false)
        publishTuning()
        return true
    }

    /// The bytes a host's stream gives, read in chunks by `read` (a count read, 0 at the end,
    /// below 0 on failure) up to the largest document; nil (logged) when the stream fails,
    /// is empty or holds more.
    public func readDocument(_ read: (UnsafeMutableRawPointer, Int) -> Int) -> [UInt8]? {
        do throws(DocumentFile.Refusal) {
            return try DocumentStream.read(read)
        } catch {
            services.log(.error, "the state " + error.reason + "; the sound is unchanged")
            return nil
        }
    }

    /// `bytes` given to a host's stream by `write` (a count written, 0 or below when it
    /// refuses) until all are taken; false (logged) when it refuses.
    public func writeDocument(_ bytes: [UInt8], _ write: (UnsafeRawPointer, Int) -> Int) -> Bool {
        let written = bytes.withUnsafeBytes { DocumentStream.write($0, write) }
        if !written { services.log(.error, "the host's stream refused the state; not saved") }
        return written
    }

    // MARK: - The editor window (main thread)

    /// The points the window left in the inbox, to the engine as a state's document goes (its
    /// answer reaches the audio side at its next block; not active, it is taken here at once).
    public mutating func takeEditorPoints() {
        waitForWorker()
        _ = shared.takePoints(from: editorChannel.inbox, answer: RingAnswer(ring: fromMain))
        if !active { takeAnswers() }
    }

    /// The window's edited curve and its segments' curvatures (main thread): into the
    /// inbox, then to the engine.
    public mutating func takeEditorPoints(_ points: [CurvePoint], curvatures: [Double] = []) {
        // The main thread is the inbox's only writer and reader: it is never busy here.
        guard !points.isEmpty, editorChannel.inbox.pointee.fill(with: points, curvatures: curvatures) else { return }
        takeEditorPoints()
    }

    /// The window chose a Scala file (a path, main thread): read and played as LV2's file
    /// parameters are (``PluginEngine/loadTuning(_:path:answer:)``), taken as the window's
    /// points are; the window is told the tuning then playing.
    public mutating func loadTuningFile(_ path: String, _ kind: TuningFileKind) {
        waitForWorker()
        let bytes = Array(path.utf8) + [0]
        _ = bytes.withUnsafeBytes { shared.loadTuning(kind, path: $0, answer: RingAnswer(ring: fromMain)) }
        if !active { takeAnswers() }
        publishTuning()
    }

    /// Off the audio thread: the tuning playing, for the window (``TuningNotice``).
    public func publishTuning() { editorChannel.tuning.pointee.publish(shared.tuning()) }

    /// The window asked for the curve as it plays: it reads it at its next timer.
    public func sendCurveToEditor() {
        waitForWorker()
        sendPointsToEditor(always: true)
    }

    /// Off the audio thread: the curve as it plays into the outbox, for the window to show
    /// at its next timer; `always` (the window asked for it) starts the sending that
    /// documents, programs and new durations or ranges do from then on.
    public func sendPointsToEditor(always: Bool) {
        if always { editorChannel.outbox.pointee.listen() }
        guard editorChannel.outbox.pointee.isListening else { return }
        shared.sendPoints(into: editorChannel.outbox)
    }
}

extension PluginEngine {
    /// A host's transport in quarter notes (VST 3's ProcessContext, CLAP's beat timeline):
    /// rolling or not, the frame, and where the bar started, the signature and the tempo
    /// when the host has them. The bar is counted from where it starts (bar 0 at quarter
    /// note 0), not from a bar number, which hosts number differently.
    public mutating func follow(
        rolling: Bool, frame: Double?, quarterNote: Double?, barStart: Double?, signature: (numerator: Int, denominator: Int)?, tempo: Double?
    ) {
        var bar: Double?
        var barBeat: Double?
        var beatsPerBar: Double?
        var beatsPerMinute: Double?
        if let quarterNote, let barStart, let signature, let tempo, tempo.isFinite, tempo > 0, signature.numerator > 0, signature.denominator > 0 {
            // The signature's beat is 4/denominator quarter notes.
            let quartersPerBeat = 4 / Double(signature.denominator)
            bar = (barStart / (Double(signature.numerator) * quartersPerBeat)).rounded()
            barBeat = (quarterNote - barStart) / quartersPerBeat
            beatsPerBar = Double(signature.numerator)
            beatsPerMinute = tempo / quartersPerBeat
        }
        setPosition(speed: rolling ? 1 : 0, frame: frame, bar: bar, barBeat: barBeat, beatsPerBar: beatsPerBar, beatsPerMinute: beatsPerMinute)
    }
}
