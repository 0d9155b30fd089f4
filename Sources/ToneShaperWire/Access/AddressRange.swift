/// A network in CIDR notation ("192.168.1.0/24", "::1/128", or a single address such as
/// "10.0.0.7"): one entry of the OSC allow list.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    /// Why an allow-list entry was refused, in words that name the entry.
    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        public var entry: String
        public var problem: String
        public var description: String { "allow-list entry \"\(entry)\": \(problem)" }
    }

    public init(network: IPAddress, prefixLength: Int) {
        self.prefixLength = prefixLength
        // Host bits are cleared, so "192.168.1.5/24" means the network 192.168.1.0/24 (as
        // iptables and most router configurations read it) and equal ranges compare equal.
        switch network {
        case .v4(let bits):
            self.network = .v4(prefixLength == 0 ? 0 : bits & ~UInt32(0) << (32 - prefixLength))
        case .v6(let bits):
            self.network = .v6(prefixLength == 0 ? 0 : bits & ~UInt128(0) << (128 - prefixLength))
        }
    }

    public init(parsing text: String) throws(ParseError) {
        func fail(_ problem: String) -> ParseError {
            ParseError(entry: text.count > 80 ? String(text.prefix(80)) + "…" : text, problem: problem)
        }
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { throw fail("is empty; expected an address or a network such as 192.168.1.0/24 or ::1/128") }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw fail("has more than one \"/\"") }
        let addressText = String(parts[0])
        if addressText.contains("%") { throw fail("zone indices (\"%eth0\") are not supported; give the address without it") }
        guard let address = IPAddress(addressText) else {
            throw fail("\"\(addressText)\" is not a numeric IPv4 or IPv6 address (host names are not resolved)")
        }
        let maximum = address.bitWidth
        var length = maximum
        if parts.count == 2 {
            let lengthText = parts[1]
            guard !lengthText.isEmpty, lengthText.count <= 3, lengthText.allSatisfy(\.isASCIIDigit), let n = Int(lengthText) else {
                throw fail("prefix length \"\(lengthText)\" is not a whole number")
            }
            guard n <= maximum else { throw fail("prefix length \(n) is beyond the \(maximum) bits of an \(address.familyName) address") }
            length = n
        }
        self.init(network: address, prefixLength: length)
    }

    /// Whether `address` lies in this network. IPv4-mapped IPv6 addresses count as the IPv4
    /// address they carry, on both sides.
    public func contains(_ address: IPAddress) -> Bool {
        switch (network.unmappedRange(prefixLength), address.unmapped) {
        case ((.v4(let net), let length), .v4(let bits)):
            return length == 0 || bits & ~UInt32(0) << (32 - length) == net
        case ((.v6(let net), let length), .v6(let bits)):
            return length == 0 || bits & ~UInt128(0) << (128 - length) == net
        default:
            return false
        }
    }

    public var description: String { "\(network)/\(prefixLength)" }

    /// 127.0.0.0/8 and ::1/128 (IPv4-mapped loopback is covered through `unmapped`).
    public static let loopback: [AddressRange] = [
        AddressRange(network: .v4(0x7F00_0000), prefixLength: 8),
        AddressRange(network: .v6(1), prefixLength: 128),
    ]

    /// Every IPv4 and IPv6 address.
    public static let everything: [AddressRange] = [
        AddressRange(network: .v4(0), prefixLength: 0),
        AddressRange(network: .v6(0), prefixLength: 0),
    ]
}

extension IPAddress {
    var bitWidth: Int {
        if case .v4 = self { return 32 }
        return 128
    }

    var familyName: String {
        if case .v4 = self { return "IPv4" }
        return "IPv6"
    }

    /// An IPv4-mapped network (::ffff:10.0.0.0/104) as the IPv4 network it stands for.
    func unmappedRange(_ length: Int) -> (IPAddress, Int) {
        if case .v6(let bits) = self, bits >> 32 == 0xFFFF, length >= 96 {
            return (.v4(UInt32(truncatingIfNeeded: bits)), length - 96)
        }
        return (self, length)
    }
}

extension String {
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

extension Character {
    package var isASCIIDigit: Bool { isASCII && isNumber }
}
