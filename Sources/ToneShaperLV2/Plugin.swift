import CLV2
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// One instance: the LV2 shell around the plugin core (``PluginEngine``), and everything
/// run() touches, allocated in instantiate. A plain struct behind a pointer (the
/// LV2_Handle), so run() does no reference counting. The shell converts LV2's ports,
/// atoms, worker and state into the core's calls; the core knows no LV2.
struct Plugin {
    /// A worker message: a kind and at most a path.
    static var maximumWorkMessage: Int { 4 + PlayingFile.maximumPath }

    let stereo: Bool
    let urids: LV2URIDs
    let log: Log
    let scheduler: WorkScheduler
    var engine: PluginEngine<LV2Services>
    /// The audio outputs' port indices (left or mono, then right).
    let leftPort: UInt32
    let rightPort: UInt32
    let problems: Problems<LV2Problem>
    /// The worker's: problems counted but not logged yet (`Worker.logProblems`).
    let heldProblems: HeldProblems<LV2Problem>
    /// The control port's buffer size (buf-size:sequenceSize), else a sane limit.
    let sequenceCapacity: Int

    var control: UnsafeRawPointer?
    var notify: UnsafeMutableRawPointer?
    var left: UnsafeMutablePointer<Float>?
    var right: UnsafeMutablePointer<Float>?
    /// The control ports by the table's row, and the value each had at the last run().
    let controls: ControlInputs
    /// The worker's buffer for its answers (`WorkResponder`).
    let responseScratch: UnsafeMutableRawPointer
    /// The document file playing, reported on the notify port when it changes or is asked for.
    var file = PlayingFile()
    /// The notify port's buffer size this run (header included), as the host gave it.
    var notifyCapacity = 0
    /// Frames per beat at the tempo of the host's last time:Position (0: none came yet),
    /// for sequences whose events are timed in beats.
    var framesPerBeat = 0.0
    /// Events in beats without a tempo were reported once; the next are played as quietly.
    var reportedBeatsWithoutTempo = false
    /// The curve between the plugin and its editor window (Points.swift).
    var points = CurveRelay()
    /// Ardour's inline display (InlineDisplay.swift).
    var inline = InlineDisplay()

    /// The host's features, checked; nil (with a message) when a required one is missing.
    static func make(
        sampleRate: Double, stereo: Bool, bundle: UnsafePointer<CChar>?, features: UnsafePointer<UnsafePointer<LV2_Feature>?>?
    ) -> UnsafeMutablePointer<Plugin>? {
        let list = LV2FeatureList(UnsafeRawPointer(features))
        let map = list.data("http://lv2plug.in/ns/ext/urid#map")
        let logFeature = list.data("http://lv2plug.in/ns/ext/log#log").map { UnsafePointer($0.assumingMemoryBound(to: LV2_Log_Log.self)) }
        let schedule = list.data("http://lv2plug.in/ns/ext/worker#schedule").map {
            UnsafePointer($0.assumingMemoryBound(to: LV2_Worker_Schedule.self))
        }
        let options = list.data("http://lv2plug.in/ns/ext/options#options")
        guard let map else {
            // Before the URIDs are mapped: standard error alone, as a log without the host's feature writes.
            Log(feature: nil, error: 0, warning: 0, note: 0).write(.error, "the host offers no urid:map, which the plugin requires; not instantiated")
            return nil
        }
        let urids = LV2URIDs(map: map)
        let log = Log(feature: logFeature, error: urids.logError, warning: urids.logWarning, note: urids.logNote)
        guard sampleRate > 0, sampleRate.isFinite else {
            log.write(.error, "the sample rate is not a positive number; not instantiated")
            return nil
        }
        let optionList = LV2OptionList(options)
        let maximumBlock = optionList.positiveInt(urids.maxBlockLength, urids) ?? PluginLimits.defaultMaximumBlock
        let sequenceCapacity = optionList.positiveInt(urids.sequenceSize, urids) ?? AtomSequenceReader.defaultCapacity

        // Without the host's worker, a thread of the plugin's own does the work.
        let scheduler = WorkScheduler(worker: schedule.map { HostSchedule(feature: $0) }, capacity: maximumWorkMessage)
        let audio = LV2PortLayout.audioPorts(stereo: stereo)
        let services = LV2Services(scheduler: scheduler, logger: log, shapes: BuiltInFolder(bundle: bundle, name: "shapes"))
        let plugin = UnsafeMutablePointer<Plugin>.allocate(capacity: 1)
        plugin.initialize(
            to: Plugin(
                stereo: stereo, urids: urids, log: log, scheduler: scheduler,
                engine: PluginEngine(sampleRate: sampleRate, maximumBlock: maximumBlock, host: services),
                leftPort: audio[0], rightPort: audio.count > 1 ? audio[1] : UInt32.max,
                problems: Problems<LV2Problem>(), heldProblems: HeldProblems(), sequenceCapacity: sequenceCapacity,
                control: nil, notify: nil, left: nil, right: nil, controls: ControlInputs(rowOfPort: LV2PortLayout.rows(stereo: stereo)),
                responseScratch: .allocate(byteCount: maximumWorkMessage, alignment: 8)))
        plugin.pointee.inline.connect(list)
        scheduler.start(Worker.ownThreadBody, context: UnsafeMutableRawPointer(plugin), host: services)
        return plugin
    }

    /// cleanup: frees everything make allocated.
    static func destroy(_ plugin: UnsafeMutablePointer<Plugin>) {
        plugin.pointee.scheduler.free()
        // What the worker held back (a repeated problem) is logged now rather than lost.
        plugin.pointee.heldProblems.flush(host: plugin.pointee.engine.host)
        plugin.pointee.engine.host.shapes.free()
        plugin.pointee.engine.free()
        plugin.pointee.problems.free()
        plugin.pointee.heldProblems.free()
        plugin.pointee.controls.free()
        plugin.pointee.responseScratch.deallocate()
        plugin.pointee.file.free()
        plugin.pointee.points.free()
        plugin.pointee.inline.free()
        plugin.deinitialize(count: 1)
        plugin.deallocate()
    }

    mutating func connect(port: UInt32, to data: UnsafeMutableRawPointer?) {
        switch port {
        case LV2PortLayout.control: control = data.map { UnsafeRawPointer($0) }
        case LV2PortLayout.notify: notify = data
        case leftPort: left = data?.assumingMemoryBound(to: Float.self)
        case rightPort: right = data?.assumingMemoryBound(to: Float.self)
        default: controls.connect(port: Int(port), to: data.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) })
        }
    }

    /// The audio thread's one entry: controls at the block's start, then the events, then
    /// one render of the block that applies each MIDI event at its frame.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func run(frames: Int) {
        guard let left, frames > 0 else { return }
        // Without the host's worker: the own thread's answers, as work_response would give them.
        let scheduler = self.scheduler
        if let answers = scheduler.answers, !answers.isEmpty { while answers.pop({ _, message in _ = takeResponse(message) }) {} }
        let pushedBefore = scheduler.pushedCount()
        if !controls.take(into: &engine) { problems.note(.controlNotFinite) }
        clearNotify()
        if let control,
            var reader = AtomSequenceReader(
                buffer: control, capacity: sequenceCapacity, frames: frames, sequence: urids.atomSequence,
                beatUnits: (urids.unitsBeat, urids.atomBeatTime), problems: problems)
        {
            // Every event first: the engine applies MIDI at its frame inside one render of
            // the block, as the node's renderer does with a JACK period. A time:Position
            // read here sets the tempo for the events in beats after it.
            while let event = reader.next(problems: problems, framesPerBeat: framesPerBeat) { handle(event) }
            if reader.placement.placedWithoutTempo && !reportedBeatsWithoutTempo {
                problems.note(.beatsWithoutTempo)
                reportedBeatsWithoutTempo = true
            }
        }
        engine.render(into: left, frames: frames)
        if file.due { writeFileToNotify() }
        forwardPoints()
        writePointsToNotify(frames: frames)
        if stereo, let right { for i in 0..<frames { right[i] = left[i] } }
        reportProblems()
        scheduler.finishBlock(pushedBefore: pushedBefore)
    }

    /// An answer of the worker (work_response, or the own thread's queue): its kind, then its bytes.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func takeResponse(_ message: UnsafeRawBufferPointer) -> LV2_Worker_Status {
        guard let (kind, payload) = KindedMessage.read(message) else { return LV2_WORKER_ERR_UNKNOWN }
        switch ResponseKind(rawValue: kind) {
        case .engine: engine.workResponse(payload)
        case .fileAccepted: file.accepted(payload)
        case nil: return LV2_WORKER_ERR_UNKNOWN
        }
        return LV2_WORKER_SUCCESS
    }

    /// Before run() (activate, off the audio thread): the ports the host moved from their
    /// defaults are taken at once (``ControlInputs/activate(_:)``).
    mutating func activate() { controls.activate(&engine) }

    /// The notify port holds an empty sequence unless the engine writes replies.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func clearNotify() {
        notifyCapacity = 0
        guard let notify else { return }
        // The host sets the atom's size to the room it has after the header.
        let capacity = Int(notify.loadUnaligned(as: UInt32.self))
        guard capacity >= MemoryLayout<LV2_Atom_Sequence_Body>.size else { return }
        notifyCapacity = 8 + capacity
        notify.storeBytes(of: UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size), as: UInt32.self)
        notify.storeBytes(of: urids.atomSequence, toByteOffset: 4, as: UInt32.self)
        notify.storeBytes(of: UInt32(0), toByteOffset: 8, as: UInt32.self)
        notify.storeBytes(of: UInt32(0), toByteOffset: 12, as: UInt32.self)
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func handle(_ event: AtomEvent) {
        if event.type == urids.midiEvent {
            handleMIDI(event)
        } else if event.type == urids.atomObject || event.type == urids.atomBlank {
            handleObject(event)
        } else {
            problems.note(.unknownEventType)
        }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func handleMIDI(_ event: AtomEvent) {
        if engine.takeMIDI(frame: event.frame, bytes: event.body) == .malformed { problems.note(.midiWrongLength) }
    }

    /// patch:Set of urn:toneshaper:file (or a tuning file) with an atom:Path: the worker loads the file.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func handleObject(_ event: AtomEvent) {
        guard let object = AtomObject(event.body) else {
            problems.note(.unknownObject)
            return
        }
        // The host's transport (time:Position, sent when it changes): followed as the node
        // follows JACK transport, when the transport setting is on.
        if object.otype == urids.timePosition {
            handlePosition(object)
            return
        }
        // patch:Get: the file playing, if any, goes out on the notify port. Other objects a
        // host sends (patch:Put, say) are not for this plugin: ignored, not refused.
        if object.otype == urids.patchGet {
            file.requestAnnouncement()
            points.request()
            return
        }
        guard object.otype == urids.patchSet else { return }
        guard let property = object.property(urids.patchProperty), property.type == urids.atomURID, property.body.count >= 4,
            let propertyBase = property.body.baseAddress
        else {
            problems.note(.patchSetWithoutProperty)
            return
        }
        if propertyBase.loadUnaligned(as: UInt32.self) == urids.points, let value = object.property(urids.patchValue) {
            receivePoints(value)
            return
        }
        let key = propertyBase.loadUnaligned(as: UInt32.self)
        let load: WorkKind? =
            key == urids.file ? .loadFile : key == urids.scaleFile ? .loadScale : key == urids.keyboardMapFile ? .loadKeyboardMap : nil
        guard let kind = load ?? (key == urids.snapshot ? .snapshot : nil) else {
            problems.note(.patchSetUnknownProperty)
            return
        }
        guard let value = object.property(urids.patchValue) else {
            problems.note(.patchSetWithoutValue)
            return
        }
        guard value.type == urids.atomPath else {
            problems.note(.patchSetValueNotAPath)
            return
        }
        guard PlayingFile.isPath(value.body) else {
            problems.note(.pathTooLong)
            return
        }
        if !scheduler.schedule(kind, value.body) { problems.note(.workQueueFull) }
    }

    /// A time:Position: speed (0 stopped, 1 rolling), frame, and bar, beat and tempo when
    /// the host has them. A property missing or of another type keeps what was known.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func handlePosition(_ object: AtomObject) {
        let speed = object.number(urids.timeSpeed, urids)
        let frame = object.number(urids.timeFrame, urids)
        let bar = object.number(urids.timeBar, urids)
        let barBeat = object.number(urids.timeBarBeat, urids)
        let beatsPerBar = object.number(urids.timeBeatsPerBar, urids)
        let tempo = object.number(urids.timeBeatsPerMinute, urids)
        // Within the tempi a host can mean (time:beatsPerMinute is a Float); a value outside
        // them keeps the tempo known.
        if let tempo, tempo >= 1, tempo <= 100_000 { framesPerBeat = engine.sampleRate * 60 / tempo }
        engine.setPosition(speed: speed, frame: frame, bar: bar, barBeat: barBeat, beatsPerBar: beatsPerBar, beatsPerMinute: tempo)
    }

    /// A patch:Set of urn:toneshaper:file with the file playing, at frame 0 of the notify
    /// port's sequence (when it has room; else at the next run()).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func writeFileToNotify() {
        var file = self.file  // (a copy of its pointer: the closure writes to self)
        file.announce { path, length in
            guard let body = appendPatchSet(property: urids.file, valueType: urids.atomPath, valueSize: length) else { return false }
            body.copyMemory(from: path, byteCount: length)
            return true
        }
        self.file = file
    }

    /// Appends a patch:Set of `property` at frame 0 of the notify port's sequence, its value
    /// an atom of `valueType` and `valueSize` bytes (the padding after it zeroed), and returns
    /// where the value's body goes, for the caller to fill before run() returns; nil when the
    /// port has no room this run. The one writer of the notify port's messages.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func appendPatchSet(property key: LV2_URID, valueType: LV2_URID, valueSize: Int) -> UnsafeMutableRawPointer? {
        guard let notify else { return nil }
        let objectSize = PatchSetAtom.bodySize(valueSize: valueSize)
        let eventSize = 16 + objectSize  // frames, size, type
        let sequenceSize = Int(notify.loadUnaligned(as: UInt32.self))  // what clearNotify wrote, and any event since
        guard sequenceSize >= 8, 8 + sequenceSize + eventSize <= notifyCapacity else { return nil }
        let event = notify + 8 + sequenceSize
        event.storeBytes(of: Int64(0), as: Int64.self)
        event.storeBytes(of: UInt32(objectSize), toByteOffset: 8, as: UInt32.self)
        event.storeBytes(of: urids.atomObject, toByteOffset: 12, as: UInt32.self)
        notify.storeBytes(of: UInt32(sequenceSize + eventSize), as: UInt32.self)
        return PatchSetAtom.write(at: event + 16, property: key, valueType: valueType, valueSize: valueSize, urids)
    }

    /// At most one message a run: the counts, for the worker to log. (Mutating, as every
    /// method run() calls is: a non-mutating call from run() made the compiler copy the
    /// whole instance, some 500 bytes, onto the stack at every run.)
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func reportProblems() {
        guard problems.any() else { return }  // nearly every block: no copy of the scheduler for the closure
        let scheduler = self.scheduler
        problems.handOff { scheduler.schedule(.problems, $0) }
    }
}
