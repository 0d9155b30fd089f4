import CSndFile

#if canImport(Glibc)
    import Glibc
#endif

/// Writes float frames to an audio file through libsndfile, atomically: the frames go to
/// a temporary beside the target, which replaces the target only in `finish()`. If the
/// writer is discarded or dropped before that, the temporary is removed and nothing ever
/// appears under the requested name.
///
/// Samples are floats in [-1, 1]; PCM formats clip rather than wrap outside it.
public final class AudioFileWriter {
    public let path: String
    public let format: AudioFileFormat
    public let sampleRate: Int
    public let channels: Int
    public private(set) var framesWritten: Int64 = 0

    private var file: AtomicFile?
    private var handle: OpaquePointer?
    /// 32-bit float WAV on a little-endian machine: the file's samples are the bytes of our
    /// Floats, so they go out as they are, without libsndfile's conversion loop and its
    /// copy into a buffer of its own (a 10-minute render spends a third less time this
    /// way), after a header of our own (`FloatWaveHeader`: the one sox reads without a
    /// warning). libsndfile is not involved in these files at all.
    private let writesRaw: Bool
    /// Frames written since the disk was last asked to catch up (see `write`).
    private var framesSinceWriteback: Int64 = 0

    /// With `durable`, `finish()` returns only once the file is on disk (fsync), and the disk
    /// is kept busy while the file grows so that little is left to wait for then.
    public let durable: Bool

    /// Opens the temporary file. Throws for a format this libsndfile cannot write at this
    /// rate, or a path that cannot be created; in both cases no file is left behind.
    public init(
        path: String, format: AudioFileFormat, sampleRate: Int, channels: Int = 1,
        durable: Bool = false
    ) throws(AudioFileError) {
        self.path = path
        self.durable = durable
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        writesRaw = format.container == .wav && format.sampleFormat == .f32 && 1.littleEndian == 1
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channels)
        info.format = format.libsndfileFormat
        // Ask libsndfile before touching the disk: which codecs exist depends on its build.
        guard sampleRate > 0, channels > 0, sf_format_check(&info) != 0 else {
            throw AudioFileError(
                .unsupportedFormat, path: path,
                message: "libsndfile on this machine cannot write \(format) at \(sampleRate) Hz with \(channels) channel(s); try WAV, or another rate"
            )
        }
        let atomic: AtomicFile
        do { atomic = try AtomicFile(targetPath: path) } catch {
            throw AudioFileError(.cannotCreate, path: path, message: error.message)
        }
        if writesRaw {
            do { try atomic.writeAll(FloatWaveHeader.bytes(frames: 0, sampleRate: sampleRate, channels: channels)) } catch {
                atomic.discard()
                throw AudioFileError(.cannotCreate, path: path, message: error.message)
            }
            file = atomic
            return
        }
        // libsndfile writes through our descriptor but does not close it (SF_FALSE), so
        // that the data can be fsync'ed before the rename.
        guard let sndfile = sf_open_fd(atomic.descriptor, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            let reason = String(cString: sf_strerror(nil))
            atomic.discard()
            throw AudioFileError(.cannotCreate, path: path, message: "libsndfile could not start a \(format) file: \(reason)")
        }
        // The engine never exceeds its amplitude (<= 1), but a float that rounds to exactly
        // 1.0 must clip to the largest integer, not wrap to the most negative one.
        sf_command(sndfile, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        file = atomic
        handle = sndfile
    }

    deinit { discard() }

    /// The temporary file being written (for cleanup on a signal).
    public var temporaryPath: String? { file?.temporaryPath }

    /// Appends interleaved frames (`samples.count` must be a multiple of `channels`).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioFileError) {
        guard let atomic = file, writesRaw || handle != nil else {
            throw AudioFileError(.writeFailed, path: path, message: "the file is already finished or discarded")
        }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        precondition(samples.count % channels == 0, "a partial frame")
        let frames = Int64(samples.count / channels)
        var written: Int64
        var reason = ""
        if let handle {
            written = sf_writef_float(handle, base, frames)
            if written != frames { reason = String(cString: sf_strerror(handle)) }
        } else {
            do {
                try atomic.writeAll(UnsafeRawBufferPointer(samples))
                written = frames
            } catch {
                written = 0
                reason = error.message
            }
        }
        guard written == frames else {
            discard()
            throw AudioFileError(
                .writeFailed, path: path,
                message:
                    "writing failed after \(framesWritten + max(0, written)) frames (\(reason)); check the free space. Nothing was left under this name"
            )
        }
        framesWritten += frames
        // Durable: every few megabytes, start writing what we have to disk (without waiting
        // for it): `finish()` must fsync before its rename, and would otherwise wait there
        // for the whole file at once.
        framesSinceWriteback += frames
        if durable, framesSinceWriteback * Int64(channels) >= 2 << 20, let fd = file?.descriptor {
            _ = toneshaper_start_writeback(fd)
            framesSinceWriteback = 0
        }
    }

    public func write(_ samples: [Float]) throws(AudioFileError) {
        try samples.withUnsafeBufferPointer { buffer throws(AudioFileError) in try write(buffer) }
    }

    /// Completes the header and puts the file in place under `path` (after an fsync, if durable).
    public func finish() throws(AudioFileError) {
        guard let atomic = file, writesRaw || handle != nil else {
            throw AudioFileError(.writeFailed, path: path, message: "the file is already finished or discarded")
        }
        if let sndfile = handle {
            handle = nil
            let closed = sf_close(sndfile)
            guard closed == 0 else {
                let reason = String(cString: sf_error_number(closed))
                discard()
                throw AudioFileError(
                    .writeFailed, path: path, message: "libsndfile could not finish the file (\(reason)); nothing was left under this name")
            }
        } else {
            // The sizes, now that they are known.
            do { try atomic.writeAll(FloatWaveHeader.bytes(frames: framesWritten, sampleRate: sampleRate, channels: channels), at: 0) } catch {
                discard()
                throw AudioFileError(.writeFailed, path: path, message: error.message + "; nothing was left under this name")
            }
        }
        file = nil
        do { try atomic.commit(durable: durable) } catch {
            throw AudioFileError(.writeFailed, path: path, message: error.message + "; nothing was left under this name")
        }
    }

    /// Abandons the file: the temporary is removed and `path` is untouched.
    public func discard() {
        if let handle {
            sf_close(handle)
            self.handle = nil
        }
        file?.discard()
        file = nil
    }
}

extension AudioFileWriter {
    /// Writes a file in one go: `body` writes frames; if it throws, the file is discarded
    /// and the error passed on, else the file is finished.
    public static func write(
        to path: String, format: AudioFileFormat, sampleRate: Int, channels: Int = 1,
        _ body: (AudioFileWriter) throws -> Void
    ) throws {
        let writer = try AudioFileWriter(path: path, format: format, sampleRate: sampleRate, channels: channels)
        do {
            try body(writer)
        } catch {
            writer.discard()
            throw error
        }
        try writer.finish()
    }
}
