#if canImport(Glibc)
    import Glibc
#endif

public struct SocketTestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A plain TCP connection to a port on 127.0.0.1, for clients that misbehave on purpose
/// (silent, half a message, never reading).
public final class LoopbackTCP: @unchecked Sendable {
    // @unchecked: the descriptor is only read after init, and closed once in deinit.
    public let fd: Int32

    public init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw SocketTestError("cannot connect to 127.0.0.1:\(port)")
        }
    }

    deinit { close(fd) }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SocketTestError("send failed") }
            offset += n
        }
    }

    /// What arrives within `timeout` seconds (one read), or nil.
    public func read(timeout: Double) -> [UInt8]? {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

    /// The peer closed its end: a read returns end of file (after any replies queued).
    public func isClosedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) == 1 else { return false }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return true }
        }
    }
}
