import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A UDP socket bound on loopback and connected to the node, so that the node's replies to
/// the sender come back to it; it sends at full speed and drains replies without blocking.
final class FuzzClient {
    private let fd: Int32
    private(set) var errorReplies = 0
    private(set) var okReplies = 0
    private(set) var otherReplies = 0

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw JackTestError("socket failed") }
        var size: Int32 = 4 << 20
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var node = address
        node.sin_port = in_port_t(UInt16(port).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &node) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else { throw JackTestError("bind/connect failed") }
    }

    deinit { close(fd) }

    func send(_ packet: [UInt8]) {
        _ = packet.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Reads every reply waiting (or, with a timeout, waits up to it for one `want` reply),
    /// counting them; returns the arguments of the first reply whose path is `want`.
    @discardableResult
    func drain(waitingFor want: String? = nil, timeout: Double = 0) -> [OSCDatagram.Argument]? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waitMs = want == nil ? 0 : Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, waitMs) > 0 else { return nil }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            let bytes = Array(buffer[0..<n])
            let path = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            if path.hasSuffix("/error") { errorReplies += 1 } else if path.hasSuffix("/ok") { okReplies += 1 } else { otherReplies += 1 }
            if let want, path == want { return OSCDatagram.decodeArguments(bytes) }
        }
    }

    /// /state as a dictionary of its key/value pairs.
    func state(prefix: String = "/toneshaper") -> [String: OSCDatagram.Argument]? {
        send(OSCPacket.message(prefix + "/state", []))
        guard let arguments = drain(waitingFor: prefix + "/state", timeout: 3) else { return nil }
        var result: [String: OSCDatagram.Argument] = [:]
        var i = 0
        while i + 1 < arguments.count {
            if case .string(let key) = arguments[i] { result[key] = arguments[i + 1] }
            i += 2
        }
        return result
    }
}

extension OSCDatagram.Argument {
    var number: Double? {
        switch self {
        case .float(let f): return Double(f)
        case .int(let i): return Double(i)
        case .string: return nil
        }
    }
}
