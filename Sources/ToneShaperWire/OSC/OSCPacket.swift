import CLiblo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// OSC packets as bytes, for the node's own sockets (UDP and TCP, IPv4 and IPv6). liblo
/// decodes and encodes each message; bundles, which liblo can only take apart inside its
/// own server, are walked here.
package enum OSCPacket {
    /// One message taken out of a packet, with the time tag of the bundle that held it
    /// (immediate for a bare message). `arguments` is nil when the message is malformed.
    package struct Received {
        package var path: String
        package var arguments: [OSCValue]?
        package var timeTag: OSCTimeTag
    }

    /// Bundles inside bundles beyond this depth are dropped: nothing legitimate nests
    /// deeper, and a hostile packet must not recurse without bound.
    package static let maximumNesting = 8

    /// The messages of a packet, in order. A packet that is not OSC at all yields nothing.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> [Received] {
        var found: [Received] = []
        decode(bytes, timeTag: .immediate, depth: 0, into: &found)
        return found
    }

    package static func decode(_ bytes: [UInt8]) -> [Received] {
        bytes.withUnsafeBytes { decode($0) }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, timeTag: OSCTimeTag, depth: Int, into found: inout [Received]) {
        guard bytes.count >= 4, let base = bytes.baseAddress else { return }
        if bytes.count >= 16, memcmp(base, "#bundle", 8) == 0 {
            guard depth < maximumNesting else { return }
            let tag = OSCTimeTag(seconds: bigEndianWord(bytes, at: 8), fraction: bigEndianWord(bytes, at: 12))
            var offset = 16
            while offset + 4 <= bytes.count {
                let length = Int(bigEndianWord(bytes, at: offset))
                offset += 4
                guard length > 0, length % 4 == 0, length <= bytes.count - offset else { return }
                decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), timeTag: tag, depth: depth + 1, into: &found)
                offset += length
            }
            return
        }
        guard base.load(as: UInt8.self) == UInt8(ascii: "/"), let path = string(in: bytes) else { return }
        found.append(Received(path: path, arguments: arguments(of: bytes), timeTag: timeTag))
    }

    /// The arguments of one message, through liblo's checked decoder.
    private static func arguments(of bytes: UnsafeRawBufferPointer) -> [OSCValue]? {
        var result: Int32 = 0
        // liblo converts the copy to host byte order in place: never hand it the packet.
        let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { copy.deallocate() }
        copy.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        guard let message = lo_message_deserialise(copy, bytes.count, &result), result == 0 else { return nil }
        defer { lo_message_free(message) }
        return LibloMessages.arguments(
            types: lo_message_get_types(message), argv: lo_message_get_argv(message),
            argc: lo_message_get_argc(message), message: message)
    }

    /// The bytes of a plain message, ready to send.
    package static func encode(_ message: OSCMessage) -> [UInt8]? {
        guard let payload = LibloMessages.make(message.arguments) else { return nil }
        defer { lo_message_free(payload) }
        var size = 0
        guard let data = lo_message_serialise(payload, message.path, nil, &size) else { return nil }
        defer { free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }

    /// A bundle holding one message, to be applied at `timeTag`.
    package static func encodeBundle(_ message: OSCMessage, at timeTag: OSCTimeTag) -> [UInt8]? {
        guard let inner = encode(message) else { return nil }
        var bytes = Array("#bundle".utf8) + [0]
        appendWord(timeTag.seconds, to: &bytes)
        appendWord(timeTag.fraction, to: &bytes)
        appendWord(UInt32(inner.count), to: &bytes)
        return bytes + inner
    }

    package static func appendWord(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    package static func bigEndianWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The NUL-terminated string at the start, if it ends inside the packet.
    private static func string(in bytes: UnsafeRawBufferPointer) -> String? {
        guard let end = bytes.firstIndex(of: 0) else { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
