#if canImport(Glibc)
    import Glibc
#endif

/// Reads a small file whole, checking its size first, so that a huge or endless file
/// (a device, a pipe) is refused instead of read into memory.
enum DocumentFile {
    static func readBytes(path: String, limit: Int) throws(LibraryError) -> [UInt8] {
        func fail(_ reason: String) -> LibraryError { .unreadable(path: path, reason: reason) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw fail("no such file; check the path, or give a library name (see `toneshaper presets`)")
            case EACCES: throw fail("permission denied; check the file's permissions")
            default: throw fail("cannot open: \(AtomicFile.errorText(code))")
            }
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw fail("cannot inspect: \(AtomicFile.errorText(errno))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw fail((st.st_mode & S_IFMT) == S_IFDIR ? "is a directory, not a .toneshaper document" : "is not a regular file")
        }
        let size = Int(st.st_size)
        guard size <= limit else {
            throw fail("the file is \(size) bytes, more than the \(limit) a tone-shape document may have; is it really one?")
        }
        // One byte more than the size, to notice a file that grew while being read.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var total = 0
        while total < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("reading failed: \(AtomicFile.errorText(errno))")
            }
            if n == 0 { break }
            total += n
        }
        guard total <= limit else { throw fail("the file grew past \(limit) bytes while being read") }
        return Array(bytes[0..<total])
    }
}
