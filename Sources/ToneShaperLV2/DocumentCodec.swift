import ToneShaperAudio
import ToneShaperJSON

/// Why a document (a state, a loaded file) was refused, in words for the host's log.
struct DocumentProblem: Error {
    let message: String
}

/// The `.toneshaper` document as the plugin reads and writes it: the node's format (SPEC 2
/// and the keys this project adds), through the one JSON reader and writer the node uses
/// (ToneShaperJSON). The keys, kinds, ranges and defaults come from the parameter table,
/// by way of the generated `PluginTable`; a document the node refuses is refused here too
/// (a test loads every built-in document and every hostile one into both and compares).
enum DocumentCodec {
    /// The largest document read (the node's limit).
    static let maximumSize = 16 * 1024 * 1024

    /// The shape `bytes` describe, and the document's object (its keys this plugin does
    /// not use are written back when the state is saved).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(DocumentProblem) -> (InstrumentShape, [String: JSONValue]) {
        guard !bytes.isEmpty else { throw DocumentProblem(message: "the document is empty; a tone-shape document is a JSON object") }
        guard bytes.count <= maximumSize else { throw DocumentProblem(message: "the document is larger than 16 MB") }
        let root: JSONValue
        do {
            root = try JSONValue.parse(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
        } catch {
            throw DocumentProblem(message: "not valid JSON (" + error.problem + "); is it truncated or not a .toneshaper document?")
        }
        guard case .object(let object) = root else {
            throw DocumentProblem(message: "the document is " + root.typeName + ", expected a JSON object with keys such as \"points\"")
        }
        let parameters = PluginTable.parameters
        var values: [Double] = []
        for row in 0..<parameters.count {
            let key = PluginTable.documentKey(row: row)
            guard let json = object[key], json != .null else {
                guard let value = PluginTable.defaultValue(row: row) else { throw DocumentProblem(message: key + ": is required but missing") }
                values.append(value)
                continue
            }
            guard let value = number(json, row: row) else { throw DocumentProblem(message: key + ": is not a value of its kind, or out of range") }
            values.append(value)
        }
        let points = try readPoints(object["points"])
        let controllers = try readControllers(object["midiMap"])
        // The relations the node checks: an ordered range, the echo within the cycle, the
        // points within the cycle and the frequency limit, in time order.
        let index = { (id: ParameterID) in parameters.index(of: id) }
        guard values[index(.minFrequency)] <= values[index(.maxFrequency)] else {
            throw DocumentProblem(message: "minFrequency: is above maxFrequency")
        }
        let duration = values[index(.duration)]
        guard values[index(.echoOffset)] <= duration else { throw DocumentProblem(message: "echoOffset: is beyond the cycle's duration") }
        var previous = 0.0
        for (k, p) in points.enumerated() {
            guard p.time.isFinite, p.frequency.isFinite, p.time >= 0, p.time <= duration, p.time >= previous,
                p.frequency >= 0, p.frequency <= FrequencyLimit.maximum
            else {
                throw DocumentProblem(message: "points: point " + String(k) + " is outside the cycle or the frequency limit, or out of time order")
            }
            previous = p.time
        }
        return (InstrumentShape(parameters: parameters, points: points, values: values, controllers: controllers), object)
    }

    /// The document of `shape` as it is heard, pretty and with sorted keys as the node
    /// writes it: `kept`'s keys (the loaded document's name, description and keys unknown
    /// here), then every parameter (the range and the echo as played, so the node reads it),
    /// the points as played and the controller map.
    static func encode(_ shape: borrowing InstrumentShape, keeping kept: [String: JSONValue]) -> [UInt8] {
        var object = kept
        for row in 0..<shape.parameters.count {
            let value = shape.playedValue(at: row)
            let key = PluginTable.documentKey(row: row)
            switch PluginTable.kind(row: row) {
            case .real, .integer: object[key] = .number(value)
            case .toggle: object[key] = .bool(value != 0)
            case .choice:
                let names = PluginTable.names(row: row)
                object[key] = .string(names[max(0, min(names.count - 1, Int(value)))])
            case .terms: object[key] = value >= 1 ? .number(value) : .string("nyquist")
            }
        }
        object["points"] = .array(shape.playedPoints.map { .array([.number($0.time), .number($0.frequency)]) })
        object["midiMap"] = nil
        var map: [String: JSONValue] = [:]
        for (controller, id) in shape.controllers.entries {
            map[String(controller)] = .string(PluginTable.documentKey(row: shape.parameters.index(of: id)))
        }
        if !map.isEmpty { object["midiMap"] = .object(map) }
        return JSONValue.object(object).serialized(pretty: true, sortedKeys: true) + [0x0A]
    }

    /// A parameter's value as its control port carries it, or nil when `json` is not one
    /// of its kind or lies outside its range (as the node's `ParameterKind.canonical`).
    private static func number(_ json: JSONValue, row: Int) -> Double? {
        let parameters = PluginTable.parameters
        let low = parameters[row].low
        let high = parameters[row].high
        switch PluginTable.kind(row: row) {
        case .real:
            guard case .number(let d) = json, d.isFinite, d >= low, d <= high else { return nil }
            return d
        case .integer:
            guard case .number(let d) = json, d == d.rounded(), d >= low, d <= high else { return nil }
            return d
        case .toggle:
            switch json {
            case .bool(let b): return b ? 1 : 0
            case .number(let d) where d == 0 || d == 1: return d
            case .string(let s):
                let word = nameKey(s)
                if word == "true" || word == "on" || word == "yes" || word == "1" { return 1 }
                if word == "false" || word == "off" || word == "no" || word == "0" { return 0 }
                return nil
            default: return nil
            }
        case .choice:
            let names = PluginTable.names(row: row)
            switch json {
            case .string(let s):
                let wanted = nameKey(s)
                for (i, name) in names.enumerated() where nameKey(name) == wanted { return Double(i) }
                return nil
            case .number(let d) where d == d.rounded() && d >= 0 && d < Double(names.count): return d
            default: return nil
            }
        case .terms:
            switch json {
            case .string(let s) where nameKey(s) == "nyquist": return 0
            case .number(let d) where d == d.rounded() && d >= 1 && d <= Double(Int32.max): return d
            default: return nil
            }
        }
    }

    private static func readPoints(_ json: JSONValue?) throws(DocumentProblem) -> [CurvePoint] {
        guard let json else { throw DocumentProblem(message: "points: is required (an array of [time, frequency] pairs) but missing") }
        guard case .array(let items) = json, !items.isEmpty, items.count <= ToneShapeLimits.maximumPoints else {
            throw DocumentProblem(message: "points: must be an array of 1 to 1000000 [time, frequency] pairs")
        }
        var points: [CurvePoint] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .array(let pair) = item, pair.count == 2, case .number(let t) = pair[0], case .number(let f) = pair[1] else {
                throw DocumentProblem(message: "points[" + String(i) + "]: must be a [time, frequency] pair of numbers")
            }
            points.append(CurvePoint(time: t, frequency: f))
        }
        return points
    }

    /// `"midiMap": {"74": "maxFrequency"}`: controllers to parameters, named by document
    /// key, OSC address or option, as the node reads it.
    private static func readControllers(_ json: JSONValue?) throws(DocumentProblem) -> MIDIControllerMap {
        guard let json, json != .null else { return MIDIControllerMap() }
        guard case .object(let entries) = json else {
            throw DocumentProblem(message: "midiMap: must be an object of controller numbers to parameters")
        }
        var map = MIDIControllerMap()
        for (key, value) in entries {
            guard let controller = Int(key), MIDIControllerMap.isMappable(controller) else {
                throw DocumentProblem(message: "midiMap: a key is not a controller 0...119 other than 64")
            }
            guard case .string(let name) = value, let row = PluginTable.row(named: name),
                PluginTable.parameters[row].controller.shape != .none
            else {
                throw DocumentProblem(message: "midiMap: controller " + key + " names no parameter a controller can move")
            }
            map[controller] = PluginTable.parameters[row].id
        }
        return map
    }

    /// A name as people type it: ASCII lower case, '-' and '_' as spaces, runs of spaces as one.
    static func nameKey(_ s: String) -> String {
        var out: [UInt8] = []
        for var c in s.utf8 {
            if c >= 0x41 && c <= 0x5A { c += 0x20 }
            if c == 0x2D || c == 0x5F { c = 0x20 }
            if c == 0x20 && (out.isEmpty || out.last == 0x20) { continue }
            out.append(c)
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}
