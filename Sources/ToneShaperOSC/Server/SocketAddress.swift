import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sender's or a destination's IP address and port, IPv4 or IPv6, as the kernel gives
/// it (`sockaddr_storage`), with the parts the server needs read out once.
struct SocketAddress: @unchecked Sendable {
    var storage = sockaddr_storage()
    var length = socklen_t(0)

    init() {}

    /// A numeric address ("127.0.0.1", "::1", "localhost") and port; nil if it does not parse.
    init?(host: String, port: Int) {
        let text = host.lowercased() == "localhost" ? "127.0.0.1" : host.trimmingPrefix("[").split(separator: "]").first.map(String.init) ?? host
        guard let address = IPAddress(text), (0...65535).contains(port) else { return nil }
        self.init(address, port: port)
    }

    init(_ address: IPAddress, port: Int) {
        switch address {
        case .v4(let bits):
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            v4.sin_addr.s_addr = bits.bigEndian
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        case .v6(var bits):
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &v6.sin6_addr) { bytes in
                for i in (0..<16).reversed() {
                    bytes[i] = UInt8(truncatingIfNeeded: bits)
                    bits >>= 8
                }
            }
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
    }

    var family: Int32 { Int32(storage.ss_family) }

    /// The address, IPv4-mapped IPv6 (what a dual-stack socket reports for an IPv4 sender)
    /// turned back into IPv4.
    var ip: IPAddress? {
        var copy = storage
        switch family {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var bits: UInt128 = 0
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { for byte in $0 { bits = bits << 8 | UInt128(byte) } }
                    return IPAddress.v6(bits).unmapped
                }
            }
        default:
            return nil
        }
    }

    var port: Int {
        var copy = storage
        switch family {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return 0
        }
    }

    /// The same address with another port (a controller's reply port).
    func withPort(_ port: Int) -> SocketAddress {
        var copy = self
        withUnsafeMutablePointer(to: &copy.storage) { pointer in
            switch family {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = in_port_t(UInt16(port).bigEndian) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = in_port_t(UInt16(port).bigEndian) }
            default:
                break
            }
        }
        return copy
    }

    /// This address as seen through a socket of `family`: an IPv4 destination becomes
    /// IPv4-mapped for a dual-stack IPv6 socket.
    func converted(to socketFamily: Int32) -> SocketAddress {
        guard socketFamily == AF_INET6, family == AF_INET, case .v4(let bits)? = ip else { return self }
        return SocketAddress(.v6(UInt128(0xFFFF) << 32 | UInt128(bits)), port: port)
    }

    /// "127.0.0.1:9000", "[::1]:9000".
    var description: String {
        guard let ip else { return "?" }
        if case .v6 = ip { return "[\(ip)]:\(port)" }
        return "\(ip):\(port)"
    }

    /// Calls `body` with the address as the `sockaddr` the socket calls take.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    /// Fills a `SocketAddress` from a call that writes a `sockaddr` (recvfrom, accept, getsockname).
    static func receiving(_ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int) -> (Int, SocketAddress) {
        var address = SocketAddress()
        address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &address.length) }
        }
        return (result, address)
    }
}
