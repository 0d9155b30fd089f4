import Foundation

/// Encodes one OSC 1.0 message, for OSCQuery's LISTEN: the proposal sends value changes to
/// listeners as binary WebSocket frames holding OSC packets. Only the types the namespace
/// declares are needed: float, int, string and the booleans T/F.
enum OSCPacket {
    enum Argument: Equatable {
        case float(Float)
        case int(Int32)
        case string(String)
        case bool(Bool)
    }

    static func message(_ address: String, _ arguments: [Argument]) -> Data {
        var data = Data()
        appendString(address, to: &data)
        var tags = ","
        for argument in arguments {
            switch argument {
            case .float: tags += "f"
            case .int: tags += "i"
            case .string: tags += "s"
            case .bool(let b): tags += b ? "T" : "F"
            }
        }
        appendString(tags, to: &data)
        for argument in arguments {
            switch argument {
            case .float(let f): appendBigEndian(f.bitPattern, to: &data)
            case .int(let i): appendBigEndian(UInt32(bitPattern: i), to: &data)
            case .string(let s): appendString(s, to: &data)
            case .bool: break  // carried by the tag alone
            }
        }
        return data
    }

    /// A string, NUL-terminated and padded to a multiple of four bytes.
    private static func appendString(_ s: String, to data: inout Data) {
        let bytes = Array(s.utf8.prefix { $0 != 0 })
        data.append(contentsOf: bytes)
        data.append(contentsOf: [UInt8](repeating: 0, count: 4 - bytes.count % 4))
    }

    private static func appendBigEndian(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }
}
