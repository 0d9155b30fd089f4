import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A finished render copied to standard output (`render -o -`), then removed.
enum StandardOutputCopy {
    /// A fresh name in $TMPDIR (else /tmp) for the render to be made under.
    static func temporaryPath(extension ext: String) -> String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory + "/toneshaper-render-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(ext)"
    }

    /// Writes the file to descriptor 1 and removes it, also when the reader goes away
    /// (a closed pipe ends the copy with an error, as for sox) or a signal arrives.
    static func copy(_ path: String) throws {
        InterruptCleanup.remove(onInterrupt: path)
        defer {
            unlink(path)
            InterruptCleanup.clear()
        }
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw CommandFailure(.cannotWrite, "cannot read back the render \(path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        // A reader that stops early must make write fail with EPIPE, not kill the
        // process before the temporary file is removed.
        signal(SIGPIPE, SIG_IGN)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if n < 0 { throw CommandFailure(.cannotWrite, "cannot read back the render: \(String(cString: strerror(errno)))") }
                return
            }
            var offset = 0
            while offset < n {
                let written = buffer.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, n - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    throw CommandFailure(.cannotWrite, "writing to standard output failed: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}
