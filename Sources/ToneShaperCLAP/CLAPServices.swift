import CCLAP
import ToneShaperPlugin

/// The plugin core's host services (``PluginHost``) over CLAP, which has no worker: requests
/// go to the core's ``WorkThread``; its log is the host's clap.log (standard error without
/// one); the built-in documents are compiled into the plugin.
struct CLAPServices: ThreadedPluginHost {
    let host: UnsafePointer<toneshaper_clap_host>
    let hostLog: UnsafePointer<toneshaper_clap_host_log>?
    let work: WorkThread

    func log(_ level: PluginLogLevel, _ message: String) {
        let severity: Int32
        switch level {
        case .error: severity = Int32(TONESHAPER_CLAP_LOG_ERROR)
        case .warning: severity = Int32(TONESHAPER_CLAP_LOG_WARNING)
        case .note: severity = Int32(TONESHAPER_CLAP_LOG_INFO)
        }
        ("toneshaper.clap: " + message).withCString { toneshaper_clap_log(host, hostLog, severity, $0) }
    }

    func builtInDocument(_ index: Int) -> [UInt8]? {
        guard index >= 0, index < Int(toneshaper_clap_builtin_count()) else { return nil }
        var size = 0
        var name: UnsafePointer<CChar>?
        guard let bytes = toneshaper_clap_builtin(Int32(index), &size, &name) else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}
