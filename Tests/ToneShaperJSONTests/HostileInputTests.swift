import Foundation
import Testing
import ToneShaperJSON

/// What the reader refuses, and that no input can crash it, exhaust its stack or make it
/// accept something JSON is not.
@Suite struct HostileInputTests {
    typealias Reason = JSONError.Reason

    func reason(_ text: String) -> Reason? { reason(Array(text.utf8)) }
    func reason(_ bytes: [UInt8]) -> Reason? { JSONError.of(bytes)?.reason }

    @Test func refusesWhatRFC8259Forbids() {
        let cases: [(String, Reason)] = [
            ("", .noValue), (" \n\t ", .noValue),
            ("01", .leadingZero), ("-01", .leadingZero), ("00", .leadingZero), ("[007]", .leadingZero),
            ("1.", .unexpectedEnd(expected: .digit)), ("1.e5", .unexpectedByte(UInt8(ascii: "e"), expected: .digit)),
            (".5", .unexpectedByte(UInt8(ascii: "."), expected: .value)), ("+1", .unexpectedByte(UInt8(ascii: "+"), expected: .value)),
            ("1e", .unexpectedEnd(expected: .digit)), ("1e+", .unexpectedEnd(expected: .digit)), ("-", .unexpectedEnd(expected: .digit)),
            ("- 1", .unexpectedByte(UInt8(ascii: " "), expected: .digit)), ("0x10", .trailingContent(UInt8(ascii: "x"))),
            ("NaN", .notANumber), ("Infinity", .notANumber), ("-Infinity", .notANumber), ("[1, NaN]", .notANumber),
            ("1e309", .numberOutOfRange), ("-1e309", .numberOutOfRange), ("1" + String(repeating: "0", count: 400), .numberOutOfRange),
            ("1e99999999999999999999", .numberOutOfRange),
            ("[1,]", .trailingComma), (#"{"a": 1,}"#, .trailingComma), ("[,1]", .unexpectedByte(UInt8(ascii: ","), expected: .value)),
            ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), expected: .commaOrEndOfArray)),
            (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), expected: .colon)), ("{'a': 1}", .unexpectedByte(UInt8(ascii: "'"), expected: .key)),
            ("{a: 1}", .unexpectedByte(UInt8(ascii: "a"), expected: .key)),
            (#"{"a": 1 "b": 2}"#, .unexpectedByte(UInt8(ascii: "\""), expected: .commaOrEndOfObject)),
            ("[1", .unexpectedEnd(expected: .commaOrEndOfArray)), ("{", .unexpectedEnd(expected: .key)), (#"{"a""#, .unexpectedEnd(expected: .colon)),
            ("tru", .unexpectedEnd(expected: .word("true"))), ("True", .unexpectedByte(UInt8(ascii: "T"), expected: .value)),
            ("nul", .unexpectedEnd(expected: .word("null"))), ("nulL", .unexpectedByte(UInt8(ascii: "L"), expected: .word("null"))),
            ("[1] [2]", .trailingContent(UInt8(ascii: "["))), ("1 // note", .trailingContent(UInt8(ascii: "/"))),
            ("/* note */ 1", .unexpectedByte(UInt8(ascii: "/"), expected: .value)),
            // Only space, tab, line feed and carriage return are white space.
            ("\u{C}1", .unexpectedByte(0x0C, expected: .value)), ("\u{A0}1", .unexpectedByte(0xC2, expected: .value)),
            ("\"a\tb\"", .controlCharacter(0x09)), ("\"line\nbreak\"", .controlCharacter(0x0A)), ("\"\u{0}\"", .controlCharacter(0)),
            (#""\x41""#, .invalidEscape(UInt8(ascii: "x"))), (#""\'""#, .invalidEscape(UInt8(ascii: "'"))),
            (#""\U0041""#, .invalidEscape(UInt8(ascii: "U"))),
            (#""\u12""#, .invalidUnicodeEscape), (#""\u12G4""#, .invalidUnicodeEscape), (#""\u12"#, .unexpectedEnd(expected: .hexDigit)),
            (#""\uD800""#, .loneSurrogate(0xD800)), (#""\uDC00""#, .loneSurrogate(0xDC00)), (#""\uD83D\u0041""#, .loneSurrogate(0xD83D)),
            (#""\uD83Dx""#, .loneSurrogate(0xD83D)), (#""\uD83D\n""#, .loneSurrogate(0xD83D)), (#""\uDE00\uD83D""#, .loneSurrogate(0xDE00)),
            ("\"abc", .unexpectedEnd(expected: .endOfString)), ("\"abc\\", .unexpectedEnd(expected: .escape)),
        ]
        for (text, expected) in cases {
            #expect(reason(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        let quote: UInt8 = 0x22
        let cases: [([UInt8], Reason)] = [
            ([quote, 0xFF, quote], .invalidUTF8(0xFF)),
            ([quote, 0x80, quote], .invalidUTF8(0x80)),  // a continuation byte alone
            ([quote, 0xC0, 0x80, quote], .invalidUTF8(0xC0)),  // an overlong NUL
            ([quote, 0xE0, 0x80, 0x80, quote], .invalidUTF8(0x80)),  // overlong
            ([quote, 0xED, 0xA0, 0x80, quote], .invalidUTF8(0xA0)),  // a surrogate, encoded
            ([quote, 0xF4, 0x90, 0x80, 0x80, quote], .invalidUTF8(0x90)),  // past U+10FFFF
            ([quote, 0xF5, 0x80, 0x80, 0x80, quote], .invalidUTF8(0xF5)),
            ([quote, 0xE2, 0x82, quote], .invalidUTF8(quote)),  // cut short inside the string
            ([quote, 0xE2, 0x82], .unexpectedEnd(expected: .endOfString)),  // cut short by the end
            ([0xC3, 0xA9], .unexpectedByte(0xC3, expected: .value)),  // outside a string
            ([0xFE, 0xFF, 0x00, 0x31], .unexpectedByte(0xFE, expected: .value)),  // UTF-16
        ]
        for (bytes, expected) in cases {
            #expect(reason(bytes) == expected, "\(bytes)")
        }
    }

    @Test func refusesDuplicateKeysWhereTheSecondIs() {
        let error = JSONError.of(Array(#"{"duration": 1, "points": [], "duration": 2}"#.utf8))
        #expect(error?.reason == .duplicateKey("duration") && error?.offset == 30)
        #expect(error?.problem == #"the key "duration" appears twice in one object"#)
        // The same key in different objects is no duplicate.
        #expect(reason(#"{"a": {"a": 1}, "b": {"a": 2}}"#) == nil)
    }

    @Test func tenThousandNestedArraysOrObjectsAreRefusedNotRecursedInto() {
        let arrays = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = JSONError.of(Array(arrays.utf8))
        #expect(error?.reason == .tooDeep(limit: 64) && error?.offset == 64)
        let objects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(reason(objects) == .tooDeep(limit: 64))
        // 64 levels are allowed, 65 are not.
        #expect(reason(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        #expect(reason(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)) == .tooDeep(limit: 64))
        // Unclosed, so that only the limit stops it.
        #expect(reason(String(repeating: "[", count: 1_000_000)) == .tooDeep(limit: 64))
    }

    @Test func aRealDocumentCutShortAtEveryByteIsRefusedAsEndingEarly() throws {
        let bytes = try SessionFiles.largest().bytes
        #expect(reason(bytes) == nil)
        #expect(reason([]) == .noValue)
        // Every cut before the closing brace leaves a value unfinished.
        let closingBrace = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        for length in 1...closingBrace {
            let error = JSONError.of(bytes[..<length])
            guard case .unexpectedEnd = error?.reason else {
                Issue.record("cut at \(length): \(error?.description ?? "accepted")")
                continue
            }
            #expect(error?.offset == length)
        }
    }

    @Test func hugeNumbersAreReadOrRefusedQuickly() throws {
        // A megabyte of digits: strtod reads it (to 1e999999…, out of range) without stalling.
        let digits = "1" + String(repeating: "7", count: 1_000_000)
        #expect(reason(digits) == .numberOutOfRange)
        #expect(try JSONValue.parse(Array(("0." + String(repeating: "0", count: 1_000_000) + "1").utf8)) == .number(0))
        #expect(try JSONValue.parse(Array(("0." + String(repeating: "3", count: 100_000)).utf8)) == .number(1.0 / 3))
        // An exponent that would overflow an Int, cancelled by a long fraction: strtod decides.
        let cancelled = "0." + String(repeating: "0", count: 999_999) + "1e1000005"
        #expect(try JSONValue.parse(Array(cancelled.utf8)) == .number(1e5))
    }

    @Test func randomBytesNeverCrashTheReader() {
        var random = SplitMix64(seed: 8259)
        let alphabet = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
        var accepted = 0
        for _ in 0..<20_000 {
            let count = Int(random.next() % 24)
            let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if let value = try? JSONValue.parse(bytes) {
                accepted += 1
                // Whatever is accepted is JSON that Foundation reads as the same value.
                if let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) {
                    _ = object
                } else {
                    Issue.record("accepted \(String(decoding: bytes, as: UTF8.self).debugDescription) as \(value), which Foundation refuses")
                }
            }
        }
        #expect(accepted > 100)
    }
}
