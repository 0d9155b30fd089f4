import Testing
import ToneShaperJSON

/// What the reader accepts and what it makes of it.
@Suite struct ParserTests {
    @Test func readsEveryKindOfValue() throws {
        let text = #" {"a": [1, -2.5, true, false, null, "x", {}, []], "b": {"c": "d"}} "#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(
            value
                == .object([
                    "a": .array([.number(1), .number(-2.5), .bool(true), .bool(false), .null, .string("x"), .object([:]), .array([])]),
                    "b": .object(["c": .string("d")]),
                ]))
    }

    @Test func anyValueMayStandAlone() throws {
        // RFC 8259 allows a scalar as the whole text (RFC 4627 did not).
        #expect(try JSONValue.parse(Array("42".utf8)) == .number(42))
        #expect(try JSONValue.parse(Array(" \"s\"\n".utf8)) == .string("s"))
        #expect(try JSONValue.parse(Array("null".utf8)) == .null)
        #expect(try JSONValue.parse(Array("\t\r\n true \t\r\n".utf8)) == .bool(true))
    }

    @Test func readsEveryEscape() throws {
        let text = #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \uD83D\uDE00 \udbff\udfff \u0000""#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value == .string("\" \\ / \u{8} \u{C} \n \r \t A é € 😀 \u{10FFFF} \u{0}"))
    }

    @Test func keepsUTF8AsItIs() throws {
        let text = "[\"é€😀\u{7F}\u{2028}\u{FFFF}\u{10FFFF}\", \"plain\", \"mixed \\n é\"]"
        #expect(
            try JSONValue.parse(Array(text.utf8))
                == .array([.string("é€😀\u{7F}\u{2028}\u{FFFF}\u{10FFFF}"), .string("plain"), .string("mixed \n é")]))
    }

    @Test func skipsALeadingByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(1)]))
    }

    @Test func readsNumbersExactly() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("1", 1), ("-1", -1), ("0.1", 0.1), ("0.25", 0.25), ("1261.91", 1261.91),
            ("1e308", 1e308), ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude),
            ("2.2250738585072014e-308", .leastNormalMagnitude), ("0.3333333333333333", 1.0 / 3), ("1E2", 100), ("1e+2", 100),
            ("1e-2", 0.01), ("9007199254740992", 9_007_199_254_740_992), ("9007199254740991", 9_007_199_254_740_991),
            // Past 2^53 the integer rounds, to even: as strtod and the compiler round it.
            ("9007199254740993", 9_007_199_254_740_992), ("9007199254740995", 9_007_199_254_740_996),
            ("123456789012345678901234567890", 123_456_789_012_345_677_877_719_597_056),
            ("0.000001", 0.000001), ("1e-400", 0), ("-1e-400", -0.0), ("0e99999999999999999999", 0),
            ("100000000000000000000000", 1e23), ("8.98846567431158e307", 8.98846567431158e307),
        ]
        for (text, expected) in cases {
            let value = try JSONValue.parse(Array(text.utf8))
            guard case .number(let number) = value else {
                Issue.record("\(text) read as \(value)")
                continue
            }
            #expect(number.bitPattern == expected.bitPattern, "\(text) read as \(number), expected \(expected)")
        }
    }

    @Test func integersUpTo2To53ReadBackExactly() throws {
        var random = SplitMix64(seed: 53)
        for _ in 0..<5_000 {
            let integer = Int64(random.next() % (1 << 53))
            let negative = random.next() % 2 == 0
            let text = (negative ? "-" : "") + String(integer)
            #expect(try JSONValue.parse(Array(text.utf8)) == .number(negative ? -Double(integer) : Double(integer)), "\(text)")
        }
    }

    @Test func errorsSayWhereInLinesAndCharacters() {
        let text = "{\n  \"é\": 1,\n  \"b\": x\n}"
        let error = JSONError.of(Array(text.utf8))
        #expect(error?.reason == .unexpectedByte(UInt8(ascii: "x"), expected: .value))
        #expect(error?.line == 3 && error?.column == 8 && error?.offset == 20)
        #expect(
            error?.description
                == "expected a value (an object, an array, a string, a number, true, false or null), found 'x' at line 3, column 8 (byte 20)")
        // Columns count characters, not bytes: "é" is two bytes, one column.
        let accented = JSONError.of(Array("\"é\" x".utf8))
        #expect(accented?.reason == .trailingContent(UInt8(ascii: "x")) && accented?.column == 5 && accented?.offset == 5)
    }

    @Test func limitsCanBeChosen() {
        let deep = JSONError.of(Array("[[[1]]]".utf8), limits: JSONLimits(maximumDepth: 2))
        #expect(deep?.reason == .tooDeep(limit: 2) && deep?.offset == 2)
        #expect((try? JSONValue.parse(Array("[[1]]".utf8), limits: JSONLimits(maximumDepth: 2))) != nil)
        let large = JSONError.of(Array("[1, 2]".utf8), limits: JSONLimits(maximumSize: 5))
        #expect(large?.reason == .tooLarge(size: 6, limit: 5))
    }

    @Test func readsFromAnyCollectionOfBytes() throws {
        let text = #"{"k": [1, "v"]}"#
        let expected = JSONValue.object(["k": .array([.number(1), .string("v")])])
        #expect(try JSONValue.parse(text.utf8) == expected)
        #expect(try JSONValue.parse(Array(text.utf8)[...]) == expected)
        // Not contiguous: copied first.
        #expect(try JSONValue.parse(text.utf8.lazy.map { $0 }) == expected)
        let fromBuffer = Array(text.utf8).withUnsafeBufferPointer { try? JSONValue.parse($0) }
        #expect(fromBuffer == expected)
    }
}

extension JSONError {
    /// Why `bytes` are not JSON; nil when they are.
    static func of(_ bytes: some Collection<UInt8>, limits: JSONLimits = JSONLimits()) -> JSONError? {
        do {
            _ = try JSONValue.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }
}

/// A small seeded generator, so that a failing case can be run again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
