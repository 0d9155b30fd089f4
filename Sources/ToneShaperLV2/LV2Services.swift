import CLV2
import ToneShaperPlugin

/// The plugin core's host services (``PluginHost``) over LV2: worker:schedule for work,
/// log:log for the log, and the bundle's `shapes` folder for the built-in documents (the
/// node's Sessions, copied there by Scripts/build-lv2.sh).
struct LV2Services: PluginHost {
    let scheduler: WorkScheduler
    let logger: Log
    /// The bundle's `shapes` folder, from the bundle path instantiate is given.
    let shapes: BuiltInFolder

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func scheduleWork(_ request: UnsafeRawBufferPointer) -> Bool { scheduler.schedule(.engine, request) }

    func log(_ level: PluginLogLevel, _ message: String) { logger.write(level, message) }

    func builtInDocument(_ index: Int) -> [UInt8]? {
        do throws(DocumentFile.Refusal) {
            return try shapes.document(index)
        } catch {
            logger.write(.error, "a built-in document in the bundle " + error.reason + "; the program change is ignored")
            return nil
        }
    }
}

extension WorkResponder: PluginAnswer {}
