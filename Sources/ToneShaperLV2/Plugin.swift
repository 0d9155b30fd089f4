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
    /// The longest document path a patch:Set may carry, with its NUL.
    static var maximumPath: Int { 4096 }
    /// A worker message: a kind and at most a path.
    static var maximumWorkMessage: Int { 4 + maximumPath }

    let stereo: Bool
    let urids: LV2URIDs
    let log: Log
    let scheduler: WorkScheduler
    var engine: PluginEngine<LV2Services>
    /// For each port index (LV2PortLayout): the table's row of a control port, else -1.
    let portRows: UnsafeMutablePointer<Int32>
    let portCount: Int
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
    /// The document file playing (NUL-terminated, `maximumPath` bytes), its length with the
    /// NUL (0: none), and whether the next run() reports it on the notify port.
    let filePath: UnsafeMutableRawPointer
    var filePathLength = 0
    var announceFile = false
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
            logWithoutHost("the host offers no urid:map, which the plugin requires; not instantiated")
            return nil
        }
        let urids = LV2URIDs(map: map)
        let log = Log(feature: logFeature, error: urids.logError, warning: urids.logWarning, note: urids.logNote)
        guard sampleRate > 0, sampleRate.isFinite else {
            log.write(.error, "the sample rate is not a positive number; not instantiated")
            return nil
        }
        // Without the host's worker, a thread of the plugin's own does the work.
        let ownThread = schedule == nil ? WorkThread(slots: 64) : nil

        let optionList = LV2OptionList(options)
        let maximumBlock = optionList.positiveInt(urids.maxBlockLength, urids) ?? PluginLimits.defaultMaximumBlock
        let sequenceCapacity = optionList.positiveInt(urids.sequenceSize, urids) ?? AtomSequenceReader.defaultCapacity

        let scratch = UnsafeMutableRawPointer.allocate(byteCount: maximumWorkMessage, alignment: 8)
        let scheduler = WorkScheduler(feature: schedule, ownThread: ownThread, scratch: scratch, capacity: maximumWorkMessage)
        let layout = LV2PortLayout.ports(stereo: stereo)
        let portRows = UnsafeMutablePointer<Int32>.allocate(capacity: layout.count)
        var audio: [UInt32] = []
        for (index, port) in layout.enumerated() {
            switch port {
            case .parameter(let row): (portRows + index).initialize(to: Int32(row))
            case .audio:
                (portRows + index).initialize(to: -1)
                audio.append(UInt32(index))
            case .control, .notify: (portRows + index).initialize(to: -1)
            }
        }
        let services = LV2Services(scheduler: scheduler, logger: log, shapes: LV2Services.shapesFolder(bundle: bundle))
        let plugin = UnsafeMutablePointer<Plugin>.allocate(capacity: 1)
        plugin.initialize(
            to: Plugin(
                stereo: stereo, urids: urids, log: log, scheduler: scheduler,
                engine: PluginEngine(sampleRate: sampleRate, maximumBlock: maximumBlock, host: services),
                portRows: portRows, portCount: layout.count, leftPort: audio[0], rightPort: audio.count > 1 ? audio[1] : UInt32.max,
                problems: Problems<LV2Problem>(), heldProblems: HeldProblems(), sequenceCapacity: sequenceCapacity,
                control: nil, notify: nil, left: nil, right: nil, controls: ControlInputs(),
                responseScratch: .allocate(byteCount: maximumWorkMessage, alignment: 8),
                filePath: .allocate(byteCount: maximumPath, alignment: 8)))
        plugin.pointee.inline.connect(list)
        if let ownThread, !ownThread.start(Worker.ownThreadBody, context: UnsafeMutableRawPointer(plugin)) {
            log.write(
                .error,
                "the host offers no worker:schedule and the plugin's own work thread could not be started: changes that need a new plan are not heard"
            )
        }
        return plugin
    }

    /// cleanup: frees everything make allocated.
    static func destroy(_ plugin: UnsafeMutablePointer<Plugin>) {
        if let own = plugin.pointee.scheduler.ownThread {
            own.stop()
            own.free()
        }
        // What the worker held back (a repeated problem) is logged now rather than lost.
        plugin.pointee.heldProblems.flush(host: plugin.pointee.engine.host)
        plugin.pointee.engine.host.shapes.deallocate()
        plugin.pointee.engine.free()
        plugin.pointee.portRows.deallocate()
        plugin.pointee.problems.free()
        plugin.pointee.heldProblems.free()
        plugin.pointee.scheduler.scratch.deallocate()
        plugin.pointee.controls.free()
        plugin.pointee.responseScratch.deallocate()
        plugin.pointee.filePath.deallocate()
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
        default:
            guard Int(port) < portCount, portRows[Int(port)] >= 0 else { return }
            controls.connect(row: Int(portRows[Int(port)]), to: data.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) })
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
        let own = scheduler.ownThread
        if let own, !own.answers.isEmpty { while own.answers.pop({ _, message in _ = takeResponse(message) }) {} }
        let pushedBefore = own?.pushedCount() ?? 0
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
            if reader.placedWithoutTempo && !reportedBeatsWithoutTempo {
                problems.note(.beatsWithoutTempo)
                reportedBeatsWithoutTempo = true
            }
        }
        engine.render(into: left, frames: frames)
        if announceFile { writeFileToNotify() }
        forwardPoints()
        writePointsToNotify(frames: frames)
        if stereo, let right { for i in 0..<frames { right[i] = left[i] } }
        reportProblems()
        own?.finishBlock(pushedBefore: pushedBefore, offline: false)
    }

    /// An answer of the worker (work_response, or the own thread's queue): its kind, then its bytes.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func takeResponse(_ message: UnsafeRawBufferPointer) -> LV2_Worker_Status {
        guard let (kind, payload) = KindedMessage.read(message) else { return LV2_WORKER_ERR_UNKNOWN }
        switch ResponseKind(rawValue: kind) {
        case .engine: engine.workResponse(payload)
        case .fileAccepted: fileAccepted(payload)
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
            announceFile = filePathLength > 0
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
        guard let kind = load else {
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
        let path = value.body
        guard path.count >= 2, path.count <= Plugin.maximumPath, path[path.count - 1] == 0, path[0] != 0 else {
            problems.note(.pathTooLong)
            return
        }
        if !scheduler.schedule(kind, path) { problems.note(.workQueueFull) }
    }

    /// A time:Position: speed (0 stopped, 1 rolling), frame, and bar, beat and tempo when
    /// the host has them. A property missing or of another type keeps what was known.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func handlePosition(_ object: AtomObject) {
        let speed = number(object, urids.timeSpeed)
        let frame = number(object, urids.timeFrame)
        let bar = number(object, urids.timeBar)
        let barBeat = number(object, urids.timeBarBeat)
        let beatsPerBar = number(object, urids.timeBeatsPerBar)
        let tempo = number(object, urids.timeBeatsPerMinute)
        // Within the tempi a host can mean (time:beatsPerMinute is a Float); a value outside
        // them keeps the tempo known.
        if let tempo, tempo >= 1, tempo <= 100_000 { framesPerBeat = engine.sampleRate * 60 / tempo }
        engine.setPosition(speed: speed, frame: frame, bar: bar, barBeat: barBeat, beatsPerBar: beatsPerBar, beatsPerMinute: tempo)
    }

    /// A numeric property of an object (atom:Float, Double, Int or Long), if finite.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func number(_ object: AtomObject, _ key: LV2_URID) -> Double? {
        guard let property = object.property(key), let base = property.body.baseAddress else { return nil }
        let value: Double
        switch (property.type, property.body.count) {
        case (urids.atomFloat, 4...): value = Double(base.loadUnaligned(as: Float.self))
        case (urids.atomDouble, 8...): value = base.loadUnaligned(as: Double.self)
        case (urids.atomInt, 4...): value = Double(base.loadUnaligned(as: Int32.self))
        case (urids.atomLong, 8...): value = Double(base.loadUnaligned(as: Int64.self))
        default: return nil
        }
        return value.isFinite ? value : nil
    }

    /// On the audio thread (work_response): the engine took the file at `path`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func fileAccepted(_ path: UnsafeRawBufferPointer) {
        guard let source = path.baseAddress, path.count >= 2, path.count <= Plugin.maximumPath, path[path.count - 1] == 0 else { return }
        filePath.copyMemory(from: source, byteCount: path.count)
        filePathLength = path.count
        announceFile = true
    }

    /// A patch:Set of urn:toneshaper:file with the file playing, at frame 0 of the notify
    /// port's sequence (when it has room; else at the next run()).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func writeFileToNotify() {
        guard filePathLength > 0,
            let body = appendPatchSet(property: urids.file, valueType: urids.atomPath, valueSize: filePathLength)
        else { return }
        body.copyMemory(from: filePath, byteCount: filePathLength)
        announceFile = false
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
        let padded = (valueSize + 7) & ~7
        let objectSize = 8 + (16 + 8) + (16 + padded)  // id, otype; patch:property; patch:value
        let eventSize = 16 + objectSize  // frames, size, type
        let sequenceSize = Int(notify.loadUnaligned(as: UInt32.self))  // what clearNotify wrote, and any event since
        guard sequenceSize >= 8, 8 + sequenceSize + eventSize <= notifyCapacity else { return nil }
        let event = notify + 8 + sequenceSize
        event.storeBytes(of: Int64(0), as: Int64.self)
        event.storeBytes(of: UInt32(objectSize), toByteOffset: 8, as: UInt32.self)
        event.storeBytes(of: urids.atomObject, toByteOffset: 12, as: UInt32.self)
        let object = event + 16
        object.storeBytes(of: UInt32(0), as: UInt32.self)
        object.storeBytes(of: urids.patchSet, toByteOffset: 4, as: UInt32.self)
        let property = object + 8
        property.storeBytes(of: urids.patchProperty, as: UInt32.self)
        property.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        property.storeBytes(of: UInt32(4), toByteOffset: 8, as: UInt32.self)
        property.storeBytes(of: urids.atomURID, toByteOffset: 12, as: UInt32.self)
        property.storeBytes(of: key, toByteOffset: 16, as: UInt32.self)
        property.storeBytes(of: UInt32(0), toByteOffset: 20, as: UInt32.self)
        let value = property + 24
        value.storeBytes(of: urids.patchValue, as: UInt32.self)
        value.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        value.storeBytes(of: UInt32(valueSize), toByteOffset: 8, as: UInt32.self)
        value.storeBytes(of: valueType, toByteOffset: 12, as: UInt32.self)
        (value + 16 + valueSize).initializeMemory(as: UInt8.self, repeating: 0, count: padded - valueSize)
        notify.storeBytes(of: UInt32(sequenceSize + eventSize), as: UInt32.self)
        return value + 16
    }

    /// At most one message a run: the counts, for the worker to log. (Mutating, as every
    /// method run() calls is: a non-mutating call from run() made the compiler copy the
    /// whole instance, some 500 bytes, onto the stack at every run.)
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func reportProblems() {
        let scheduler = self.scheduler
        problems.handOff { scheduler.schedule(.problems, $0) }
    }
}
