extension JSONValue {
    /// The value as UTF-8 JSON text, byte for byte as Foundation's JSONEncoder writes it
    /// with `.withoutEscapingSlashes` (plus `.prettyPrinted` and `.sortedKeys` when asked),
    /// so that documents saved before this module existed are saved again unchanged.
    ///
    /// - `pretty`: one value per line, indented by two spaces, `"key" : value`.
    /// - `sortedKeys`: keys in the order of their UTF-8 bytes, so that a saved file
    ///   does not change from one save to the next; otherwise the dictionary's own order.
    ///
    /// Whole numbers below 10^15 are written as integers (440, not 440.0); others with the
    /// fewest digits that read back as the same double. NaN and infinities, which JSON
    /// cannot express, are written as null.
    public func serialized(pretty: Bool = false, sortedKeys: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty, sortedKeys: sortedKeys)
        writer.write(self, depth: 0)
        return writer.output
    }
}

struct JSONWriter {
    let pretty: Bool
    let sortedKeys: Bool
    var output: [UInt8] = []

    init(pretty: Bool, sortedKeys: Bool) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    /// `value`, whose first line is already indented for `depth`.
    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): write(number)
        case .string(let text): write(text)
        case .array(let items):
            open(UInt8(ascii: "["), isEmpty: items.isEmpty, depth: depth)
            for (i, item) in items.enumerated() {
                separate(first: i == 0, depth: depth + 1)
                write(item, depth: depth + 1)
            }
            close(UInt8(ascii: "]"), depth: depth)
        case .object(let members):
            open(UInt8(ascii: "{"), isEmpty: members.isEmpty, depth: depth)
            var ordered = Array(members)
            if sortedKeys { ordered.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } }
            for (i, member) in ordered.enumerated() {
                separate(first: i == 0, depth: depth + 1)
                write(member.key)
                append(pretty ? " : " : ":")
                write(member.value, depth: depth + 1)
            }
            close(UInt8(ascii: "}"), depth: depth)
        }
    }

    /// Pretty output opens every container with a line break, the empty ones too (JSONEncoder
    /// writes `[` and `]` with an empty line between them).
    private mutating func open(_ bracket: UInt8, isEmpty: Bool, depth: Int) {
        output.append(bracket)
        if pretty && isEmpty { output.append(0x0A) }
    }

    private mutating func separate(first: Bool, depth: Int) {
        if !first { output.append(UInt8(ascii: ",")) }
        if pretty { newLine(depth: depth) }
    }

    private mutating func close(_ bracket: UInt8, depth: Int) {
        if pretty { newLine(depth: depth) }
        output.append(bracket)
    }

    private mutating func newLine(depth: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    mutating func append(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string in quotes: `"` and `\` escaped, control characters as \n, \t … or \u00XX,
    /// everything else (slashes, U+007F, all non-ASCII) as it is.
    mutating func write(_ text: String) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0x08: append("\\b")
            case 0x09: append("\\t")
            case 0x0A: append("\\n")
            case 0x0C: append("\\f")
            case 0x0D: append("\\r")
            case 0..<0x20:
                append("\\u00")
                output.append(JSONWriter.hexDigit(byte >> 4))
                output.append(JSONWriter.hexDigit(byte & 0xF))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
