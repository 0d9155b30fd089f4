#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which senders may control the node.
///
/// liblo 0.31 always binds the wildcard address (SPEC 12), so "listen on loopback only"
/// cannot be done by binding: every message's source is checked against this policy
/// before anything else happens, and a refused sender gets no reply at all.
public struct AccessPolicy: Sendable, CustomStringConvertible {
    public let allowed: [AddressRange]

    public init(allowed: [AddressRange]) {
        self.allowed = allowed
    }

    /// Loopback always; plus what `host` opens; plus the allow list.
    ///
    /// - `host` nil, "localhost", or a loopback address: loopback only.
    /// - "0.0.0.0", "::" or "*": every sender (the user asked for the whole network).
    /// - an address of one of this machine's interfaces: the senders on that interface's
    ///   subnet (the nearest meaning of "listen on this interface" a wildcard socket allows).
    public init(host: String?, allow: [AddressRange]) throws(OSCConfigurationError) {
        var ranges = AddressRange.loopback
        if let host = host?.trimmingWhitespace, !host.isEmpty, host.lowercased() != "localhost" {
            if ["0.0.0.0", "::", "*"].contains(host) {
                ranges += AddressRange.everything
            } else if let address = IPAddress(host) {
                if !AddressRange.loopback.contains(where: { $0.contains(address) }) {
                    guard let subnet = LocalInterfaces.subnet(of: address) else {
                        throw OSCConfigurationError(
                            "host \(host) is not an address of this machine's interfaces; use one of them, 0.0.0.0 for every interface, or leave it out for loopback only"
                        )
                    }
                    ranges.append(subnet)
                }
            } else {
                throw OSCConfigurationError(
                    "host \"\(host)\" is not a numeric address; use an interface address such as 192.168.1.10, 0.0.0.0 for every interface, or leave it out for loopback only"
                )
            }
        }
        for range in allow where !ranges.contains(range) { ranges.append(range) }
        self.allowed = ranges
    }

    /// Whether a sender, as liblo reports it (a numeric host string), may control the node.
    /// Anything that does not parse is refused.
    public func permits(host: String?) -> Bool {
        guard let host, let address = IPAddress(host) else { return false }
        return permits(address)
    }

    public func permits(_ address: IPAddress) -> Bool {
        allowed.contains { $0.contains(address) }
    }

    public var description: String { allowed.map(\.description).joined(separator: ", ") }
}

/// The machine's own interface addresses and their subnets.
enum LocalInterfaces {
    static func subnet(of address: IPAddress) -> AddressRange? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let ifAddress = ip(entry.pointee.ifa_addr), ifAddress.unmapped == address.unmapped else { continue }
            let length = entry.pointee.ifa_netmask.flatMap(ip).map(prefixLength) ?? address.bitWidth
            return AddressRange(network: ifAddress, prefixLength: length)
        }
        return nil
    }

    private static func ip(_ socketAddress: UnsafeMutablePointer<sockaddr>?) -> IPAddress? {
        guard let socketAddress else { return nil }
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr))
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var bits: UInt128 = 0
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { for byte in $0 { bits = bits << 8 | UInt128(byte) } }
                return .v6(bits)
            }
        default:
            return nil
        }
    }

    private static func prefixLength(_ mask: IPAddress) -> Int {
        switch mask {
        case .v4(let bits): return bits.nonzeroBitCount
        case .v6(let bits): return bits.nonzeroBitCount
        }
    }
}
