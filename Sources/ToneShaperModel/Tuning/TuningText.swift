/// Why a Scala scale (`.scl`) or keyboard mapping (`.kbm`) was refused: the file's kind, the
/// line (counted from 1, comments included, as an editor counts them; 0 when the problem is
/// the file as a whole) and what was expected there.
public struct TuningError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum File: String, Sendable {
        case scale = "scale"
        case keyboardMap = "keyboard map"
    }

    public var file: File
    public var line: Int
    public var problem: String

    public init(_ file: File, line: Int, _ problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String {
        line > 0 ? "\(file.rawValue), line \(line): \(problem)" : "\(file.rawValue): \(problem)"
    }
}

/// The lines of a Scala file as its format reads them, in bytes (no Foundation, no
/// Unicode tables: Embedded Swift reads them too).
struct TuningLines {
    struct Line {
        /// Counted from 1.
        var number: Int
        var bytes: [UInt8]

        /// A comment: `!` in the first column.
        var isComment: Bool { bytes.first == UInt8(ascii: "!") }

        /// The value the line starts with: its first word, before any `!` (what follows it
        /// on the line is ignored, as the format says); nil when the line has none.
        var firstWord: [UInt8]? {
            var start = 0
            while start < bytes.count && TuningLines.isSpace(bytes[start]) { start += 1 }
            var end = start
            while end < bytes.count && !TuningLines.isSpace(bytes[end]) && bytes[end] != UInt8(ascii: "!") { end += 1 }
            return end > start ? Array(bytes[start..<end]) : nil
        }

        /// The line as text, for messages (at most 40 characters of it).
        var quoted: String {
            let shown = bytes.count > 40 ? Array(bytes[0..<40]) + Array("...".utf8) : bytes
            return "\"" + String(decoding: shown, as: UTF8.self) + "\""
        }
    }

    var lines: [Line] = []

    /// Splits at LF, CRLF or a lone CR.
    init(_ text: String) {
        var current: [UInt8] = []
        var number = 1
        var previousCR = false
        for byte in text.utf8 {
            if byte == 0x0A && previousCR {
                previousCR = false
                continue
            }
            previousCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                lines.append(Line(number: number, bytes: current))
                current = []
                number += 1
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { lines.append(Line(number: number, bytes: current)) }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C }

    /// A whole word of decimal digits with an optional sign, as an integer within ±10^15;
    /// nil otherwise.
    static func integer(_ word: [UInt8]) -> Int? {
        var digits = word[...]
        var negative = false
        if let first = digits.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    static func text(_ word: [UInt8]) -> String { String(decoding: word, as: UTF8.self) }
}
