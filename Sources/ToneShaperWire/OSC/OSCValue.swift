/// One OSC argument, as sent or received.
public enum OSCValue: Equatable, Sendable, CustomStringConvertible {
    case int32(Int32)
    case int64(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case bool(Bool)
    /// 'N'
    case null
    /// 'I'
    case impulse
    /// 'b'; only its size is kept (nothing here takes blobs).
    case blob(byteCount: Int)
    /// Any type this node has no use for ('c', 'm', 't', ...), by its type tag.
    case other(typeTag: Character)

    /// The OSC type tag.
    public var typeTag: Character {
        switch self {
        case .int32: return "i"
        case .int64: return "h"
        case .float: return "f"
        case .double: return "d"
        case .string: return "s"
        case .bool(let b): return b ? "T" : "F"
        case .null: return "N"
        case .impulse: return "I"
        case .blob: return "b"
        case .other(let tag): return tag
        }
    }

    /// The value as a number, for any of the four numeric types (SPEC 10: numeric
    /// arguments accept int or float).
    public var number: Double? {
        switch self {
        case .int32(let i): return Double(i)
        case .int64(let i): return Double(i)
        case .float(let f): return Double(f)
        case .double(let d): return d
        default: return nil
        }
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A short name of the type for error messages ("a string", "an int32").
    public var typeName: String {
        switch self {
        case .int32: return "an int32"
        case .int64: return "an int64"
        case .float: return "a float"
        case .double: return "a double"
        case .string: return "a string"
        case .bool: return "a boolean"
        case .null: return "nil"
        case .impulse: return "an impulse"
        case .blob: return "a blob"
        case .other(let tag): return "type '\(tag)'"
        }
    }

    /// How `toneshaper send` prints it: numbers plainly (a whole float without ".0", as
    /// controllers show it), strings quoted only when they hold spaces or are empty, so a
    /// reply line splits back into its values.
    public var description: String {
        switch self {
        case .int32(let i): return String(i)
        case .int64(let i): return String(i)
        case .float(let f): return OSCValue.format(Double(f), shortest: f.description)
        case .double(let d): return OSCValue.format(d, shortest: d.description)
        case .string(let s):
            return s.isEmpty || s.contains(where: { $0 == " " || $0 == "\"" || $0.isNewline }) ? "\"" + s.replacingQuotes + "\"" : s
        case .bool(let b): return b ? "true" : "false"
        case .null: return "nil"
        case .impulse: return "impulse"
        case .blob(let n): return "<blob \(n) bytes>"
        case .other(let tag): return "<\(tag)>"
        }
    }

    private static func format(_ d: Double, shortest: String) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return shortest
    }
}

/// A received OSC message: its address and arguments.
public struct OSCMessage: Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var arguments: [OSCValue]

    public init(path: String, arguments: [OSCValue] = []) {
        self.path = path
        self.arguments = arguments
    }

    /// One line: the path, then each argument ("/toneshaper/ok /toneshaper/wave").
    public var description: String {
        ([path] + arguments.map(\.description)).joined(separator: " ")
    }
}

extension String {
    fileprivate var replacingQuotes: String {
        var out = ""
        for c in self {
            switch c {
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}
