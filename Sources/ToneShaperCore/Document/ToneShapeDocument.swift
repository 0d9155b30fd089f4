import FoundationEssentials

/// Why a document was refused: the file, the key and the problem, in words a user can act on.
public struct DocumentError: Error, Equatable, CustomStringConvertible, Sendable {
    public var source: String
    public var key: String?
    public var problem: String

    public init(source: String, key: String?, problem: String) {
        self.source = source
        self.key = key
        self.problem = problem
    }

    public var description: String {
        if let key { return "\(source): \(key): \(problem)" }
        return "\(source): \(problem)"
    }
}

/// Reading and writing tone-shape documents: the JSON of the original app's `.toneshaper`
/// files (SPEC 2), plus the optional keys this project adds.
public enum ToneShapeDocument {
    /// Documents larger than this are refused before parsing: no real tone shape comes
    /// near it, and parsing a huge file would stall whoever asked.
    public static let maximumSize = 16 * 1024 * 1024
    /// Bounds that keep a document's memory use sane (the curve grid holds fidelity + 2 doubles).
    public static let maximumFidelity = 2_000_000
    public static let maximumPoints = 1_000_000
    public static let maximumDuration = 24.0 * 3600

    /// Keys with a meaning here; all others are carried along untouched.
    static let knownKeys: Set<String> = [
        "points", "duration", "minFrequency", "maxFrequency", "componentType", "scaleType",
        "echoOffsetTimeSeconds", "echoVolume", "fidelity", "amplitude", "name", "description",
        "fourierTerms", "antiAlias",
    ]

    public static func decode(_ data: [UInt8], source: String) throws(DocumentError) -> ToneShape {
        func fail(_ key: String?, _ problem: String) -> DocumentError {
            DocumentError(source: source, key: key, problem: problem)
        }
        if data.isEmpty { throw fail(nil, "the file is empty; a tone-shape document is a JSON object") }
        if data.count > maximumSize {
            throw fail(nil, "the file is \(data.count) bytes, more than the \(maximumSize) a document may have")
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(data))
        } catch {
            throw fail(nil, "not valid JSON (\(jsonProblem(error))); is the file truncated or not a .toneshaper document?")
        }
        guard case .object(let object) = root else {
            throw fail(nil, "the document is \(root.typeName), expected a JSON object with keys such as \"points\" and \"duration\"")
        }
        let reader = KeyReader(object: object, fail: fail)

        let duration = try reader.number("duration")
        guard duration > 0 else { throw fail("duration", "must be greater than 0 seconds, got \(duration)") }
        guard duration <= maximumDuration else { throw fail("duration", "\(duration) s is longer than the \(Int(maximumDuration)) s a cycle may last") }
        let minFrequency = try reader.number("minFrequency")
        let maxFrequency = try reader.number("maxFrequency")
        guard minFrequency >= 0 else { throw fail("minFrequency", "must be 0 Hz or more, got \(minFrequency)") }
        guard maxFrequency >= minFrequency else {
            throw fail("maxFrequency", "\(maxFrequency) Hz is below minFrequency \(minFrequency) Hz")
        }
        let points = try reader.points(duration: duration)

        let wave = try reader.choice("componentType", default: .sine) { WaveType(name: $0) }
        let scale = try reader.choice("scaleType", default: .sine) { ScaleType(name: $0) }
        let echoOffset = try reader.number("echoOffsetTimeSeconds", default: 0)
        guard echoOffset >= 0, echoOffset <= duration else {
            throw fail("echoOffsetTimeSeconds", "must be between 0 and the duration \(duration) s, got \(echoOffset)")
        }
        let echoVolume = try reader.number("echoVolume", default: 1)
        guard (0...1).contains(echoVolume) else { throw fail("echoVolume", "must be between 0 and 1, got \(echoVolume)") }
        let fidelityValue = try reader.number("fidelity", default: 500)
        guard fidelityValue == fidelityValue.rounded(), fidelityValue >= 1, fidelityValue <= Double(maximumFidelity) else {
            throw fail("fidelity", "must be a whole number from 1 to \(maximumFidelity), got \(fidelityValue)")
        }
        let amplitude = try reader.number("amplitude", default: 0.25)
        guard (0...1).contains(amplitude) else { throw fail("amplitude", "must be between 0 and 1 (linear gain), got \(amplitude)") }
        let terms = try reader.fourierTerms()
        let antiAliased = try reader.bool("antiAlias", default: true)
        let name = try reader.optionalString("name")
        let description = try reader.optionalString("description")

        return ToneShape(points: points, duration: duration, minFrequency: minFrequency, maxFrequency: maxFrequency,
                         wave: wave, scale: scale, echoOffset: echoOffset, echoVolume: echoVolume,
                         fidelity: Int(fidelityValue), amplitude: amplitude, fourierTerms: terms,
                         antiAliased: antiAliased, name: name, description: description,
                         extraKeys: object.filter { !knownKeys.contains($0.key) })
    }

    public static func decode(_ text: String, source: String) throws(DocumentError) -> ToneShape {
        try decode(Array(text.utf8), source: source)
    }

    /// The document as JSON, keys sorted, readable by the original app (which ignores the
    /// keys it does not know).
    public static func encode(_ shape: ToneShape) -> [UInt8] {
        var object = shape.extraKeys
        object["points"] = .array(shape.points.map { .array([.number($0.time), .number($0.frequency)]) })
        object["duration"] = .number(shape.duration)
        object["minFrequency"] = .number(shape.minFrequency)
        object["maxFrequency"] = .number(shape.maxFrequency)
        object["componentType"] = .string(shape.wave.rawValue)
        object["scaleType"] = .string(shape.scale.rawValue)
        object["echoOffsetTimeSeconds"] = .number(shape.echoOffset)
        object["echoVolume"] = .number(shape.echoVolume)
        object["fidelity"] = .number(Double(shape.fidelity))
        object["amplitude"] = .number(shape.amplitude)
        switch shape.fourierTerms {
        case .count(let n): object["fourierTerms"] = .number(Double(n))
        case .nyquist: object["fourierTerms"] = .string("nyquist")
        }
        object["antiAlias"] = .bool(shape.antiAliased)
        if let name = shape.name { object["name"] = .string(name) }
        if let description = shape.description { object["description"] = .string(description) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue of finite numbers cannot fail.
        return Array((try? encoder.encode(JSONValue.object(object))) ?? Data("{}".utf8)) + [0x0A]
    }

    private static func jsonProblem(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            return underlying.count > 160 ? String(underlying.prefix(160)) + "…" : underlying
        }
        return "\(error)"
    }
}

/// Reads typed values out of a document object, turning every mismatch into a DocumentError.
private struct KeyReader {
    let object: [String: JSONValue]
    let fail: (String?, String) -> DocumentError

    func number(_ key: String, default fallback: Double? = nil) throws(DocumentError) -> Double {
        guard let value = object[key] else {
            if let fallback { return fallback }
            throw fail(key, "is required (a number) but missing")
        }
        return try finiteNumber(value, key)
    }

    func finiteNumber(_ value: JSONValue, _ key: String) throws(DocumentError) -> Double {
        guard case .number(let d) = value else { throw fail(key, "must be a number, got \(value.typeName)") }
        guard d.isFinite else { throw fail(key, "must be a finite number, got \(d)") }
        return d
    }

    func bool(_ key: String, default fallback: Bool) throws(DocumentError) -> Bool {
        guard let value = object[key] else { return fallback }
        guard case .bool(let b) = value else { throw fail(key, "must be true or false, got \(value.typeName)") }
        return b
    }

    func optionalString(_ key: String) throws(DocumentError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard case .string(let s) = value else { throw fail(key, "must be a string, got \(value.typeName)") }
        return s
    }

    func choice<T>(_ key: String, default fallback: T, _ parse: (String) -> T?) throws(DocumentError) -> T
    where T: CaseIterable & RawRepresentable, T.RawValue == String {
        guard let value = object[key] else { return fallback }
        guard case .string(let s) = value else { throw fail(key, "must be a string, got \(value.typeName)") }
        guard let parsed = parse(s) else {
            let known = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw fail(key, "unknown name \"\(s)\"; use one of \(known)")
        }
        return parsed
    }

    func fourierTerms() throws(DocumentError) -> FourierTerms {
        guard let value = object["fourierTerms"] else { return .default }
        switch value {
        case .string(let s) where s.lowercased() == "nyquist": return .nyquist
        case .number(let d) where d.isFinite && d == d.rounded() && d >= 1 && d <= Double(Int32.max):
            return .count(Int(d))
        default:
            throw fail("fourierTerms", "must be a whole number of at least 1 or \"nyquist\", got \(value.typeName)")
        }
    }

    func points(duration: Double) throws(DocumentError) -> [CurvePoint] {
        guard let value = object["points"] else { throw fail("points", "is required (an array of [time, frequency] pairs) but missing") }
        guard case .array(let items) = value else { throw fail("points", "must be an array of [time, frequency] pairs, got \(value.typeName)") }
        guard !items.isEmpty else { throw fail("points", "must hold at least one [time, frequency] pair") }
        guard items.count <= ToneShapeDocument.maximumPoints else {
            throw fail("points", "holds \(items.count) points, more than the \(ToneShapeDocument.maximumPoints) allowed")
        }
        var points: [CurvePoint] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let key = "points[\(i)]"
            guard case .array(let pair) = item, pair.count == 2 else {
                throw fail(key, "must be a [time, frequency] pair, got \(item.typeName)")
            }
            let t = try finiteNumber(pair[0], key + "[0]")
            let f = try finiteNumber(pair[1], key + "[1]")
            guard t >= 0 else { throw fail(key, "time \(t) is negative") }
            guard t <= duration else { throw fail(key, "time \(t) is beyond duration \(duration)") }
            guard f >= 0 else { throw fail(key, "frequency \(f) Hz is negative") }
            if let last = points.last, t < last.time {
                throw fail(key, "time \(t) comes before the previous point's \(last.time); points must be sorted by time")
            }
            points.append(CurvePoint(time: t, frequency: f))
        }
        return points
    }
}
