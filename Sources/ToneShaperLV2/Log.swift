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
        toneshaper_lv2_log(feature, type(level), message)
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
        message.withCString { write(level, $0) }
    }
}
