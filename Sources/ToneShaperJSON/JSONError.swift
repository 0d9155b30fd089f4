/// Why a text is not JSON, and where: the byte offset for programs, the line and column for
/// the person who opens the file in an editor.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: Reason
    /// Bytes from the start of the text to the problem (0 is the first byte).
    public var offset: Int
    /// The problem's line, counted from 1.
    public var line: Int
    /// The problem's column, counted from 1 in characters (Unicode scalars), as editors count.
    public var column: Int

    public init(reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// What was wrong.
    public enum Reason: Equatable, Sendable {
        /// The text is longer than `JSONLimits.maximumSize`.
        case tooLarge(size: Int, limit: Int)
        /// Arrays and objects nest deeper than `JSONLimits.maximumDepth`.
        case tooDeep(limit: Int)
        /// The text is empty or only white space.
        case noValue
        /// The text stops where more was expected.
        case unexpectedEnd(expected: Expected)
        /// A byte that cannot stand here.
        case unexpectedByte(UInt8, expected: Expected)
        /// A ',' directly before ']' or '}'.
        case trailingComma
        /// More than white space after the value.
        case trailingContent(UInt8)
        /// A number such as 07 (JSON forbids leading zeros: octal or a typo?).
        case leadingZero
        /// NaN or Infinity, which JSON cannot express.
        case notANumber
        /// A number beyond the range of a double (about ±1.8e308).
        case numberOutOfRange
        /// A raw control character (below U+0020) in a string, such as a line break.
        case controlCharacter(UInt8)
        /// A backslash followed by a character that is not an escape.
        case invalidEscape(UInt8)
        /// `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// Half of a UTF-16 surrogate pair (`\uD83D` without a following `\uDE00`).
        case loneSurrogate(UInt16)
        /// Bytes in a string that are not UTF-8.
        case invalidUTF8(UInt8)
        /// A key that appears twice in one object. JSON leaves the meaning open, and the
        /// first or the last silently winning hides an edit that had no effect.
        case duplicateKey(String)
    }

    /// What the parser was looking for when it met the end or an unexpected byte.
    public enum Expected: Equatable, Sendable {
        case value
        case key
        case colon
        case commaOrEndOfObject
        case commaOrEndOfArray
        case digit
        case hexDigit
        case endOfString
        case escape
        case word(String)

        var words: String {
            switch self {
            case .value: return "a value (an object, an array, a string, a number, true, false or null)"
            case .key: return "a key in double quotes"
            case .colon: return "':' after the key"
            case .commaOrEndOfObject: return "',' or '}' after a value in an object"
            case .commaOrEndOfArray: return "',' or ']' after a value in an array"
            case .digit: return "a digit"
            case .hexDigit: return "a hexadecimal digit"
            case .endOfString: return "the closing '\"' of a string"
            case .escape: return "an escaped character after '\\'"
            case .word(let word): return word
            }
        }
    }

    /// The problem in words, without its place.
    public var problem: String {
        switch reason {
        case .tooLarge(let size, let limit): return "the text is \(size) bytes, more than the \(limit) allowed"
        case .tooDeep(let limit): return "arrays and objects are nested more than \(limit) deep"
        case .noValue: return "there is no value: the text is empty or only white space"
        case .unexpectedEnd(let expected): return "the text ends where \(expected.words) should follow"
        case .unexpectedByte(let byte, let expected): return "expected \(expected.words), found \(JSONError.name(of: byte))"
        case .trailingComma: return "a ',' is followed by no value (JSON allows no comma before ']' or '}')"
        case .trailingContent(let byte): return "more text after the end of the value: \(JSONError.name(of: byte))"
        case .leadingZero: return "a number starts with 0 followed by digits (JSON numbers have no leading zeros)"
        case .notANumber: return "NaN and Infinity are not JSON numbers"
        case .numberOutOfRange: return "the number is beyond the range of a double (about ±1.8e308)"
        case .controlCharacter(let byte):
            return "a control character (\(JSONError.name(of: byte))) inside a string; write it as an escape such as \\n or \\u0009"
        case .invalidEscape(let byte):
            let escape = JSONError.character(byte).map { "\\" + $0 } ?? "a backslash before \(JSONError.name(of: byte))"
            return "\(escape) is not an escape (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)"
        case .invalidUnicodeEscape: return "\\u must be followed by four hexadecimal digits"
        case .loneSurrogate(let unit):
            return "\\u\(JSONError.hex(Int(unit), digits: 4)) is half of a UTF-16 surrogate pair, without its other half"
        case .invalidUTF8(let byte): return "the string is not UTF-8 text (byte 0x\(JSONError.hex(Int(byte), digits: 2)))"
        case .duplicateKey(let key): return "the key \"\(key)\" appears twice in one object"
        }
    }

    /// "… at line 3, column 14 (byte 52)".
    public var description: String { "\(problem) at line \(line), column \(column) (byte \(offset))" }

    /// A byte as a reader recognises it: a printable character in quotes, else its name
    /// or its value in hexadecimal.
    static func name(of byte: UInt8) -> String {
        switch byte {
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return"
        case 0x09: return "a tab"
        default:
            if let character = character(byte) { return "'\(character)'" }
            return "byte 0x\(hex(Int(byte), digits: 2))"
        }
    }

    static func character(_ byte: UInt8) -> String? {
        (0x21..<0x7F).contains(byte) ? String(decoding: [byte], as: UTF8.self) : nil
    }

    static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
