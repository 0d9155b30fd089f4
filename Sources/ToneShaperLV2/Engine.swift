import CLV2
import Synchronization
import ToneShaperAudio
import ToneShaperJSON

/// The engine behind the shell (Plugin.swift): the node's own audio side, hosted as the
/// JACK node hosts it. The audio thread's half is an `InstrumentPlayer` (the node's
/// renderer: engine, voices, MIDI performance, schedule); the worker's half is an
/// `InstrumentBuilder` (the shape as every change leaves it, plans built and freed). They
/// talk through the host's worker queue in plain bytes (`InstrumentRequest`,
/// `InstrumentResponse`), so nothing the audio thread does allocates, locks or waits.
///
/// Threads: `init` and `free` in instantiate and cleanup; `setControl`, `handleMIDI`,
/// `render`, `workResponse`, `endRun` on the audio thread, never at once; `work` and `load`
/// on the worker thread; `documentForSaving` and `restore` from the host's state calls
/// (`restore` never during run(): the plugin does not declare state:threadSafeRestore;
/// `documentForSaving` may be). The builder side is shared by the worker and the state
/// calls, never the audio thread: `BuilderSide` orders them with a spin flag.
struct PluginEngine {
    let sampleRate: Double
    let maximumBlock: Int
    let scheduler: WorkScheduler
    let log: Log
    private let player: UnsafeMutablePointer<InstrumentPlayer>
    private let side: UnsafeMutablePointer<BuilderSide>
    /// The MIDI events of the block being read, applied at their frames by one render.
    private let events: UnsafeMutablePointer<MIDIEvent>
    private var eventCount = 0
    /// The host's transport, as its last time:Position left it and the blocks since moved
    /// it (nil until the host sends one: hosts without a transport).
    private var transport: TransportState?

    init(sampleRate: Double, maximumBlock: Int, scheduler: WorkScheduler, log: Log) {
        self.sampleRate = sampleRate
        self.maximumBlock = maximumBlock
        self.scheduler = scheduler
        self.log = log
        var builder = InstrumentBuilder(shape: PluginTable.defaultShape, sampleRate: sampleRate)
        let plan = builder.firstPlan()
        player = .allocate(capacity: 1)
        player.initialize(to: InstrumentPlayer(shape: builder.shape, plan: plan))
        side = .allocate(capacity: 1)
        side.initialize(to: BuilderSide(builder: builder))
        events = .allocate(capacity: RealtimeRenderer.maximumMIDIEvents)
    }

    /// Frees what `init` allocated (cleanup): the player first, whose plans the builder's
    /// keeper then frees with the builder.
    mutating func free() {
        player.deinitialize(count: 1)
        player.deallocate()
        events.deallocate()
        side.pointee.free()
        side.deinitialize(count: 1)
        side.deallocate()
    }

    /// Activation (not the audio thread): the control ports the host moved before the first
    /// run() are the shape's from the start, their plan built here and taken at once.
    mutating func activate(moved: [(row: Int, value: Double)]) {
        guard !moved.isEmpty else { return }
        let answer = BuilderSide.with(side) { side in
            var shape = side.builder.shape
            for (row, value) in moved { shape.set(shape.parameters[row].id, value) }
            return side.builder.replace(with: shape)
        }
        if let answer { player.pointee.take(answer) }
    }
    mutating func deactivate() {}

    /// A control port moved (checked and rounded by the shell).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func setControl(row: Int, value: Double) {
        let scheduler = self.scheduler
        player.pointee.control(row: row, value) { request in PluginEngine.send(request, scheduler) }
    }

    /// A MIDI message at `frame`: kept for the block's one render, which applies it there.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func handleMIDI(frame: Int, bytes: UnsafeRawBufferPointer) {
        guard eventCount < RealtimeRenderer.maximumMIDIEvents, bytes.count >= 1 else { return }
        events[eventCount] = MIDIEvent(
            frame: frame, size: bytes.count, byte0: bytes[0], byte1: bytes.count > 1 ? bytes[1] : 0, byte2: bytes.count > 2 ? bytes[2] : 0)
        eventCount += 1
    }

    /// Renders the block (the shell calls it once per run(), after reading every event).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        let scheduler = self.scheduler
        player.pointee.render(
            into: output, frames: frames, midi: UnsafeBufferPointer(start: events, count: eventCount), transport: transport
        ) { request in PluginEngine.send(request, scheduler) }
        eventCount = 0
        // A host sends a position when its transport changes; between, it rolls on.
        if let current = transport, current.rolling { transport?.frame = current.frame + frames }
    }

    /// The host's transport moved (time:Position): LV2 counts bars and beats from 0, JACK
    /// (and the renderer) from 1. A position without a frame keeps the frame known.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func setPosition(speed: Double?, frame: Double?, bar: Double?, barBeat: Double?, beatsPerBar: Double?, beatsPerMinute: Double?) {
        var state = transport ?? TransportState(rolling: false, frame: 0)
        if let speed { state.rolling = speed > 0 }
        if let frame, frame >= 0, frame < 9e15 { state.frame = Int(frame) }
        if let bar, let barBeat, let beatsPerBar, let beatsPerMinute, bar >= 0, bar < 1e9, barBeat >= 0, barBeat < 1e6, beatsPerBar > 0,
            beatsPerMinute > 0
        {
            let ticksPerBeat = 1920.0
            let beat = barBeat.rounded(.down)
            state.bbt = BarsBeats(
                bar: Int(bar) + 1, beat: Int(beat) + 1, tick: Int((barBeat - beat) * ticksPerBeat), ticksPerBeat: ticksPerBeat,
                beatsPerBar: beatsPerBar, beatsPerMinute: beatsPerMinute)
        }
        transport = state
    }

    /// On the worker thread: a request of the audio thread's.
    func work(_ request: UnsafeRawBufferPointer, responder: WorkResponder) {
        guard request.count == MemoryLayout<InstrumentRequest>.size, let base = request.baseAddress else {
            log.write(.error, "the worker was given an engine request of the wrong size; ignored")
            return
        }
        let asked = base.loadUnaligned(as: InstrumentRequest.self)
        if case .program(let program) = asked {
            playBuiltIn(Int(program), responder: responder)
            return
        }
        let answer = BuilderSide.with(side) { side in side.builder.handle(asked) }
        if let answer { PluginEngine.respond(answer, responder, log) }
    }

    /// Program change: built-in document `index` (by name, as the node lists them), with
    /// the MIDI setup kept; a program beyond the built-ins changes nothing.
    private func playBuiltIn(_ index: Int, responder: WorkResponder) {
        guard let text = PluginTable.builtIn(index) else { return }
        let decoded: (InstrumentShape, [String: JSONValue])
        do throws(DocumentProblem) {
            decoded = try DocumentCodec.decode(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } catch {
            log.write(.error, "a built-in document was refused: " + error.message)
            return
        }
        let answer = BuilderSide.with(side) { side in
            side.kept = decoded.1
            return side.builder.replace(with: decoded.0.keepingPerformance(of: side.builder.shape))
        }
        if let answer { PluginEngine.respond(answer, responder, log) }
    }

    /// On the worker thread: a document file's bytes (patch:Set of urn:toneshaper:file).
    func load(document: UnsafeRawBufferPointer, path: UnsafePointer<CChar>, responder: WorkResponder) -> Bool {
        let decoded: (InstrumentShape, [String: JSONValue])
        do throws(DocumentProblem) {
            decoded = try DocumentCodec.decode(document)
        } catch {
            log.write(.error, "the document file was refused, the sound is unchanged: " + error.message)
            return false
        }
        let answer = BuilderSide.with(side) { side in
            side.kept = decoded.1
            return side.builder.replace(with: decoded.0)
        }
        if let answer { PluginEngine.respond(answer, responder, log) }
        log.write(.note, "document loaded")
        return true
    }

    /// On the audio thread: the worker's answer.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func workResponse(_ response: UnsafeRawBufferPointer) {
        guard response.count == MemoryLayout<InstrumentResponse>.size, let base = response.baseAddress else { return }
        player.pointee.take(base.loadUnaligned(as: InstrumentResponse.self))
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func endRun() {}

    /// The document to save: the shape as every change left it, as JSON text.
    func documentForSaving() -> UnsafeRawBufferPointer? {
        BuilderSide.with(side) { side in side.save(DocumentCodec.encode(side.builder.shape, keeping: side.kept)) }
    }

    /// A state to restore (never during run()): the document is checked, its plan built
    /// here, and the player takes it before the next run().
    mutating func restore(json: UnsafeRawBufferPointer) -> Bool {
        let decoded: (InstrumentShape, [String: JSONValue])
        do throws(DocumentProblem) {
            decoded = try DocumentCodec.decode(json)
        } catch {
            log.write(.error, "the state's document was refused, the sound is unchanged: " + error.message)
            return false
        }
        let answer = BuilderSide.with(side) { side in
            side.kept = decoded.1
            return side.builder.replace(with: decoded.0)
        }
        guard let answer else {
            log.write(.error, "the state's document is kept, but its plan waits for the audio side to hand one back")
            return true
        }
        player.pointee.take(answer)
        return true
    }

    /// A request for the worker, as bytes. A full queue drops it: the next change of the
    /// same control asks again (the host's queue is sized for many periods).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private static func send(_ request: InstrumentRequest, _ scheduler: WorkScheduler) {
        var copy = request
        _ = withUnsafeBytes(of: &copy) { scheduler.schedule(.engine, UnsafeRawBufferPointer($0)) }
    }

    private static func respond(_ answer: InstrumentResponse, _ responder: WorkResponder, _ log: Log) {
        var copy = answer
        let sent = withUnsafeBytes(of: &copy) { responder.respond(UnsafeRawBufferPointer($0)) }
        if !sent { log.write(.error, "the host refused the worker's answer (its queue is full); the change is lost") }
    }
}

/// The worker's half, shared by the worker thread and the host's state calls (never the
/// audio thread): they take turns through a spin flag, held only while a request is taken
/// or a document encoded. It lives at a fixed address (the engine allocates it), as its
/// atomic flag must.
struct BuilderSide: ~Copyable {
    var builder: InstrumentBuilder
    /// The loaded document's keys besides the table's (name, description, unknown keys):
    /// written back when the state is saved.
    var kept: [String: JSONValue] = [:]
    private var saved: UnsafeMutableRawBufferPointer?
    private let busy = Atomic<Bool>(false)

    init(builder: consuming InstrumentBuilder) { self.builder = builder }

    static func with<R>(_ side: UnsafeMutablePointer<BuilderSide>, _ body: (inout BuilderSide) -> R) -> R {
        while !side.pointee.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        defer { side.pointee.busy.store(false, ordering: .releasing) }
        return body(&side.pointee)
    }

    /// Keeps `bytes` until the next save (or `free`) and returns them.
    mutating func save(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
        saved?.deallocate()
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        saved = copy
        return UnsafeRawBufferPointer(copy)
    }

    mutating func free() {
        saved?.deallocate()
        saved = nil
    }
}

extension Log {
    /// Writes text made at run time (a document's problem), off the audio thread.
    func write(_ level: Level, _ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { write(level, $0) }
        }
    }
}
