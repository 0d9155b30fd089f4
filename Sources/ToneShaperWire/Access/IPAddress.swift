#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as plain bits, so that the allow list can compare a sender's
/// address with networks without touching sockets or strings on every message.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    case v6(UInt128)

    /// Parses a numeric address ("127.0.0.1", "::1", "::ffff:10.0.0.1"). Names are not
    /// resolved: liblo reports senders numerically, and a configuration that depended on
    /// DNS would change meaning behind the user's back. Zone suffixes ("%eth0") are refused.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 64, !text.contains("%") else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            var bits: UInt128 = 0
            withUnsafeBytes(of: &v6) { bytes in
                for byte in bytes { bits = bits << 8 | UInt128(byte) }
            }
            self = .v6(bits)
            return
        }
        return nil
    }

    /// An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as the IPv4 address it stands for, so
    /// that "127.0.0.0/8" also covers a dual-stack socket's view of a loopback sender.
    public var unmapped: IPAddress {
        if case .v6(let bits) = self, bits >> 32 == 0xFFFF { return .v4(UInt32(truncatingIfNeeded: bits)) }
        return self
    }

    public var description: String {
        switch self {
        case .v4(let bits):
            return "\(bits >> 24).\(bits >> 16 & 0xFF).\(bits >> 8 & 0xFF).\(bits & 0xFF)"
        case .v6(var bits):
            var storage = in6_addr()
            withUnsafeMutableBytes(of: &storage) { bytes in
                for i in (0..<16).reversed() {
                    bytes[i] = UInt8(truncatingIfNeeded: bits)
                    bits >>= 8
                }
            }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            guard inet_ntop(AF_INET6, &storage, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
