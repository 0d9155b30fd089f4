import CLV2
import ToneShaperPlugin

/// The host's log:log when it offers one, else standard error. Off the audio thread only
/// (instantiate, the worker, state): run() counts its problems (`Problems`) and the worker
/// logs them (`HeldProblems`).
struct Log {
    let feature: UnsafePointer<LV2_Log_Log>?
    let error: LV2_URID
    let warning: LV2_URID
    let note: LV2_URID

    /// Writes `message` as an error, warning or note.
    func write(_ level: Level, _ message: StaticString) {
        write(level, UnsafeRawPointer(message.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    /// Writes a NUL-terminated C string.
    func write(_ level: Level, _ message: UnsafePointer<CChar>) {
        guard let feature else {
            toneshaper_lv2_stderr(message)
            return
        }
        let type: LV2_URID
        switch level {
        case .error: type = error
        case .warning: type = warning
        case .note: type = note
        }
        toneshaper_lv2_log(feature, type, message)
    }

    /// Writes `message` with how many times it happened ("(3 times)" when more than once).
    func write(_ level: Level, _ message: StaticString, count: UInt32) {
        let text = UnsafeRawPointer(message.utf8Start).assumingMemoryBound(to: CChar.self)
        toneshaper_lv2_log_counted(feature, type(level), text, count)
    }

    private func type(_ level: Level) -> LV2_URID {
        switch level {
        case .error: return error
        case .warning: return warning
        case .note: return note
        }
    }

    typealias Level = PluginLogLevel

    /// Writes text made at run time (a document's problem), off the audio thread.
    func write(_ level: Level, _ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { write(level, $0) }
        }
    }
}

/// Before the URIDs are mapped (instantiate refusing a host): standard error only.
func logWithoutHost(_ message: StaticString) {
    toneshaper_lv2_stderr(UnsafeRawPointer(message.utf8Start).assumingMemoryBound(to: CChar.self))
}
