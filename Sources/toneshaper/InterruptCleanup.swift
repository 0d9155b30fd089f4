#if canImport(Glibc)
    import Glibc
#endif

/// Removes a half-written temporary file when the process is interrupted (Ctrl-C, kill),
/// which would otherwise skip every `defer` and leave it behind. The handler only calls
/// unlink and _exit, both async-signal-safe; the path is a C string prepared beforehand.
enum InterruptCleanup {
    nonisolated(unsafe) private static var pending: UnsafeMutablePointer<CChar>?

    /// Removes `path` if SIGINT, SIGTERM or SIGHUP arrives before `clear()`.
    static func remove(onInterrupt path: String) {
        let old = pending
        pending = strdup(path)
        free(old)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { sig in
                if let path = InterruptCleanup.pending { unlink(path) }
                _exit(128 + sig)
            }
        }
    }

    static func clear() {
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
        free(pending)
        pending = nil
    }
}
