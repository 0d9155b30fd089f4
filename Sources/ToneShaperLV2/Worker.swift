import CLV2
import CPluginSupport
import ToneShaperPlugin

/// The kinds of message the plugin gives the host's worker (the first 4 bytes).
enum WorkKind: UInt32 {
    /// The problems run() counted (a UInt32 count per `LV2Problem` after the kind).
    case problems = 1
    /// Load a document file (its path, NUL-terminated, after the kind).
    case loadFile = 2
    /// The engine's own request (its bytes after the kind): `PluginEngine.work`.
    case engine = 3
    /// The editor's points wait in the inbox (Points.swift); no payload.
    case points = 4
    /// The editor asked for the curve (patch:Get); no payload.
    case sendPoints = 5
    /// Load a tuning's scale or keyboard map file (its path, NUL-terminated, after the kind).
    case loadScale = 6
    case loadKeyboardMap = 7
    /// Write the document as the window's snapshot (its name, NUL-terminated, after the kind).
    case snapshot = 8
}

/// run()'s messages of a kind and a payload (``KindedWork``, `Plugin.maximumWorkMessage`
/// bytes at most): to the host's worker:schedule, or without one to the core's own
/// ``WorkThread``, which runs the same work() and hands its answers to run() (``Worker/ownThreadBody``).
typealias WorkScheduler = KindedWork<HostSchedule, WorkKind>

/// worker:schedule, as run() uses it: the host copies the message.
struct HostSchedule: HostWorker {
    let feature: UnsafePointer<LV2_Worker_Schedule>

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func schedule(_ message: UnsafeRawBufferPointer) -> Bool {
        var status = LV2_WORKER_SUCCESS
        // The host's schedule_work is for the audio thread by the worker spec.
        _unsafePerformance { status = feature.pointee.schedule_work(feature.pointee.handle, UInt32(message.count), message.baseAddress) }
        return status == LV2_WORKER_SUCCESS
    }
}

/// The kinds of answer the worker gives run() (the first 4 bytes).
enum ResponseKind: UInt32 {
    /// The engine's own answer (its bytes after the kind): `PluginEngine.workResponse`.
    case engine = 1
    /// The engine took a document file: its path (NUL-terminated) after the kind, for the
    /// notify port's patch:Set.
    case fileAccepted = 2
}

/// The worker's respond function: an answer of a kind, assembled in the worker's own
/// buffer (`Plugin.maximumWorkMessage` bytes, allocated in instantiate; one work() at a time).
struct WorkResponder {
    let respond: LV2_Worker_Respond_Function
    let handle: LV2_Worker_Respond_Handle?
    let scratch: UnsafeMutableRawPointer

    /// The engine's answer, for `PluginEngine.workResponse` on the audio thread; false when
    /// it is larger than `Plugin.maximumWorkMessage - 4` bytes (send a pointer) or refused.
    func respond(_ bytes: UnsafeRawBufferPointer) -> Bool { respond(.engine, bytes) }

    func respond(_ kind: ResponseKind, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let size = KindedMessage.write(kind.rawValue, bytes, into: scratch, capacity: Plugin.maximumWorkMessage) else { return false }
        return respond(handle, UInt32(size), scratch) == LV2_WORKER_SUCCESS
    }
}

/// The worker interface (work:interface), handed out by extension_data.
enum Worker {
    static let work:
        @convention(c) (
            LV2_Handle?, LV2_Worker_Respond_Function?, LV2_Worker_Respond_Handle?, UInt32, UnsafeRawPointer?
        ) -> LV2_Worker_Status = { instance, respond, respondHandle, size, data in
            guard let instance, let respond, let data, size >= 4 else { return LV2_WORKER_ERR_UNKNOWN }
            let plugin = instance.assumingMemoryBound(to: Plugin.self)
            return perform(UnsafeRawBufferPointer(start: data, count: Int(size)), plugin: plugin, respond: respond, handle: respondHandle)
        }

    /// One message's work (its kind, then its payload), answered through `respond`.
    static func perform(
        _ message: UnsafeRawBufferPointer, plugin: UnsafeMutablePointer<Plugin>, respond: LV2_Worker_Respond_Function,
        handle respondHandle: LV2_Worker_Respond_Handle?
    ) -> LV2_Worker_Status {
        guard let (kind, payload) = KindedMessage.read(message) else { return LV2_WORKER_ERR_UNKNOWN }
        let responder = WorkResponder(respond: respond, handle: respondHandle, scratch: plugin.pointee.responseScratch)
        switch WorkKind(rawValue: kind) {
        case .problems:  // a line per kind (a kind logged less than a second ago waits: HeldProblems)
            plugin.pointee.heldProblems.take(payload, now: toneshaper_plugin_monotonic_seconds(), host: plugin.pointee.engine.host)
        case .loadFile:  // then, after the engine's own answers, the notify port says which file plays
            if PlayingFile.load(payload, into: plugin.pointee.engine, answer: responder) { _ = responder.respond(.fileAccepted, payload) }
            sendPoints(plugin: plugin, always: false)
        case .engine:
            plugin.pointee.engine.work(payload, answer: responder)
            if InstrumentRequest.changesCurve(payload) { sendPoints(plugin: plugin, always: false) }
        case .points:
            takePoints(plugin: plugin, responder: responder)
        case .sendPoints:
            sendPoints(plugin: plugin, always: true)
        case .loadScale, .loadKeyboardMap:
            if plugin.pointee.engine.loadTuning(kind == WorkKind.loadScale.rawValue ? .scale : .keyboardMap, path: payload, answer: responder) {
                plugin.pointee.engine.sendTuning(to: plugin.pointee.points)
            }
        case .snapshot: _ = DocumentSnapshot.write(payload, of: plugin.pointee.engine)  // (logged when refused)
        case nil:
            plugin.pointee.log.write(.error, "the worker was given a message of an unknown kind; ignored")
            return LV2_WORKER_ERR_UNKNOWN
        }
        return LV2_WORKER_SUCCESS
    }

    static let workResponse: @convention(c) (LV2_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = { instance, size, body in
        guard let instance else { return LV2_WORKER_ERR_UNKNOWN }
        let plugin = instance.assumingMemoryBound(to: Plugin.self)
        return plugin.pointee.takeResponse(UnsafeRawBufferPointer(start: body, count: Int(size)))
    }

    /// The body of the plugin's own work thread (a host without a worker): each message
    /// worked as the host's worker would, the answers queued for run().
    static let ownThreadBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let plugin = context?.assumingMemoryBound(to: Plugin.self), let own = plugin.pointee.scheduler.ownThread else { return nil }
        own.serve { _, message in _ = perform(message, plugin: plugin, respond: ownRespond, handle: context) }
        return nil
    }

    /// The own thread's respond function: the answer (copied) on the queue run() drains.
    static let ownRespond: @convention(c) (LV2_Worker_Respond_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = { handle, size, data in
        guard let plugin = handle?.assumingMemoryBound(to: Plugin.self) else { return LV2_WORKER_ERR_UNKNOWN }
        return plugin.pointee.scheduler.answer(UnsafeRawBufferPointer(start: data, count: Int(size))) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
    }

    static let endRun: @convention(c) (LV2_Handle?) -> LV2_Worker_Status = { instance in
        guard let instance else { return LV2_WORKER_ERR_UNKNOWN }
        instance.assumingMemoryBound(to: Plugin.self).pointee.engine.endRun()
        return LV2_WORKER_SUCCESS
    }
}
