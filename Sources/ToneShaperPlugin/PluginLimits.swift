import CPluginSupport
import ToneShaperModel

/// What every format's shell holds to, whatever its host: the sizes it accepts.
public enum PluginLimits {
    /// The largest document a state, a preset or a file may hold (the node's too).
    public static var maximumDocumentSize: Int { ToneShapeDocument.maximumSize }
    /// The largest block a host renders when it does not say (the core slices larger ones).
    public static var defaultMaximumBlock: Int { 4096 }
}

/// MIDI 1.0 as hosts hand it to a plugin.
public enum HostMIDI {
    /// What ``PluginEngine/takeMIDI(frame:bytes:)`` made of a message.
    public enum Verdict: Equatable, Sendable {
        /// Kept for the render.
        case taken
        /// A system message other than a MIDI Tuning Standard message or a GM/GS reset (the
        /// system exclusive messages taken), or one beyond a block's room: not a fault.
        case ignored
        /// No status byte, a length its status does not have, a data byte of 0x80 or
        /// above, or a tuning message cut short or with a wrong checksum: the host's fault,
        /// for the shell to count.
        case malformed
    }

    /// How many bytes a MIDI 1.0 message with `status` has (0: not a status byte, or a
    /// system exclusive message, whose length is its own).
    public static func length(status: UInt8) -> Int {
        switch status {
        case 0x80...0xBF, 0xE0...0xEF: return 3
        case 0xC0...0xDF: return 2
        case 0xF1, 0xF3: return 2
        case 0xF2: return 3
        case 0xF6, 0xF8...0xFF: return 1
        default: return 0
        }
    }
}

/// A document file read whole, off the audio thread (a preset, a patch:Set's path, a
/// built-in document in a bundle), or why it cannot be.
public enum DocumentFile {
    /// Why ``read(_:)`` gave no bytes, as the end of a sentence ("the preset file X " + it).
    public struct Refusal: Error {
        public let reason: String
    }

    /// The bytes of the file at `path` (at most ``PluginLimits/maximumDocumentSize``).
    public static func read(_ path: UnsafePointer<CChar>) throws(Refusal) -> [UInt8] {
        var size = 0
        var status: Int32 = 0
        guard let bytes = toneshaper_plugin_read_file(path, PluginLimits.maximumDocumentSize, &size, &status) else {
            switch Int(status) {
            case Int(TONESHAPER_PLUGIN_FILE_MISSING): throw Refusal(reason: "cannot be opened (missing, or not readable)")
            case Int(TONESHAPER_PLUGIN_FILE_TOO_LARGE): throw Refusal(reason: "is larger than 16 MB")
            case Int(TONESHAPER_PLUGIN_FILE_EMPTY): throw Refusal(reason: "is empty")
            default: throw Refusal(reason: "could not be read")
            }
        }
        defer { toneshaper_plugin_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}

/// A plugin's state as a host's byte stream carries it (CLAP's streams, VST3's IBStream):
/// the whole document, read and written in as many calls as the host's stream needs.
public enum DocumentStream {
    /// The document from `read` (given a buffer and its size, it returns how many bytes it
    /// put there, 0 at the stream's end, below 0 when it failed), at most
    /// ``PluginLimits/maximumDocumentSize`` bytes. Refused when the stream fails, is empty or
    /// is larger; the reason reads as a sentence ("the state " + reason).
    public static func read(_ read: (UnsafeMutableRawPointer, Int) -> Int) throws(DocumentFile.Refusal) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = 65_536
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let got = read(buffer, chunk)
            if got == 0 { break }
            guard got > 0, got <= chunk else { throw DocumentFile.Refusal(reason: "could not be read from the host's stream") }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: got))
            guard bytes.count <= PluginLimits.maximumDocumentSize else { throw DocumentFile.Refusal(reason: "is larger than 16 MB") }
        }
        guard !bytes.isEmpty else { throw DocumentFile.Refusal(reason: "is empty") }
        return bytes
    }

    /// Writes `bytes` whole through `write` (given bytes and their count, it returns how many
    /// it took, 0 or below when it refused); false when the stream refused them or they are none.
    public static func write(_ bytes: UnsafeRawBufferPointer, _ write: (UnsafeRawPointer, Int) -> Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return false }
        var written = 0
        while written < bytes.count {
            let wrote = write(base + written, bytes.count - written)
            guard wrote > 0, wrote <= bytes.count - written else { return false }
            written += wrote
        }
        return true
    }
}
