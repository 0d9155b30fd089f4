import Foundation
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal OSC encoder and UDP sender for the tests: plain messages (what `oscsend`
/// sends) and bundles with a time tag (which `oscsend` cannot send).
enum OSCDatagram {
    enum Argument {
        case float(Float)
        case int(Int32)
        case string(String)
    }

    static func message(_ path: String, _ arguments: [Argument]) -> [UInt8] {
        var bytes = padded(path)
        bytes += padded(
            ","
                + arguments.map { a -> String in
                    switch a {
                    case .float: "f"
                    case .int: "i"
                    case .string: "s"
                    }
                }.joined())
        for argument in arguments {
            switch argument {
            case .float(let f): bytes += bigEndian(f.bitPattern)
            case .int(let i): bytes += bigEndian(UInt32(bitPattern: i))
            case .string(let s): bytes += padded(s)
            }
        }
        return bytes
    }

    /// A bundle to be applied at Unix time `unixSeconds`.
    static func bundle(at unixSeconds: Double, _ messages: [[UInt8]]) -> [UInt8] {
        let ntp = unixSeconds + 2_208_988_800
        let seconds = UInt32(ntp.rounded(.down))
        let fraction = UInt32(((ntp - ntp.rounded(.down)) * 4_294_967_296).rounded(.down))
        var bytes = padded("#bundle") + bigEndian(seconds) + bigEndian(fraction)
        for message in messages {
            bytes += bigEndian(UInt32(message.count)) + message
        }
        return bytes
    }

    /// Sends one datagram to 127.0.0.1:`port`.
    static func send(_ datagram: [UInt8], toPort port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw JackTestError("socket() failed") }
        defer { close(fd) }
        try send(datagram, toPort: port, from: fd)
    }

    /// Sends a message and returns the first reply's arguments (nil after `timeout`).
    static func request(_ datagram: [UInt8], toPort port: Int, timeout: Double = 2) throws -> [Argument]? {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw JackTestError("socket() failed") }
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        try send(datagram, toPort: port, from: fd)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return decodeArguments(Array(buffer[0..<n]))
    }

    /// The arguments of a plain message (ints, floats, strings).
    static func decodeArguments(_ bytes: [UInt8]) -> [Argument]? {
        func string(at offset: inout Int) -> String? {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            let text = String(decoding: bytes[offset..<end], as: UTF8.self)
            offset = (end + 4) & ~3
            return text
        }
        func word(at offset: inout Int) -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        var offset = 0
        guard string(at: &offset) != nil, let tags = string(at: &offset), tags.hasPrefix(",") else { return nil }
        var arguments: [Argument] = []
        for tag in tags.dropFirst() {
            switch tag {
            case "f":
                guard let w = word(at: &offset) else { return nil }
                arguments.append(.float(Float(bitPattern: w)))
            case "i":
                guard let w = word(at: &offset) else { return nil }
                arguments.append(.int(Int32(bitPattern: w)))
            case "s":
                guard let s = string(at: &offset) else { return nil }
                arguments.append(.string(s))
            default: return nil
            }
        }
        return arguments
    }

    /// `/toneshaper/stats` as a dictionary of numbers ("xruns", "periods", "p50", ...).
    /// `/toneshaper/state` as a dictionary (numbers as the text of a Double, names as they are).
    static func state(port: Int) throws -> [String: String]? {
        guard let reply = try request(message("/toneshaper/state", []), toPort: port) else { return nil }
        var result: [String: String] = [:]
        var key: String?
        for argument in reply {
            let text: String
            switch argument {
            case .string(let s): text = s
            case .float(let f): text = String(Double(f))
            case .int(let i): text = String(i)
            }
            if let k = key {
                result[k] = text
                key = nil
            } else {
                key = text
            }
        }
        return result
    }

    static func stats(port: Int) throws -> [String: Double]? {
        guard let reply = try request(message("/toneshaper/stats", []), toPort: port) else { return nil }
        var result: [String: Double] = [:]
        var key: String?
        for argument in reply {
            switch argument {
            case .string(let s): key = s
            case .float(let f):
                if let k = key { result[k] = Double(f) }
                key = nil
            case .int(let i):
                if let k = key { result[k] = Double(i) }
                key = nil
            }
        }
        return result
    }

    private static func send(_ datagram: [UInt8], toPort port: Int, from fd: Int32) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let sent = datagram.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard sent == datagram.count else { throw JackTestError("sendto() failed") }
    }

    private static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

extension OSCDatagram {
    /// Waits until the node on `port` has run `count` more JACK periods than when called (its
    /// `/toneshaper/stats`): a change it took has then had that long to sound, on JACK's
    /// timeline, however slowly a busy host runs it. Fails when the node stops answering or
    /// the periods do not come within `timeout` seconds.
    /// Returns the statistics that showed them (their `frame`: every period that took what
    /// was sent before the call started at or before it, once `count` is 2 or more).
    @discardableResult
    static func waitForPeriods(_ count: Int, port: Int, timeout: Double = 120) async throws -> [String: Double] {
        let deadline = monotonicSeconds() + timeout
        guard let start = try stats(port: port)?["periods"] else { throw JackTestError("the node on port \(port) gave no statistics") }
        while true {
            if let now = try stats(port: port), let periods = now["periods"], periods >= start + Double(count) { return now }
            if monotonicSeconds() > deadline { throw JackTestError("the node on port \(port) ran fewer than \(count) periods in \(Int(timeout)) s") }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How many periods of `server` make `seconds`.
    static func periods(_ seconds: Double, of server: PrivateJackServer) -> Int {
        Int((seconds * Double(server.rate) / Double(server.period)).rounded(.up))
    }
}
