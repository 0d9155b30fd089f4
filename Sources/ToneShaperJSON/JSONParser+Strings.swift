extension JSONParser {
    /// The string whose opening quote is at `position`: escapes decoded, UTF-8 checked.
    mutating func string() throws(JSONError) -> String {
        position += 1
        let start = position
        // Most strings (keys, names) are plain ASCII: made straight from the input.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        // The rest goes through `scratch`, which escapes and multi-byte characters need.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .endOfString), at: position) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape()
            case 0..<0x20: throw failure(.controlCharacter(byte), at: position)
            case 0..<0x80:
                scratch.append(byte)
                position += 1
            default: try multibyteCharacter()
            }
        }
    }

    /// One character of two to four bytes, checked against UTF-8's well-formed sequences
    /// (Unicode table 3-7): no overlong forms, no encoded surrogates, nothing past U+10FFFF.
    private mutating func multibyteCharacter() throws(JSONError) {
        let lead = bytes[position]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            second = 0x80...0x9F
        case 0xF0:
            length = 4
            second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            second = 0x80...0x8F
        default: throw failure(.invalidUTF8(lead), at: position)
        }
        for i in 1..<length {
            guard position + i < bytes.count else { throw failure(.unexpectedEnd(expected: .endOfString), at: position + i) }
            let byte = bytes[position + i]
            if !(i == 1 ? second : 0x80...0xBF).contains(byte) { throw failure(.invalidUTF8(byte), at: position + i) }
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<position + length]))
        position += length
    }

    /// The escape whose backslash is at `position`.
    private mutating func escape() throws(JSONError) {
        let backslash = position
        position += 1
        guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .escape), at: position) }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): try unicodeEscape(from: backslash)
        default: throw failure(.invalidEscape(byte), at: backslash)
        }
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00` for a character beyond the BMP. Half a
    /// pair is refused: it is no character, and UTF-8 cannot hold it.
    private mutating func unicodeEscape(from backslash: Int) throws(JSONError) {
        let unit = try hexQuad()
        var scalar = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .endOfString), at: position) }
            guard bytes[position] == UInt8(ascii: "\\") else { throw failure(.loneSurrogate(unit), at: backslash) }
            guard position + 1 < bytes.count else { throw failure(.unexpectedEnd(expected: .escape), at: position + 1) }
            guard bytes[position + 1] == UInt8(ascii: "u") else { throw failure(.loneSurrogate(unit), at: backslash) }
            position += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure(.loneSurrogate(unit), at: backslash) }
            scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        case 0xDC00...0xDFFF: throw failure(.loneSurrogate(unit), at: backslash)
        default: break
        }
        appendUTF8(scalar)
    }

    /// The four hexadecimal digits after `\u`.
    private mutating func hexQuad() throws(JSONError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .hexDigit), at: position) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.invalidUnicodeEscape, at: position)
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80: scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
