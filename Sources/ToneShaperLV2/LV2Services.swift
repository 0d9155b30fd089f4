import CLV2
import ToneShaperPlugin

/// The plugin core's host services (``PluginHost``) over LV2: worker:schedule for work,
/// log:log for the log, and the bundle's `shapes` folder for the built-in documents (the
/// node's Sessions, copied there by Scripts/build-lv2.sh).
struct LV2Services: PluginHost {
    let scheduler: WorkScheduler
    let logger: Log
    /// The folder of built-in documents, NUL-terminated (allocated in instantiate).
    let shapes: UnsafeMutablePointer<CChar>

    /// The bundle's `shapes` folder, from the bundle path instantiate is given (nil: none).
    static func shapesFolder(bundle: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar> {
        var path = Array("shapes".utf8)
        if let bundle {
            let prefix = UnsafeBufferPointer(start: bundle, count: Int(strlen(bundle))).map { UInt8(bitPattern: $0) }
            path = prefix + (prefix.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + path
        }
        let folder = UnsafeMutablePointer<CChar>.allocate(capacity: path.count + 1)
        for (i, byte) in path.enumerated() { folder[i] = CChar(bitPattern: byte) }
        folder[path.count] = 0
        return folder
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func scheduleWork(_ request: UnsafeRawBufferPointer) -> Bool { scheduler.schedule(.engine, request) }

    func log(_ level: PluginLogLevel, _ message: String) { logger.write(level, message) }

    func builtInDocument(_ index: Int) -> [UInt8]? {
        let capacity = 4096
        let path = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { path.deallocate() }
        guard index >= 0, index < Int(Int32.max), toneshaper_lv2_nth_document(shapes, Int32(index), path, capacity) != 0 else { return nil }
        do throws(DocumentFile.Refusal) {
            return try DocumentFile.read(path)
        } catch {
            logger.write(.error, "a built-in document in the bundle " + error.reason + "; the program change is ignored")
            return nil
        }
    }
}

extension WorkResponder: PluginAnswer {}
