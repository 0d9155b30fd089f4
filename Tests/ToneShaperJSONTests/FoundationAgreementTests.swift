import Foundation
import Testing
import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel

/// The reader and writer against the Foundation path documents were read and written by
/// before ToneShaperJSON (JSONDecoder and JSONEncoder through a Codable bridge, kept here as
/// the reference): the same trees from the same files, the same bytes from the same trees.
/// Foundation is used here only.
@Suite struct FoundationAgreementTests {
    static func foundationRead(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONDecoder().decode(FoundationBridge.self, from: Data(bytes)).value
    }

    static func foundationWrite(_ value: JSONValue, pretty: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(FoundationBridge(value)))
    }

    @Test func everySessionsDocumentReadsAsFoundationReadsIt() throws {
        let files = try SessionFiles.all()
        #expect(files.count >= 12)
        for file in files {
            let new = try JSONValue.parse(file.bytes)
            #expect(new == (try Self.foundationRead(file.bytes)), "\(file.name)")
            #expect(try JSONValue.parse(new.serialized(pretty: true, sortedKeys: true)) == new, "\(file.name)")
        }
    }

    @Test func everySessionsDocumentIsWrittenAsJSONEncoderWroteIt() throws {
        for file in try SessionFiles.all() {
            let value = try JSONValue.parse(file.bytes)
            #expect(value.serialized(pretty: true, sortedKeys: true) == (try Self.foundationWrite(value, pretty: true)), "\(file.name)")
            #expect(value.serialized(pretty: false, sortedKeys: true) == (try Self.foundationWrite(value, pretty: false)), "\(file.name)")
            // And the document, through ToneShapeDocument, is saved byte for byte as before.
            let shape = try ToneShapeDocument.decode(file.bytes, source: file.name)
            let saved = ToneShapeDocument.encode(shape)
            #expect(saved == (try Self.foundationWrite(try JSONValue.parse(saved), pretty: true)) + [0x0A], "\(file.name)")
        }
    }

    @Test func randomTreesAreWrittenAsJSONEncoderWritesThemAndReadBack() throws {
        var random = RandomJSON(seed: 2024)
        for _ in 0..<300 {
            let value = random.value(depth: 0)
            let pretty = value.serialized(pretty: true, sortedKeys: true)
            let compact = value.serialized(pretty: false, sortedKeys: true)
            #expect(pretty == (try Self.foundationWrite(value, pretty: true)))
            #expect(compact == (try Self.foundationWrite(value, pretty: false)))
            #expect(try JSONValue.parse(pretty) == value)
            #expect(try JSONValue.parse(compact) == value)
            #expect(try JSONValue.parse(value.serialized()) == value)
            #expect(try Self.foundationRead(compact) == value)
        }
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThemAndReadBackExactly() throws {
        var random = RandomJSON(seed: 754)
        var numbers: [Double] = []
        for _ in 0..<20_000 { numbers.append(random.number()) }
        // Edges of the layout: the exponent from 10^-5 down and above 2^53.
        numbers += [1e-4, 9.999999999999999e-5, 1e-5, 0.00012345, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e15, 1e15 + 0.5, 1e16, 1e21, 1e22]
        let written = try Self.foundationWrite(.array(numbers.map(JSONValue.number)), pretty: false)
        #expect(JSONValue.array(numbers.map(JSONValue.number)).serialized(sortedKeys: true) == written)
        for number in numbers {
            let text = JSONValue.number(number).serialized()
            let back = try JSONValue.parse(text)
            // Whole numbers below 10^15 are written as integers, so -0 comes back as 0.
            #expect(back == .number(number == 0 ? 0 : number), "\(number) written as \(String(decoding: text, as: UTF8.self))")
            if case .number(let read) = back, number != 0 { #expect(read.bitPattern == number.bitPattern) }
        }
    }

    @Test func numberTextIsReadAsStrtodReadsIt() throws {
        // The reader skips strtod when the digits and the power of ten are exact doubles:
        // it must agree with strtod on every text, fast path or not.
        var random = SplitMix64(seed: 1990)
        for _ in 0..<20_000 {
            let integerDigits = Int(random.next() % 20) + 1
            var text = random.next() % 4 == 0 ? "-" : ""
            text += String(Int(random.next() % 9) + 1)
            for _ in 1..<integerDigits { text += String(random.next() % 10) }
            if random.next() % 2 == 0 {
                text += "."
                for _ in 0...(random.next() % 20) { text += String(random.next() % 10) }
            }
            if random.next() % 2 == 0 { text += "e" + String(Int(random.next() % 80) - 40) }
            let expected = strtod(text, nil)
            let value = try JSONValue.parse(Array(text.utf8))
            guard case .number(let read) = value else {
                Issue.record("\(text) read as \(value)")
                continue
            }
            #expect(read.bitPattern == expected.bitPattern, "\(text): \(read), strtod \(expected)")
        }
    }

    @Test func documentsWithExtraKeysAreSavedAsBefore() throws {
        var shape = ToneShape.defaultShape
        shape.name = "quote \" slash / tab \t é 😀"
        shape.extraKeys = [
            "empty": .array([]), "nothing": .object([:]), "nested": .object(["list": .array([.null, .bool(false), .number(-1.5e-7)])]),
            "control": .string("\u{1}\u{1F}\u{7F}"),
        ]
        let saved = ToneShapeDocument.encode(shape)
        #expect(saved == (try Self.foundationWrite(try JSONValue.parse(saved), pretty: true)) + [0x0A])
        #expect(try ToneShapeDocument.decode(saved, source: "saved") == shape)
    }
}

/// Random JSON trees with the awkward parts: every control character, quotes,
/// backslashes, slashes, characters beyond the BMP, doubles of every magnitude.
struct RandomJSON {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func value(depth: Int) -> JSONValue {
        switch random.next() % (depth >= 4 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number(number())
        case 3, 4: return .string(string())
        case 5: return .array((0..<random.next() % 6).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.next() % 6 { members[string()] = value(depth: depth + 1) }
            return .object(members)
        }
    }

    mutating func number() -> Double {
        switch random.next() % 9 {
        case 0:
            // Any finite bit pattern: subnormals, huge, tiny.
            while true {
                let number = Double(bitPattern: random.next())
                if number.isFinite { return number }
            }
        case 1: return Double(Int64(bitPattern: random.next()) % (1 << 53))
        case 2: return Double(Int64(bitPattern: random.next()) % 10_000_000) / 100
        case 3: return Double(Int64(bitPattern: random.next()) % 1_000_000) * pow(10, Double(Int(random.next() % 60) - 30))
        case 4: return Double(random.next() % 1000) / Double(random.next() % 999 + 1)
        case 5: return 9_007_199_254_740_992 + Double(Int(random.next() % 64) - 32) * 2
        case 6: return Double(bitPattern: random.next() % (1 << 52))  // subnormal
        case 7: return Double(bitPattern: random.next() % 100_000)  // subnormal, a few digits
        default: return Double(bitPattern: 0x3F00_0000_0000_0000 | random.next() >> 12)  // near 10^-4…10^-5
        }
    }

    mutating func string() -> String {
        let pool: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}",
            "é", "€", "\u{2028}", "\u{FFFF}", "😀", "\u{10FFFF}", "{", "]", ":", ",",
        ]
        var text = ""
        for _ in 0..<random.next() % 12 { text.unicodeScalars.append(pool[Int(random.next() % UInt64(pool.count))]) }
        return text
    }
}

/// The documents under Sessions/.
enum SessionFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sessions")

    static func all() throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".toneshaper") }.sorted().map {
            (name: $0, bytes: Array(try Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    static func largest() throws -> (name: String, bytes: [UInt8]) {
        try #require(try all().max { $0.bytes.count < $1.bytes.count })
    }
}

/// A JSON value through Codable, as the project's documents once were: booleans before
/// numbers (so that true is not read as 1), whole numbers below 10^15 written as integers.
struct FoundationBridge: Codable {
    var value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            value = .null
        } else if let b = try? c.decode(Bool.self) {
            value = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            value = .number(d)
        } else if let s = try? c.decode(String.self) {
            value = .string(s)
        } else if let a = try? c.decode([FoundationBridge].self) {
            value = .array(a.map(\.value))
        } else if let o = try? c.decode([String: FoundationBridge].self) {
            value = .object(o.mapValues(\.value))
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value")
        }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch value {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d):
            if d == d.rounded(), abs(d) < 1e15 { try c.encode(Int64(d)) } else { try c.encode(d) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a.map(FoundationBridge.init))
        case .object(let o): try c.encode(o.mapValues(FoundationBridge.init))
        }
    }
}
