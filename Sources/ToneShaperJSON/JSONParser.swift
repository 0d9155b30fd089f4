extension JSONValue {
    /// Reads one JSON value (RFC 8259, strictly) from UTF-8 bytes: a file's contents, a
    /// plugin's saved state, a message. A leading UTF-8 byte order mark is skipped, as the
    /// RFC allows; anything else that is not JSON is refused with what and where.
    public static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        // The closures return a Result rather than throw: the standard library's
        // withUnsafe… functions rethrow untyped errors, which Embedded Swift lacks.
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(buffer, limits: limits) }
        }
        if let contiguous { return try contiguous.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(buffer, limits: limits) }
        }.get()
    }

    /// Reads one JSON value from bytes in memory the caller owns (an LV2 atom's body).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, limits: limits)
        return try parser.document()
    }
}

/// A recursive-descent reader over a byte buffer. Recursion is bounded by
/// `JSONLimits.maximumDepth`, so no input can exhaust the stack.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    /// The next byte to read.
    var position = 0
    /// Arrays and objects open around `position`.
    var depth = 0
    /// Strings with escapes and numbers for strtod are assembled here, reused.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func document() throws(JSONError) -> JSONValue {
        if bytes.count > limits.maximumSize { throw failure(.tooLarge(size: bytes.count, limit: limits.maximumSize), at: 0) }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        if position == bytes.count { throw failure(.noValue, at: position) }
        let value = try value()
        skipWhitespace()
        if position < bytes.count { throw failure(.trailingContent(bytes[position]), at: position) }
        return value
    }

    mutating func value() throws(JSONError) -> JSONValue {
        guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .value), at: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        case UInt8(ascii: "N"), UInt8(ascii: "I"): throw failure(.notANumber, at: position)
        case let byte: throw failure(.unexpectedByte(byte, expected: .value), at: position)
        }
    }

    private mutating func array() throws(JSONError) -> JSONValue {
        try enterContainer()
        var items: [JSONValue] = []
        skipWhitespace()
        if try peek(expecting: .value) == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipWhitespace()
            switch try peek(expecting: .commaOrEndOfArray) {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if try peek(expecting: .value) == UInt8(ascii: "]") { throw failure(.trailingComma, at: position) }
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(items)
            case let byte: throw failure(.unexpectedByte(byte, expected: .commaOrEndOfArray), at: position)
            }
        }
    }

    private mutating func object() throws(JSONError) -> JSONValue {
        try enterContainer()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek(expecting: .key) == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            let keyStart = position
            guard try peek(expecting: .key) == UInt8(ascii: "\"") else {
                throw failure(.unexpectedByte(bytes[position], expected: .key), at: position)
            }
            let key = try string()
            skipWhitespace()
            guard try peek(expecting: .colon) == UInt8(ascii: ":") else {
                throw failure(.unexpectedByte(bytes[position], expected: .colon), at: position)
            }
            position += 1
            skipWhitespace()
            if members.updateValue(try value(), forKey: key) != nil { throw failure(.duplicateKey(key), at: keyStart) }
            skipWhitespace()
            switch try peek(expecting: .commaOrEndOfObject) {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if try peek(expecting: .key) == UInt8(ascii: "}") { throw failure(.trailingComma, at: position) }
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(members)
            case let byte: throw failure(.unexpectedByte(byte, expected: .commaOrEndOfObject), at: position)
            }
        }
    }

    /// Steps over the '[' or '{' at `position`, one level deeper.
    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        if depth > limits.maximumDepth { throw failure(.tooDeep(limit: limits.maximumDepth), at: position) }
        position += 1
    }

    /// true, false or null, spelt exactly.
    private mutating func word(_ word: StaticString) throws(JSONError) {
        for i in 0..<word.utf8CodeUnitCount {
            guard position < bytes.count else { throw failure(.unexpectedEnd(expected: .word(word.description)), at: position) }
            let byte = bytes[position]
            if byte != word.utf8Start[i] { throw failure(.unexpectedByte(byte, expected: .word(word.description)), at: position) }
            position += 1
        }
    }

    /// The byte at `position`, or the error for a text that ends here.
    func peek(expecting expected: JSONError.Expected) throws(JSONError) -> UInt8 {
        guard position < bytes.count else { throw failure(.unexpectedEnd(expected: expected), at: position) }
        return bytes[position]
    }

    /// JSON's four white-space characters, and no others.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The error for `reason` at byte `offset`, with its line and column counted only now
    /// that something failed.
    func failure(_ reason: JSONError.Reason, at offset: Int) -> JSONError {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<min(offset, bytes.count) where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return JSONError(reason: reason, offset: offset, line: line, column: column)
    }
}
