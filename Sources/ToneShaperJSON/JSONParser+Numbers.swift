import CNumberText

extension JSONParser {
    /// The number at `position`, after checking it against JSON's grammar
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, which is stricter than
    /// strtod's (no "+1", ".5", "1.", "0x1F", "inf", "nan").
    mutating func number() throws(JSONError) -> Double {
        let start = position
        var decimal = DecimalDigits()
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .digit), at: position) }
        switch bytes[position] {
        case UInt8(ascii: "0"):
            position += 1
            if position < bytes.count && isDigit(bytes[position]) { throw failure(.leadingZero, at: start) }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            while position < bytes.count && isDigit(bytes[position]) {
                decimal.append(bytes[position], fraction: false)
                position += 1
            }
        case UInt8(ascii: "I"): throw failure(.notANumber, at: start)
        case let byte: throw failure(.unexpectedByte(byte, expected: .digit), at: position)
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            try requireDigit()
            while position < bytes.count && isDigit(bytes[position]) {
                decimal.append(bytes[position], fraction: true)
                position += 1
            }
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            try requireDigit()
            var exponent = 0
            while position < bytes.count && isDigit(bytes[position]) {
                // An exponent this large is left to strtod, which reads the text itself.
                exponent = min(exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")), 1_000_000)
                if exponent == 1_000_000 { decimal.truncated = true }
                position += 1
            }
            decimal.exponent += exponentNegative ? -exponent : exponent
        }
        let value = decimal.exactValue.map { negative ? -$0 : $0 } ?? strtod(from: start)
        if !value.isFinite { throw failure(.numberOutOfRange, at: start) }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private func requireDigit() throws(JSONError) {
        guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .digit), at: position) }
        if !isDigit(bytes[position]) { throw failure(.unexpectedByte(bytes[position], expected: .digit), at: position) }
    }

    /// The checked text from `start` to `position`, correctly rounded by the C library.
    private mutating func strtod(from start: Int) -> Double {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        scratch.append(0)
        return scratch.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { toneshaper_read_number($0.baseAddress!) }
        }
    }
}

/// A number's significant digits as an integer and its decimal exponent, gathered while
/// the grammar is checked, so that most numbers need no strtod: a value whose digits fit
/// in 53 bits, scaled by a power of ten up to 10^22 (both exact doubles), comes out of one
/// correctly rounded multiplication or division exactly as strtod would give it
/// (Clinger's fast path). "440", "0.25" and "1261.91" all take it.
struct DecimalDigits {
    var significand: UInt64 = 0
    /// Power of ten the significand is scaled by.
    var exponent = 0
    /// More significant digits than `significand` holds: strtod decides.
    var truncated = false

    mutating func append(_ digit: UInt8, fraction: Bool) {
        if fraction { exponent -= 1 }
        let value = UInt64(digit - UInt8(ascii: "0"))
        // Leading zeros of a fraction (0.001) cost nothing; 19 digits always fit.
        if significand <= (UInt64.max - 9) / 10 {
            significand = significand * 10 + value
        } else {
            truncated = true
        }
    }

    var exactValue: Double? {
        guard !truncated, significand <= 1 << 53, (-22...22).contains(exponent) else { return nil }
        let scale = DecimalDigits.powersOfTen[abs(exponent)]
        return exponent < 0 ? Double(significand) / scale : Double(significand) * scale
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
