#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM for the live node, taken synchronously with `sigwait` on the main
/// thread instead of in a signal handler: closing a JACK client is far from
/// async-signal-safe, and no Swift closure should run inside a handler.
enum TerminationSignals {
    private static func set() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Blocks both signals in the calling thread and in every thread it starts later.
    static func block() {
        var signals = set()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits at most `seconds` for one of them: its number, or nil when none came.
    static func wait(seconds: Double) -> Int32? {
        var signals = set()
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        while true {
            let received = sigtimedwait(&signals, nil, &timeout)
            if received > 0 { return received }
            if errno != EINTR { return nil }
        }
    }

    /// Waits for one of them and returns its number.
    static func wait() -> Int32 {
        var signals = set()
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }
}
