#if canImport(Glibc)
    import Glibc
#endif

/// A Scala file (`.scl` or `.kbm`) a sender names by its path, read whole off the audio
/// thread. Only a regular file with the kind's extension, at most ``maximumSize`` bytes,
/// is read: an OSC or WebSocket sender may make the node read a tuning file, not any file
/// (a device, `/etc/passwd`), and what it reads is only ever parsed as a tuning.
public enum TuningFile {
    /// Larger than any real scale (Scala's archive's largest is some 60 kB).
    public static let maximumSize = 1 << 20

    /// Whether `argument` names a file rather than carrying one: a Scala file has at least
    /// two lines (a description and a count), a path has none.
    public static func isPath(_ argument: String) -> Bool {
        !argument.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }

    /// The text of the file at `path`, whose name must end in `fileExtension` (".scl",
    /// ".kbm", any case); the refusal is a sentence naming the path.
    public static func read(_ path: String, fileExtension: String) throws(TuningFileRefusal) -> String {
        func fail(_ reason: String) -> TuningFileRefusal { TuningFileRefusal(description: "the file \"\(path)\" " + reason) }
        guard !path.isEmpty, !path.contains("\0") else {
            throw TuningFileRefusal(description: "expects the path of a \(fileExtension) file or the file's text, got an empty name")
        }
        guard path.lowercased().hasSuffix(fileExtension), path.count > fileExtension.count else {
            throw fail("is not a \(fileExtension) file (its name must end in \(fileExtension)); send its path or its text")
        }
        #if canImport(Glibc)
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else {
                throw fail(errno == ENOENT ? "does not exist (a path is read by the node, on its machine)" : "cannot be opened (not readable)")
            }
            defer { close(fd) }
            var status = stat()
            guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { throw fail("is not a regular file") }
            guard Int(status.st_size) <= maximumSize else { throw fail("is \(status.st_size) bytes, more than a tuning file's \(maximumSize)") }
            // One byte more than the size, to notice a file that grew while being read.
            var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
            var total = 0
            while total < bytes.count {
                let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw fail("could not be read") }
                if n == 0 { break }
                total += n
            }
            guard total <= maximumSize else { throw fail("grew past \(maximumSize) bytes while being read") }
            return String(decoding: bytes[0..<total], as: UTF8.self)
        #else
            throw fail("cannot be read on this system")
        #endif
    }
}

/// Why ``TuningFile/read(_:fileExtension:)`` read nothing.
public struct TuningFileRefusal: Error, CustomStringConvertible, Sendable {
    public let description: String
}
