import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who the session manager is, from `NSM_URL`, so the node takes session messages from it
/// alone: anyone else on the machine could otherwise make the node open or overwrite
/// files by sending `/nsm/client/open` or `/nsm/client/save` to its port.
public struct NSMManagerAddress: Equatable, Sendable {
    /// The manager's numeric addresses (its host name resolved once, at start).
    public var addresses: Set<IPAddress>
    public var port: Int

    public init(addresses: Set<IPAddress>, port: Int) {
        self.addresses = addresses
        self.port = port
    }

    /// Whether a datagram from `host`:`port` (numeric, as liblo reports senders) is the
    /// manager's. A manager known by a loopback address may answer from another loopback
    /// address (Debian maps the host name to 127.0.1.1; replies leave from 127.0.0.1).
    public func accepts(host: String?, port senderPort: Int?) -> Bool {
        guard let host, let sender = IPAddress(host)?.unmapped, senderPort == port else { return false }
        if addresses.contains(sender) { return true }
        let loopback = { (a: IPAddress) in AddressRange.loopback.contains { $0.contains(a) } }
        return loopback(sender) && addresses.contains(where: loopback)
    }

    /// The numeric addresses of `host` ("localhost", a name, or a number).
    static func resolve(_ host: String) -> Set<IPAddress> {
        if let numeric = IPAddress(host) { return [numeric.unmapped] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: Set<IPAddress> = []
        var entry = list
        while let e = entry {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(e.pointee.ai_addr, e.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0,
                let address = IPAddress(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            {
                found.insert(address.unmapped)
            }
            entry = e.pointee.ai_next
        }
        return found
    }
}
