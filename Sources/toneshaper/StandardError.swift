#if canImport(Glibc)
    import Glibc
#endif

/// Messages for the person at the terminal: errors, warnings, progress. Written straight
/// to file descriptor 2, unbuffered, so they interleave correctly with stdout and never
/// touch C's `stderr` global (which Swift 6 treats as shared mutable state).
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    static func line(_ text: String) { write(text + "\n") }
}
