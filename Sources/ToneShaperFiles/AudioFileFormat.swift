import CSndFile

/// The containers `toneshaper render` writes, each a libsndfile major format.
public enum AudioContainer: String, CaseIterable, Sendable {
    case wav, flac, ogg

    /// The container a file name implies, from its extension (case-insensitive).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "ogg", "oga": self = .ogg
        default: return nil
        }
    }

    /// The container implied by the extension of `path`, or nil when it has none or an unknown one.
    public init?(path: String) {
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return nil }
        self.init(fileExtension: String(file[file.index(after: dot)...]))
    }

    public var displayName: String {
        switch self {
        case .wav: return "WAV"
        case .flac: return "FLAC"
        case .ogg: return "Ogg/Vorbis"
        }
    }

    /// What to write when the user names no sample format: float keeps everything the
    /// engine computes in WAV; FLAC has no float, so its best is 24-bit; Vorbis has none.
    public var defaultSampleFormat: SampleFormat? {
        switch self {
        case .wav: return .f32
        case .flac: return .s24
        case .ogg: return nil
        }
    }

    var majorFormat: Int32 {
        switch self {
        case .wav: return Int32(SF_FORMAT_WAV)
        case .flac: return Int32(SF_FORMAT_FLAC)
        case .ogg: return Int32(SF_FORMAT_OGG)
        }
    }
}

/// How each sample is stored in a PCM or float container.
public enum SampleFormat: String, CaseIterable, Sendable {
    case s16, s24, f32

    public var displayName: String {
        switch self {
        case .s16: return "16-bit"
        case .s24: return "24-bit"
        case .f32: return "32-bit float"
        }
    }

    var subtype: Int32 {
        switch self {
        case .s16: return Int32(SF_FORMAT_PCM_16)
        case .s24: return Int32(SF_FORMAT_PCM_24)
        case .f32: return Int32(SF_FORMAT_FLOAT)
        }
    }
}

/// A container with its sample format, checked to be a combination that exists.
public struct AudioFileFormat: Equatable, Sendable, CustomStringConvertible {
    public let container: AudioContainer
    /// nil for Ogg/Vorbis, a compressed format without one.
    public let sampleFormat: SampleFormat?

    /// Checks the combination; `sampleFormat` nil means the container's default.
    public init(container: AudioContainer, sampleFormat: SampleFormat? = nil) throws(AudioFileError) {
        switch (container, sampleFormat) {
        case (.flac, .f32?):
            throw AudioFileError(
                .unsupportedFormat, path: nil,
                message: "FLAC cannot store 32-bit float samples (it is an integer format); use --sample-format s24 (or s16), or write WAV for float")
        case (.ogg, let format?):
            throw AudioFileError(
                .unsupportedFormat, path: nil,
                message:
                    "Ogg/Vorbis is a compressed format with no sample format, so --sample-format \(format.rawValue) does not apply; leave it out, or write WAV or FLAC"
            )
        default:
            self.container = container
            self.sampleFormat = sampleFormat ?? container.defaultSampleFormat
        }
    }

    /// The SF_FORMAT_* word libsndfile wants.
    var libsndfileFormat: Int32 {
        switch container {
        case .ogg: return container.majorFormat | Int32(SF_FORMAT_VORBIS)
        case .wav, .flac: return container.majorFormat | (sampleFormat ?? .s24).subtype
        }
    }

    /// "WAV 32-bit float", "FLAC 24-bit", "Ogg/Vorbis".
    public var description: String {
        guard let sampleFormat else { return container.displayName }
        return "\(container.displayName) \(sampleFormat.displayName)"
    }
}
