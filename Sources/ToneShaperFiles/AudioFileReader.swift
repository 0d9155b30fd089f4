import CSndFile

/// What a file holds, as libsndfile sees it.
public struct AudioFileInfo: Equatable, Sendable {
    public var sampleRate: Double
    public var channels: Int
    public var frames: Int
    /// nil when the container is not one `render` writes.
    public var container: AudioContainer?
    /// nil for compressed formats and sample formats `render` does not write.
    public var sampleFormat: SampleFormat?
}

/// Reads audio files through libsndfile, for analysing renders and recordings.
public enum AudioFileReader {
    /// The whole file as interleaved floats in [-1, 1].
    public static func read(path: String) throws(AudioFileError) -> (samples: [Float], sampleRate: Double, channels: Int) {
        var info = SF_INFO()
        let handle = try open(path, &info)
        defer { sf_close(handle) }
        let channels = Int(info.channels)
        var samples: [Float] = []
        // `frames` is a hint (it can be unknown for some formats): read until the end.
        samples.reserveCapacity(Int(clamping: max(0, info.frames)) * channels)
        let chunkFrames = 65536
        var chunk = [Float](repeating: 0, count: chunkFrames * channels)
        while true {
            let got = chunk.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress!, Int64(chunkFrames)) }
            if got <= 0 { break }
            samples.append(contentsOf: chunk[0..<(Int(got) * channels)])
        }
        if sf_error(handle) != 0 {
            throw AudioFileError(.cannotRead, path: path, message: "reading failed: \(String(cString: sf_strerror(handle)))")
        }
        return (samples, Double(info.samplerate), channels)
    }

    /// Rate, channels, length and format, without reading the samples.
    public static func info(path: String) throws(AudioFileError) -> AudioFileInfo {
        var info = SF_INFO()
        let handle = try open(path, &info)
        sf_close(handle)
        let major = info.format & Int32(SF_FORMAT_TYPEMASK)
        let subtype = info.format & Int32(SF_FORMAT_SUBMASK)
        let container = AudioContainer.allCases.first { $0.majorFormat == major }
        let sampleFormat = SampleFormat.allCases.first { $0.subtype == subtype }
        return AudioFileInfo(
            sampleRate: Double(info.samplerate), channels: Int(info.channels), frames: Int(info.frames),
            container: container, sampleFormat: sampleFormat)
    }

    private static func open(_ path: String, _ info: inout SF_INFO) throws(AudioFileError) -> OpaquePointer {
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioFileError(
                .cannotRead, path: path,
                message: "cannot open as audio: \(String(cString: sf_strerror(nil)))")
        }
        return handle
    }
}
