// JSONValue through Codable, for the web side, which still reads requests with
// JSONDecoder and answers with JSONEncoder. Documents use ToneShaperJSON's own reader and
// writer (`JSONValue.parse`, `serialized`), which need no Foundation; the conformance lives
// here because ToneShaperJSON, compiled for Embedded Swift too, cannot have it.
extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? c.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d):
            // Whole numbers are written without a fraction, as the reference app does.
            if d == d.rounded(), abs(d) < 1e15 { try c.encode(Int64(d)) } else { try c.encode(d) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

// Documents store waves and scalings by name; the DSP module and the model, which Embedded
// Swift compiles too, have no Codable.
extension WaveType: Codable {}
extension ScaleType: Codable {}
