import CLiblo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moving arguments between liblo's C representation and `OSCValue`, defensively: a
/// message comes from anyone, so nothing is read before its count and type are checked.
package enum LibloMessages {
    /// The arguments of a message liblo dispatched, or nil when liblo's own view of the
    /// message is inconsistent (which would make reading `argv` unsafe).
    package static func arguments(
        types: UnsafePointer<CChar>?, argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?,
        argc: Int32, message: lo_message?
    ) -> [OSCValue]? {
        guard argc >= 0, let message, lo_message_get_argc(message) == argc else { return nil }
        if argc == 0 { return [] }
        guard let types, let argv, strlen(types) == Int(argc) else { return nil }
        var values: [OSCValue] = []
        values.reserveCapacity(Int(argc))
        for i in 0..<Int(argc) {
            let tag = UInt8(bitPattern: types[i])
            // T, F, N and I carry no data, and liblo may give them no argv entry.
            if let payloadless = payloadless(tag) {
                values.append(payloadless)
                continue
            }
            guard let pointer = argv[i] else { return nil }
            values.append(value(tag: tag, at: UnsafeRawPointer(pointer)))
        }
        return values
    }

    private static func payloadless(_ tag: UInt8) -> OSCValue? {
        switch tag {
        case UInt8(ascii: "T"): return .bool(true)
        case UInt8(ascii: "F"): return .bool(false)
        case UInt8(ascii: "N"): return .null
        case UInt8(ascii: "I"): return .impulse
        default: return nil
        }
    }

    /// OSC packs arguments on 4-byte boundaries, so 64-bit values may be misaligned:
    /// every read is an unaligned load.
    private static func value(tag: UInt8, at p: UnsafeRawPointer) -> OSCValue {
        switch tag {
        case UInt8(ascii: "i"): return .int32(p.loadUnaligned(as: Int32.self))
        case UInt8(ascii: "h"): return .int64(p.loadUnaligned(as: Int64.self))
        case UInt8(ascii: "f"): return .float(p.loadUnaligned(as: Float.self))
        case UInt8(ascii: "d"): return .double(p.loadUnaligned(as: Double.self))
        case UInt8(ascii: "s"), UInt8(ascii: "S"):
            // liblo has checked that the string ends inside the packet (at most 64 kB).
            return .string(String(cString: p.assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "b"): return .blob(byteCount: Int(p.loadUnaligned(as: Int32.self)))
        default: return .other(typeTag: Character(Unicode.Scalar(tag)))
        }
    }

    /// A new liblo message holding `values`; the caller frees it with `lo_message_free`.
    /// Values with no payload to send (blobs, unknown types) are left out.
    package static func make(_ values: [OSCValue]) -> lo_message? {
        guard let message = lo_message_new() else { return nil }
        for value in values {
            switch value {
            case .int32(let i): lo_message_add_int32(message, i)
            case .int64(let i): lo_message_add_int64(message, i)
            case .float(let f): lo_message_add_float(message, f)
            case .double(let d): lo_message_add_double(message, d)
            case .string(let s): lo_message_add_string(message, s)
            case .bool(let b): if b { lo_message_add_true(message) } else { lo_message_add_false(message) }
            case .null: lo_message_add_nil(message)
            case .impulse: lo_message_add_infinitum(message)
            case .blob, .other: break
            }
        }
        return message
    }

    package static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
