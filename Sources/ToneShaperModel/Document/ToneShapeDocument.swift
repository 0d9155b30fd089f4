import ToneShaperJSON
import ToneShaperParameters

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
/// files (SPEC 2), plus the optional keys this project adds. The keys, their defaults and
/// their checks come from `ParameterTable`; only the curve, the name and the description
/// are read here.
public enum ToneShapeDocument {
    /// Documents larger than this are refused before parsing: no real tone shape comes
    /// near it, and parsing a huge file would stall whoever asked.
    public static let maximumSize = 16 * 1024 * 1024

    /// Keys with a meaning here; all others are carried along untouched.
    package static let knownKeys: Set<String> = Set(
        ParameterTable.all.map { $0.documentKey } + ["points", "curvatures", "name", "description", "midiMap", "tuning"])

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
            root = try JSONValue.parse(data, limits: JSONLimits(maximumSize: maximumSize))
        } catch {
            throw fail(nil, "not valid JSON (\(error)); is the file truncated or not a .toneshaper document?")
        }
        guard case .object(let object) = root else {
            throw fail(nil, "the document is \(root.typeName), expected a JSON object with keys such as \"points\" and \"duration\"")
        }

        var shape = ToneShape.tableDefaults
        for spec in ParameterTable.all {
            guard let json = object[spec.documentKey], json != .null else {
                if spec.requiredInDocument {
                    throw fail(spec.documentKey, "is required (\(spec.kind.describeValues(unit: spec.unit))) but missing")
                }
                continue
            }
            let value: ParameterValue
            switch json {
            case .number(let d): value = .real(d)
            case .string(let s): value = .text(s)
            case .bool(let b): value = .flag(b)
            default: throw fail(spec.documentKey, "must be \(spec.kind.describeValues(unit: spec.unit)), got \(json.typeName)")
            }
            do {
                spec.store(&shape, try spec.canonical(value))
            } catch {
                throw fail(spec.documentKey, error.problem)
            }
        }
        shape.points = try readPoints(object["points"], fail: fail)
        shape.curvatures = try readCurvatures(object["curvatures"], segments: shape.points.count - 1, fail: fail)
        shape.name = try optionalString(object, "name", fail: fail)
        shape.description = try optionalString(object, "description", fail: fail)
        shape.midiMap = try readMIDIMap(object["midiMap"], fail: fail)
        shape.tuning = try readTuning(object["tuning"], fail: fail)
        shape.extraKeys = object.filter { !knownKeys.contains($0.key) }
        do {
            try shape.checkRelations()
        } catch {
            throw fail(documentKey(error.subject), error.problem)
        }
        return shape
    }

    public static func decode(_ text: String, source: String) throws(DocumentError) -> ToneShape {
        try decode(Array(text.utf8), source: source)
    }

    /// The document as JSON, keys sorted, readable by the original app (which ignores the
    /// keys it does not know).
    public static func encode(_ shape: ToneShape) -> [UInt8] {
        var object = shape.extraKeys
        object["points"] = .array(shape.points.map { .array([.number($0.time), .number($0.frequency)]) })
        // Left out while every segment is straight: such a document reads and writes as before.
        if shape.curvatures.count == shape.points.count - 1, shape.curvatures.contains(where: { $0 != 0 }) {
            object["curvatures"] = .array(shape.curvatures.map { .number($0) })
        }
        for spec in ParameterTable.all {
            // A row added after the first release is written only when it differs from its
            // default, so a document that never used it reads and writes as it did before
            // the row came (byte for byte), and older readers see nothing new.
            if spec.addedIn != ParameterTable.firstRelease, let value = spec.defaultValue, spec.value(in: shape) == value { continue }
            switch spec.value(in: shape) {
            case .real(let d): object[spec.documentKey] = .number(d)
            case .integer(let i): object[spec.documentKey] = .number(Double(i))
            case .text(let s): object[spec.documentKey] = .string(s)
            case .flag(let b): object[spec.documentKey] = .bool(b)
            }
        }
        if let name = shape.name { object["name"] = .string(name) }
        if let description = shape.description { object["description"] = .string(description) }
        if !shape.midiMap.isEmpty {
            object["midiMap"] = .object(
                Dictionary(
                    uniqueKeysWithValues: shape.midiMap.entries.map {
                        (String($0.key), JSONValue.string(ParameterTable.spec($0.value).documentKey))
                    }))
        }
        if let tuning = shape.tuning {
            var texts: [String: JSONValue] = ["scale": .string(tuning.scaleText)]
            if let map = tuning.keyboardMapText { texts["keyboardMap"] = .string(map) }
            object["tuning"] = .object(texts)
        }
        // As JSONEncoder wrote it with .prettyPrinted, .sortedKeys, .withoutEscapingSlashes.
        return JSONValue.object(object).serialized(pretty: true, sortedKeys: true) + [0x0A]
    }

    /// What is worth a warning in a document that loaded: keys that look like misspelt
    /// known keys (kept, but meaning nothing here), and points that do not span the cycle.
    public static func warnings(for shape: ToneShape) -> [String] {
        var warnings: [String] = []
        for key in shape.extraKeys.keys.sorted() {
            if let near = knownKeys.min(by: { editDistance($0, key) < editDistance($1, key) }),
                editDistance(near, key) <= max(1, key.count / 4)
            {
                warnings.append("unknown key \"\(key)\"; did you mean \"\(near)\"? (kept when saving, but not used)")
            }
        }
        if shape.pointsLeaveGaps, let first = shape.points.first, let last = shape.points.last {
            warnings.append(
                "the points span \(ParameterKind.plain(first.time))...\(ParameterKind.plain(last.time)) s of a \(ParameterKind.plain(shape.duration)) s cycle; "
                    + "the curve is stretched so that its first and last point reach the cycle's start and end (as in the original app)")
        }
        return warnings
    }

    /// `"curvatures": [0, 0.5, -0.25]`: one number in -1...1 a segment (the points less one).
    /// All straight reads as none.
    private static func readCurvatures(_ json: JSONValue?, segments: Int, fail: (String?, String) -> DocumentError) throws(DocumentError)
        -> [Double]
    {
        guard let json, json != .null else { return [] }
        guard case .array(let items) = json else { throw fail("curvatures", "must be an array of numbers in -1...1, one a segment") }
        guard items.count == segments else {
            throw fail(
                "curvatures",
                "holds \(items.count) number\(items.count == 1 ? "" : "s") for \(segments) segment\(segments == 1 ? "" : "s") (one fewer than the points)"
            )
        }
        var curvatures: [Double] = []
        for (i, item) in items.enumerated() {
            guard case .number(let c) = item else { throw fail("curvatures[\(i)]", "must be a number in -1...1, got \(item.typeName)") }
            guard c.isFinite, SegmentCurvature.range.contains(c) else {
                throw fail("curvatures[\(i)]", "must be in -1...1 (0 is straight), got \(ParameterKind.plain(c))")
            }
            curvatures.append(c)
        }
        return curvatures.contains { $0 != 0 } ? curvatures : []
    }

    /// `"midiMap": {"74": "maxFrequency", "1": "frequency/min"}`: controller numbers to
    /// parameters, by document key or OSC address.
    private static func readMIDIMap(_ json: JSONValue?, fail: (String?, String) -> DocumentError) throws(DocumentError) -> MIDIControllerMap {
        guard let json, json != .null else { return MIDIControllerMap() }
        guard case .object(let object) = json else {
            throw fail("midiMap", "must be an object of controller numbers to parameters, such as {\"74\": \"maxFrequency\"}")
        }
        var map = MIDIControllerMap()
        for (key, value) in object {
            guard let controller = Int(key), MIDIControllerMap.isMappable(controller) else {
                throw fail("midiMap", "\"\(key)\" is not a controller number 0...119 other than 64 (the sustain pedal)")
            }
            guard case .string(let name) = value, let id = MIDIControllerMap.parameter(named: name), MIDIControllerMap.canMap(id) else {
                throw fail("midiMap", "controller \(key): \(value) is not a parameter a controller can move")
            }
            map[controller] = id
        }
        return map
    }

    /// `"tuning": {"scale": "<the .scl file's text>", "keyboardMap": "<the .kbm file's text>"}`,
    /// the keyboard map optional: the MIDI keys' tuning (`Tuning`).
    private static func readTuning(_ json: JSONValue?, fail: (String?, String) -> DocumentError) throws(DocumentError) -> Tuning? {
        guard let json, json != .null else { return nil }
        guard case .object(let object) = json, case .string(let scale)? = object["scale"] else {
            throw fail("tuning", "must be an object with the Scala scale's text under \"scale\" (and a keyboard map's under \"keyboardMap\")")
        }
        var map: String?
        switch object["keyboardMap"] {
        case .none, .null?: map = nil
        case .string(let text)?: map = text
        case let other?: throw fail("tuning", "keyboardMap must be the text of a .kbm file, got \(other.typeName)")
        }
        do {
            return try Tuning(scale: scale, keyboardMap: map)
        } catch {
            throw fail("tuning", error.description)
        }
    }

    private static func documentKey(_ subject: ControlError.Subject) -> String? {
        switch subject {
        case .parameter(let id): return ParameterTable.spec(id).documentKey
        case .command(.points): return "points"
        default: return nil
        }
    }

    private static func readPoints(_ value: JSONValue?, fail: (String?, String) -> DocumentError) throws(DocumentError) -> [CurvePoint] {
        guard let value else { throw fail("points", "is required (an array of [time, frequency] pairs) but missing") }
        guard case .array(let items) = value else { throw fail("points", "must be an array of [time, frequency] pairs, got \(value.typeName)") }
        guard items.count <= ToneShapeLimits.maximumPoints else {
            throw fail("points", "holds \(items.count) points, more than the \(ToneShapeLimits.maximumPoints) allowed")
        }
        var points: [CurvePoint] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .array(let pair) = item, pair.count == 2,
                case .number(let t) = pair[0], case .number(let f) = pair[1]
            else {
                throw fail("points[\(i)]", "must be a [time, frequency] pair of numbers, got \(item.typeName)")
            }
            points.append(CurvePoint(time: t, frequency: f))
        }
        return points
    }

    private static func optionalString(
        _ object: [String: JSONValue], _ key: String,
        fail: (String?, String) -> DocumentError
    ) throws(DocumentError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard case .string(let s) = value else { throw fail(key, "must be a string, got \(value.typeName)") }
        return s
    }

    /// Levenshtein distance, case-insensitive: how far a typed key is from a known one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...y.count {
                let above = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[y.count]
    }
}
