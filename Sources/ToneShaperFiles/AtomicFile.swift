#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A problem with the file system, worded for the person who chose the path.
struct FileProblem: Error, CustomStringConvertible {
    var path: String
    var message: String
    var description: String { "\(path): \(message)" }
}

/// A file written under a temporary name in its target's directory and renamed over the
/// target only when complete, so that nobody ever sees a half-written file under the name
/// they asked for: a crash, a full disk or a refusal leaves the old file (or nothing).
///
/// The temporary lives in the same directory because rename(2) is atomic only within one
/// file system. Call `commit()` when everything is written; until then, `discard()` (or
/// deinit) removes the temporary.
///
/// A target that is a symbolic link is written through: the link stays and its target
/// gets the new content (as `cp` and sox do). An existing file keeps its permission bits
/// (and, where the process may, its owner); a new one gets 0666 less the umask.
final class AtomicFile {
    /// The path as given, for messages.
    let targetPath: String
    /// Where the file really goes: `targetPath` with symbolic links followed.
    let resolvedPath: String
    let temporaryPath: String
    /// Open for writing until `commit()` or `discard()`.
    private(set) var descriptor: Int32
    private var finished = false

    init(targetPath: String) throws(FileProblem) {
        let resolved = try AtomicFile.followLinks(targetPath)
        let (directory, file) = AtomicFile.split(resolved)
        guard !file.isEmpty, file != ".", file != ".." else {
            throw FileProblem(path: targetPath, message: "is not a file name; give a path that ends in one, such as out/siren.wav")
        }
        try AtomicFile.checkDirectory(directory, for: targetPath)
        var st = stat()
        let exists = stat(resolved, &st) == 0
        if exists, (st.st_mode & S_IFMT) == S_IFDIR {
            throw FileProblem(
                path: targetPath, message: "is a directory; give a file name inside it, such as \(targetPath)/\(AtomicFile.exampleName(targetPath))")
        }
        // Unique per process and per call; O_EXCL refuses to follow a planted symlink.
        let temporary = AtomicFile.join(directory, ".\(file).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw FileProblem(path: targetPath, message: AtomicFile.explainCreateFailure(errno, directory: directory))
        }
        if exists && (st.st_mode & S_IFMT) == S_IFREG {
            // The replacement is the same file to its users: same permissions, same owner
            // (chown succeeds only for root or an owner already equal; failing is harmless).
            _ = fchown(fd, st.st_uid, st.st_gid)
            _ = fchmod(fd, st.st_mode & 0o7777)
        }
        self.targetPath = targetPath
        resolvedPath = resolved
        temporaryPath = temporary
        descriptor = fd
    }

    /// `path` with every symbolic link along the final component followed (a dangling
    /// link resolves to the file it names, which is then created).
    static func followLinks(_ path: String) throws(FileProblem) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n >= 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : join(split(current).directory, link)
        }
        throw FileProblem(path: path, message: "has too many levels of symbolic links")
    }

    deinit { discard() }

    /// Writes all of `bytes` at the end of what is written so far, or at `offset`.
    func writeAll(_ bytes: [UInt8], at offset: Int? = nil) throws(FileProblem) {
        var failure: FileProblem?
        bytes.withUnsafeBytes { raw in
            do throws(FileProblem) { try writeAll(raw, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func writeAll(_ bytes: UnsafeRawBufferPointer, at position: Int? = nil) throws(FileProblem) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n =
                position.map { pwrite(descriptor, base + done, bytes.count - done, off_t($0 + done)) }
                ?? write(descriptor, base + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileProblem(path: targetPath, message: "writing failed: \(AtomicFile.errorText(errno))")
            }
            done += n
        }
    }

    /// Closes and renames the temporary over the target; with `durable` (documents), flushes
    /// the data to disk first and the rename after. On failure the temporary is removed and
    /// the target is untouched. Without `durable` the file is still never seen half-written
    /// while the system runs, but a power cut soon after may lose it.
    func commit(durable: Bool = true) throws(FileProblem) {
        precondition(!finished, "AtomicFile committed twice")
        // fsync before rename: otherwise a power cut can leave the new name on an empty file.
        if durable && fsync(descriptor) != 0 {
            let e = errno
            discard()
            throw FileProblem(path: targetPath, message: "could not flush to disk: \(AtomicFile.errorText(e))")
        }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 {
            let e = errno
            discard()
            throw FileProblem(path: targetPath, message: "could not finish writing: \(AtomicFile.errorText(e))")
        }
        if rename(temporaryPath, resolvedPath) != 0 {
            let e = errno
            discard()
            throw FileProblem(path: targetPath, message: "could not put the file in place: \(AtomicFile.errorText(e))")
        }
        finished = true
        // Make the rename itself durable; failing here loses nothing already visible.
        guard durable else { return }
        let dir = open(AtomicFile.split(resolvedPath).directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// Removes the temporary; the target is left as it was. Safe to call more than once.
    func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(temporaryPath)
    }

    // MARK: Paths and messages

    /// The directory (never empty: "." for a bare name) and the last component.
    static func split(_ path: String) -> (directory: String, file: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func join(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }

    private static func exampleName(_ path: String) -> String {
        path.hasSuffix(".toneshaper") ? "name.toneshaper" : "out.wav"
    }

    /// Checks the directory up front, so the common mistakes get a precise answer.
    static func checkDirectory(_ directory: String, for target: String) throws(FileProblem) {
        var st = stat()
        guard stat(directory, &st) == 0 else {
            if errno == ENOENT {
                throw FileProblem(
                    path: target, message: "the directory \(directory) does not exist; create it first (mkdir -p \(directory)) or choose another path"
                )
            }
            throw FileProblem(path: target, message: "cannot use the directory \(directory): \(errorText(errno))")
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw FileProblem(path: target, message: "\(directory) is not a directory; choose a path inside a directory")
        }
        guard access(directory, W_OK) == 0 else {
            throw FileProblem(
                path: target, message: "the directory \(directory) is not writable (\(errorText(errno))); choose another path or fix its permissions")
        }
    }

    static func explainCreateFailure(_ code: Int32, directory: String) -> String {
        switch code {
        case EACCES, EPERM:
            return "the directory \(directory) is not writable (\(errorText(code))); choose another path or fix its permissions"
        case EROFS:
            return "the directory \(directory) is on a read-only file system; choose another path"
        case ENOSPC, EDQUOT:
            return "no space left in \(directory) (\(errorText(code))); free some space or choose another path"
        default:
            return "cannot create a file in \(directory): \(errorText(code))"
        }
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
