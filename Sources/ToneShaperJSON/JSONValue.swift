/// A JSON value of any shape, so that a document can be read key by key with precise
/// error messages, and keys this project does not know survive a save.
///
/// This module reads and writes JSON with nothing but the standard library and a few C
/// number functions, so that the node and the LV2 plugin (Embedded Swift, no Foundation)
/// share one reader and one writer: `parse(_:limits:)` and `serialized(pretty:sortedKeys:)`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A short name of the type, for error messages ("a number", "an array").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
