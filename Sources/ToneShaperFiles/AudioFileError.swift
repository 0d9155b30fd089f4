/// Why an audio file could not be written or read, with the path and what to do about it.
public struct AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// A container, sample format or rate that cannot be written (FLAC float, say).
        case unsupportedFormat
        /// The file could not be created: missing or read-only directory, and the like.
        case cannotCreate
        /// Writing or finishing the file failed part way (disk full, I/O error).
        case writeFailed
        /// A file to read is missing or not audio libsndfile understands.
        case cannotRead
    }

    public let kind: Kind
    public let path: String?
    public let message: String

    public init(_ kind: Kind, path: String?, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String {
        if let path { return "\(path): \(message)" }
        return message
    }
}
