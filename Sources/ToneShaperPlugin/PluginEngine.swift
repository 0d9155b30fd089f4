import Synchronization
import ToneShaperAudio
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// The plugin core every format's shell wraps, in the manner of DPF's one plugin object:
/// the node's own audio side, hosted as the JACK node hosts it, generic over the host's
/// services (``PluginHost``: schedule work, log, built-in documents), with the work
/// thread's answers through a ``PluginAnswer``. A shell converts its format's ports,
/// events and state to these calls and keeps nothing else. The audio thread's half is an `InstrumentPlayer` (the node's
/// renderer: engine, voices, MIDI performance, schedule); the worker's half is an
/// `InstrumentBuilder` (the shape as every change leaves it, plans built and freed). They
/// talk through the host's work queue in plain bytes (`InstrumentRequest`,
/// `InstrumentResponse`), so nothing the audio thread does allocates, locks or waits.
///
/// Real time: the audio thread's methods allocate nothing, take no lock and never wait.
/// Being generic, they are proved so where a shell specializes them: the LV2 shell's run()
/// carries the release build's proof (`@_noLocks`, `@_noAllocation`), which covers every
/// call it makes into the core.
///
/// Threads: `init` and `free` in instantiate and cleanup; `setControl`, `handleMIDI`,
/// `render`, `workResponse`, `endRun` on the audio thread, never at once; `work` and `load`
/// on the worker thread; `documentForSaving` and `restore` from the host's state calls
/// (`restore` never during run(): the plugin does not declare state:threadSafeRestore;
/// `documentForSaving` may be). The builder side is shared by the worker and the state
/// calls, never the audio thread: `BuilderSide` orders them with a spin flag.
public struct PluginEngine<Host: PluginHost> {
    public let sampleRate: Double
    public let maximumBlock: Int
    public let host: Host
    let player: UnsafeMutablePointer<InstrumentPlayer>
    let side: UnsafeMutablePointer<BuilderSide>
    /// The MIDI events of the block being read, applied at their frames by one render.
    private let events: UnsafeMutablePointer<MIDIEvent>
    private var eventCount = 0
    /// The block's system exclusive messages (tuning messages), copied out of the host's
    /// events so that they outlive them until the render; `sysexUsed` bytes taken.
    private let sysex: UnsafeMutableRawPointer
    private var sysexUsed = 0
    /// Room for a block's system exclusive messages: ten bulk tuning dumps (408 bytes each).
    public static var sysexCapacity: Int { 4096 }
    /// The host's transport, as its last time:Position left it and the blocks since moved
    /// it (nil until the host sends one: hosts without a transport).
    private var transport: TransportState?

    /// A new instance playing the node's default shape (`ToneShape.defaultShape`).
    public init(sampleRate: Double, maximumBlock: Int, host: Host) {
        precondition(sampleRate > 0 && maximumBlock > 0, "a sample rate and a block size above 0")
        self.sampleRate = sampleRate
        self.maximumBlock = maximumBlock
        self.host = host
        // The Fourier tables are kept while an instance lives, and go with the last one.
        SharedFourierTables.instanceMade()
        var builder = InstrumentBuilder(shape: InstrumentShape(ToneShape.defaultShape), sampleRate: sampleRate)
        let plan = builder.firstPlan()
        player = .allocate(capacity: 1)
        player.initialize(to: InstrumentPlayer(shape: builder.shape, plan: plan))
        side = .allocate(capacity: 1)
        var document = ToneShape.defaultShape
        document.name = nil
        document.description = nil
        side.initialize(to: BuilderSide(builder: builder, document: document))
        events = .allocate(capacity: RealtimeRenderer.maximumMIDIEvents)
        sysex = .allocate(byteCount: PluginEngine.sysexCapacity, alignment: 8)
    }

    /// Frees what `init` allocated (cleanup): the player first, whose plans the builder's
    /// keeper then frees with the builder.
    public mutating func free() {
        player.deinitialize(count: 1)
        player.deallocate()
        events.deallocate()
        sysex.deallocate()
        side.pointee.free()
        side.deinitialize(count: 1)
        side.deallocate()
        SharedFourierTables.instanceGone()  // after the plans: the last instance lets the tables go
    }

    /// Activation (not the audio thread): the controls the host moved before the first
    /// block (a project's values, a preset's) are the shape's from the start, their plan
    /// built here and taken at once, so the first block already plays them. Values that are
    /// not finite are skipped.
    public mutating func activate(moved: [(row: Int, value: Double)]) {
        guard !moved.isEmpty else { return }
        let answer = BuilderSide.with(side) { side in
            var shape = side.builder.shape
            for (row, value) in moved where value.isFinite && row >= 0 && row < shape.parameters.count {
                shape.set(shape.parameters[row].id, value)
            }
            return side.builder.replace(with: shape)
        }
        if let answer { player.pointee.take(answer) }
    }

    /// Deactivation (not the audio thread): nothing to do; the shape and its plan stay.
    public mutating func deactivate() {}

    /// The control of the table's row `row` (``ParameterTable/all``) reads `value`: the
    /// row's rule takes it (``AudioParameters/Row/portValue(_:)``); not finite, it is ignored.
    public mutating func setControl(row: Int, value: Double) {
        let host = self.host
        player.pointee.control(row: row, value) { request in PluginEngine.send(request, host) }
    }

    /// A MIDI 1.0 message from a host, checked: a channel message of exactly its length
    /// is kept for the render at `frame`; so is a system exclusive message of the MIDI
    /// Tuning Standard (whole, F0 ... F7) or a GM/GS reset; a truncated tuning message or a
    /// bulk dump whose checksum is wrong is malformed; another system message is ignored;
    /// anything else is refused (``HostMIDI/Verdict``). Every format's MIDI comes through here.
    public mutating func takeMIDI(frame: Int, bytes: UnsafeRawBufferPointer) -> HostMIDI.Verdict {
        guard let status = bytes.first, status >= 0x80 else { return .malformed }
        if status == 0xF0 { return takeSysex(frame: frame, bytes: bytes) }
        if status >= 0xF0 { return .ignored }
        guard bytes.count == HostMIDI.length(status: status) else { return .malformed }
        for i in 1..<bytes.count where bytes[i] >= 0x80 { return .malformed }
        handleMIDI(frame: frame, bytes: bytes)
        return .taken
    }

    /// A system exclusive message: copied for the render when it tunes (or resets) the keys.
    private mutating func takeSysex(frame: Int, bytes: UnsafeRawBufferPointer) -> HostMIDI.Verdict {
        switch MIDITuningMessage.read(bytes) {
        case .failure(.malformed), .failure(.checksum): return .malformed
        case .failure: if !MIDITuningMessage.isReset(bytes) { return .ignored }
        case .success: break
        }
        guard eventCount < RealtimeRenderer.maximumMIDIEvents, bytes.count <= PluginEngine.sysexCapacity - sysexUsed,
            let base = bytes.baseAddress
        else { return .ignored }  // a flood of them in one block: the rest wait for none
        let copy = sysex + sysexUsed
        copy.copyMemory(from: base, byteCount: bytes.count)
        sysexUsed += bytes.count
        events[eventCount] = MIDIEvent(frame: frame, size: bytes.count, byte0: 0xF0, sysex: UnsafeRawPointer(copy))
        eventCount += 1
        return .taken
    }

    /// A MIDI message at `frame` (checked already): kept for the block's render, which applies it there.
    public mutating func handleMIDI(frame: Int, bytes: UnsafeRawBufferPointer) {
        guard eventCount < RealtimeRenderer.maximumMIDIEvents, bytes.count >= 1 else { return }
        events[eventCount] = MIDIEvent(
            frame: frame, size: bytes.count, byte0: bytes[0], byte1: bytes.count > 1 ? bytes[1] : 0, byte2: bytes.count > 2 ? bytes[2] : 0)
        eventCount += 1
    }

    /// Renders `frames` frames, any number of them: in slices of at most `maximumBlock`,
    /// each taking the MIDI events kept for it (their frames count from the call's first
    /// frame, in order). A shell calls it once per block after reading every event, or up to
    /// each event that changes what plays (a parameter, a note's end) and then for the rest.
    public mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0 else { return }  // the events wait for frames to land in
        let host = self.host
        var done = 0
        var first = 0
        while done < frames {
            let slice = min(frames - done, maximumBlock)
            var end = first
            while end < eventCount && (events[end].frame < done + slice || done + slice == frames) {
                events[end].frame = max(0, events[end].frame - done)
                end += 1
            }
            player.pointee.render(
                into: output + done, frames: slice, midi: UnsafeBufferPointer(start: events + first, count: end - first), transport: transport
            ) { request in PluginEngine.send(request, host) }
            first = end
            // A host sends a position when its transport changes; between, it rolls on.
            if let current = transport, current.rolling { transport?.frame = current.frame + slice }
            done += slice
        }
        eventCount = 0
        sysexUsed = 0
    }

    /// Ends notes now, as a host's note-off or note choke with wildcards asks: the notes of
    /// `key` on `channel`, nil meaning any (``HostNotes/match(port:channel:key:noteID:)``
    /// resolves a host's event to them). The shell renders up to the event's frame first.
    public mutating func endNotes(key: UInt8?, channel: UInt8?, choke: Bool) {
        player.pointee.endNotes(key: key, channel: channel, choke: choke)
    }

    /// The host's transport moved (time:Position): LV2 counts bars and beats from 0, JACK
    /// (and the renderer) from 1. A position without a frame keeps the frame known.
    public mutating func setPosition(speed: Double?, frame: Double?, bar: Double?, barBeat: Double?, beatsPerBar: Double?, beatsPerMinute: Double?) {
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

    /// On the work thread: a request the audio thread scheduled (``PluginHost/scheduleWork(_:)``).
    public func work(_ request: UnsafeRawBufferPointer, answer: some PluginAnswer) {
        guard request.count == MemoryLayout<InstrumentRequest>.size, let base = request.baseAddress else {
            host.log(.error, "the work thread was given an engine request of the wrong size; ignored")
            return
        }
        let asked = base.loadUnaligned(as: InstrumentRequest.self)
        if case .program(let program) = asked {
            playBuiltIn(Int(program), answer: answer)
            return
        }
        let response = BuilderSide.with(side) { side in side.builder.handle(asked) }
        if let response { respond(response, answer) }
    }

    /// Program change: built-in document `index` (by name, as the node lists them), with
    /// the MIDI setup kept; a program beyond the built-ins changes nothing.
    private func playBuiltIn(_ index: Int, answer: some PluginAnswer) {
        guard let text = host.builtInDocument(index) else { return }
        guard let document = decode(text, refused: "a built-in document was refused") else { return }
        let response = BuilderSide.with(side) { side in
            side.document = document
            return side.builder.replace(with: InstrumentShape(document).keepingPerformance(of: side.builder.shape))
        }
        if let response { respond(response, answer) }
    }

    /// On the work thread: a document file's bytes, to play. False (logged, the sound
    /// unchanged) when the document is refused.
    public func load(document bytes: UnsafeRawBufferPointer, answer: some PluginAnswer) -> Bool {
        guard let document = decode(bytes, refused: "the document file was refused, the sound is unchanged") else { return false }
        let response = BuilderSide.with(side) { side in
            side.document = document
            return side.builder.replace(with: InstrumentShape(document))
        }
        if let response { respond(response, answer) }
        host.log(.note, "document loaded")
        return true
    }

    /// The document `bytes` hold, read as the node reads it (``ToneShapeDocument``), or nil
    /// with the reason logged after `refused`.
    private func decode(_ bytes: UnsafeRawBufferPointer, refused: String) -> ToneShape? {
        decode(Array(bytes), refused: refused)
    }

    private func decode(_ bytes: [UInt8], refused: String) -> ToneShape? {
        do throws(DocumentError) {
            return try ToneShapeDocument.decode(bytes, source: "document")
        } catch {
            host.log(.error, refused + ": " + error.description)
            return nil
        }
    }

    /// On the audio thread: the worker's answer.
    public mutating func workResponse(_ response: UnsafeRawBufferPointer) {
        guard response.count == MemoryLayout<InstrumentResponse>.size, let base = response.baseAddress else { return }
        player.pointee.take(base.loadUnaligned(as: InstrumentResponse.self))
    }

    public mutating func endRun() {}

    /// The document to save: the shape as it plays (``ToneShape/init(played:document:)``),
    /// as the node writes it (``ToneShapeDocument/encode(_:)``). The bytes stay valid until
    /// the next call or ``free()``.
    public func documentForSaving() -> UnsafeRawBufferPointer {
        BuilderSide.with(side) { side in
            side.save(ToneShapeDocument.encode(ToneShape(played: side.builder.shape, document: side.document)))
        }
    }

    /// Off the audio thread: each row's value (as its port or parameter shows it) in the
    /// shape as it plays now, by row: what a host must read again after a program change or
    /// a mapped controller moved values behind its back.
    public func playedValues(_ take: (_ row: Int, _ value: Double) -> Void) {
        let shape = BuilderSide.with(side) { side in ToneShape(played: side.builder.shape, document: side.document) }
        for row in 0..<ParameterTable.all.count { take(row, ParameterTable.all[row].portValue(in: shape)) }
    }

    /// A state to restore (never during a block): the document is checked, its plan built
    /// here, and the player takes it before the next block. False (logged, the sound
    /// unchanged) when it is refused.
    public mutating func restore(document bytes: UnsafeRawBufferPointer) -> Bool {
        guard let document = decode(bytes, refused: "the state's document was refused, the sound is unchanged") else { return false }
        let response = BuilderSide.with(side) { side in
            side.document = document
            return side.builder.replace(with: InstrumentShape(document))
        }
        guard let response else {
            host.log(.error, "the state's document is kept, but its plan waits for the audio side to hand one back")
            return true
        }
        player.pointee.take(response)
        return true
    }

    /// A request for the work thread, as bytes. A full queue drops it: the next change of
    /// the same control asks again (hosts size their queues for many blocks).
    private static func send(_ request: InstrumentRequest, _ host: Host) {
        var copy = request
        _ = withUnsafeBytes(of: &copy) { host.scheduleWork(UnsafeRawBufferPointer($0)) }
    }

    func respond(_ response: InstrumentResponse, _ answer: some PluginAnswer) {
        var copy = response
        let sent = withUnsafeBytes(of: &copy) { answer.respond(UnsafeRawBufferPointer($0)) }
        if !sent { host.log(.error, "the host refused the work thread's answer (its queue is full); the change is lost") }
    }
}

/// The worker's half, shared by the worker thread and the host's state calls (never the
/// audio thread): they take turns through a spin flag, held only while a request is taken
/// or a document encoded. It lives at a fixed address (the engine allocates it), as its
/// atomic flag must.
struct BuilderSide: ~Copyable {
    var builder: InstrumentBuilder
    /// The document loaded last: its name, description and the keys this project does not
    /// know are written back when the state is saved.
    var document: ToneShape
    private var saved: UnsafeMutableRawBufferPointer?
    private let busy = Atomic<Bool>(false)

    init(builder: consuming InstrumentBuilder, document: ToneShape) {
        self.builder = builder
        self.document = document
    }

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

    public mutating func free() {
        saved?.deallocate()
        saved = nil
    }
}
