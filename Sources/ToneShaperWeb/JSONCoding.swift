import Foundation
import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters

/// FlyingFox has a JSONValue of its own; this module means the core's.
typealias JSONValue = ToneShaperJSON.JSONValue

// The web side reads and writes JSON with ToneShaperJSON, as documents and the plugin do:
// one reader, strict, bounded by limits (`WebLimits.json`), with errors that say what and
// where; one writer, whose numbers and escapes are those of saved documents.

extension JSONValue {
    /// Reads a request body or a WebSocket message within `WebLimits.json`: a text too long
    /// or nested too deep is refused before it can cost more than the limits allow.
    static func parseRequest(_ bytes: some Collection<UInt8>) throws(JSONError) -> JSONValue {
        try JSONValue.parse(bytes, limits: WebLimits.json)
    }

    /// Compact JSON text, keys sorted.
    var encoded: Data { Data(serialized(sortedKeys: true)) }

    var text: String { String(decoding: serialized(sortedKeys: true), as: UTF8.self) }

    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    var number: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    /// A parameter's value as JSON: numbers, names and flags as themselves.
    init(_ value: ParameterValue) {
        switch value {
        case .real(let d): self = .number(d)
        case .integer(let i): self = .number(Double(i))
        case .text(let s): self = .string(s)
        case .flag(let b): self = .bool(b)
        }
    }

    /// A JSON argument as the core's value: whole numbers become integers (so a choice can
    /// be given by index), other numbers reals, strings text, booleans flags. Null, arrays
    /// and objects are not values.
    var parameterValue: ParameterValue? {
        switch self {
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? .integer(Int(d)) : .real(d)
        case .string(let s): return .text(s)
        case .bool(let b): return .flag(b)
        case .null, .array, .object: return nil
        }
    }
}

/// The core's `state` and `stats` fields (`ControlState.parameterFields`,
/// `NodeStatistics.fields`) as JSON objects.
enum StateJSON {
    /// The whole state as the page and `GET /state` show it: every parameter by its address
    /// below the prefix, the points as [t, f] pairs (and the segments'
    /// `curvatures` when any bends), whether it plays, and the revision; with a tuning set,
    /// `pitchGrid`, its keys' frequencies in Hz (what the page's pitch snap snaps to).
    static func object(_ state: ControlState) -> JSONValue {
        var object: [String: JSONValue] = [
            "parameters": fields(state.parameterFields.map { ($0.address, $0.value) }),
            "points": points(state.shape.points),
            "playing": .bool(state.playing),
            "revision": .number(Double(state.revision)),
        ]
        // Left out while every segment is straight, as the document leaves it out.
        if !state.shape.curvatures.isEmpty { object["curvatures"] = .array(state.shape.curvatures.map(JSONValue.number)) }
        // With a tuning set, the frequencies of its keys: the page snaps pitches to them.
        if let tuning = state.shape.tuning {
            let keys = Set(tuning.frequencies(rootNote: state.shape.performance.rootNote).compactMap { $0 })
            object["pitchGrid"] = .array(keys.sorted().map(JSONValue.number))
        }
        if let name = state.shape.name { object["name"] = .string(name) }
        if let description = state.shape.description { object["description"] = .string(description) }
        if let tuning = state.shape.tuning { object["tuning"] = self.tuning(tuning) }
        return .object(object)
    }

    /// What tuning plays, for an editor to show: the scale's description line, its degrees
    /// in cents above the unison (the period last), and the keyboard map's size and formal
    /// octave when there is a map (absent: the scale laid out from the root note).
    static func tuning(_ tuning: Tuning) -> JSONValue {
        var object: [String: JSONValue] = [
            "description": .string(tuning.scale.description), "cents": .array(tuning.scale.cents.map(JSONValue.number)),
        ]
        if let map = tuning.mapping {
            object["keyboardMap"] = .object(["size": .number(Double(map.size)), "octaveDegree": .number(Double(map.octaveDegree))])
        }
        return .object(object)
    }

    static func stats(_ figures: NodeStatistics) -> JSONValue { fields(figures.fields.map { ($0.name, $0.value) }) }

    static func points(_ points: [CurvePoint]) -> JSONValue { .array(points.map { .array([.number($0.time), .number($0.frequency)]) }) }

    private static func fields(_ fields: [(String, ParameterValue)]) -> JSONValue {
        .object(Dictionary(fields.map { ($0.0, JSONValue($0.1)) }, uniquingKeysWith: { $1 }))
    }
}

extension JSONError {
    /// Why a request was not taken, for its sender: over a limit of `WebLimits.json` (the
    /// text may well be JSON), or not JSON at all; with where.
    var requestProblem: String {
        switch reason {
        case .tooLarge, .tooDeep: return "refused (\(description))"
        default: return "not JSON (\(description))"
        }
    }
}
