import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends OSC messages to a node and collects what comes back: `toneshaper send`, and the
/// tests. Over UDP, messages leave from a socket on a free local port, and the node's
/// replies (which go to the sender's address) arrive there; over TCP, on the connection.
/// IPv4 or IPv6, as the host is written.
///
/// Not thread-safe: use one client from one thread.
public final class OSCClient {
    public let host: String
    public let port: Int
    public let overTCP: Bool
    private let fd: Int32
    private let target: SocketAddress
    /// TCP: framing and buffering of the connection (replies arrive length-prefixed).
    private let stream: StreamConnection?
    private var inbox: [OSCMessage] = []

    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address ("127.0.0.1", "::1"), or "localhost".
    ///   - port: the node's OSC port.
    ///   - overTCP: connect over TCP instead of sending datagrams.
    public init(host: String = "127.0.0.1", port: Int = 9000, overTCP: Bool = false, connectTimeout: Double = 2) throws(OSCConfigurationError) {
        guard (1...65535).contains(port) else { throw OSCConfigurationError("OSC port \(port) is out of range 1...65535") }
        guard let target = SocketAddress(host: host, port: port) else {
            throw OSCConfigurationError("\"\(host)\" is not a numeric IPv4 or IPv6 address (or localhost)")
        }
        self.host = host
        self.port = port
        self.overTCP = overTCP
        self.target = target
        let type = overTCP ? Int32(SOCK_STREAM.rawValue) : Int32(SOCK_DGRAM.rawValue)
        let fd = socket(target.family, type | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.fd = fd
        guard fd >= 0 else { throw OSCConfigurationError("cannot open a socket to send from: \(String(cString: strerror(errno)))") }
        if overTCP {
            let started = target.withSockaddr { connect(fd, $0, $1) }
            if started != 0 && errno != EINPROGRESS {
                let why = String(cString: strerror(errno))
                close(fd)
                throw OSCConfigurationError("cannot connect to \(target.description) over TCP: \(why)")
            }
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&ready, 1, Int32(connectTimeout * 1000)) != 1
                || getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 || failure != 0
            {
                let why = failure != 0 ? String(cString: strerror(failure)) : "no answer within \(connectTimeout) s"
                close(fd)
                throw OSCConfigurationError("cannot connect to \(target.description) over TCP: \(why)")
            }
            stream = StreamConnection(fd: fd, peer: target, now: 0)
        } else {
            stream = nil
        }
    }

    deinit {
        // The stream connection closes the descriptor it was given.
        if stream == nil { close(fd) }
    }

    /// The local port replies come back to (UDP), or the connection's local port (TCP).
    public var localPort: Int { ListeningSockets.localPort(of: fd) ?? 0 }

    /// Sends one message, or a bundle holding it when `timeTag` is given.
    public func send(_ path: String, _ arguments: [OSCValue] = [], at timeTag: OSCTimeTag? = nil) throws(OSCConfigurationError) {
        let message = OSCMessage(path: path, arguments: arguments)
        guard let packet = timeTag.map({ OSCPacket.encodeBundle(message, at: $0) }) ?? OSCPacket.encode(message) else {
            throw OSCConfigurationError("cannot encode \(path) as OSC")
        }
        try sendPacket(packet)
    }

    /// Sends bytes as one packet, as they are (tests send malformed ones).
    public func sendPacket(_ packet: [UInt8]) throws(OSCConfigurationError) {
        if let stream {
            guard stream.queue(packet) else { throw OSCConfigurationError("cannot send to \(target.description) over TCP: the connection is gone") }
            return
        }
        let sent = packet.withUnsafeBytes { bytes in
            target.withSockaddr { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
        guard sent == packet.count else {
            throw OSCConfigurationError("cannot send to \(target.description): \(String(cString: strerror(errno)))")
        }
    }

    /// Waits up to `timeout` seconds for replies; returns early once `done` says the
    /// replies so far are enough.
    public func receive(timeout: Double, until done: ([OSCMessage]) -> Bool = { _ in false }) -> [OSCMessage] {
        let deadline = monotonicSeconds() + max(0, timeout)
        var collected: [OSCMessage] = []
        while true {
            collected += takeInbox()
            if done(collected) { break }
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { break }
            var ready = pollfd(fd: fd, events: Int16(POLLIN) | (stream?.wantsToWrite == true ? Int16(POLLOUT) : 0), revents: 0)
            if poll(&ready, 1, Int32(min(remaining * 1000, 100).rounded(.up))) > 0 {
                if ready.revents & Int16(POLLOUT) != 0 { stream?.flush() }
                readAvailable()
            }
        }
        return collected
    }

    /// Sends one message and waits for its reply (the node answers every message from
    /// an allowed sender once). Empty when nothing came back in time.
    public func request(
        _ path: String, _ arguments: [OSCValue] = [], at timeTag: OSCTimeTag? = nil,
        timeout: Double = 1
    ) throws(OSCConfigurationError) -> [OSCMessage] {
        drainSocket()
        try send(path, arguments, at: timeTag)
        return receive(timeout: timeout) { !$0.isEmpty }
    }

    /// Reads and discards anything already waiting (late replies to earlier requests).
    public func drainSocket() {
        readAvailable()
        _ = takeInbox()
    }

    private func readAvailable() {
        if let stream {
            switch stream.read(now: 0) {
            case .packets(let packets), .closed(let packets, _):
                for packet in packets { inbox += OSCClient.messages(in: packet) }
            }
            return
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return }
            inbox += OSCClient.messages(in: Array(buffer[0..<n]))
        }
    }

    private static func messages(in packet: [UInt8]) -> [OSCMessage] {
        OSCPacket.decode(packet).map { OSCMessage(path: $0.path, arguments: $0.arguments ?? []) }
    }

    private func takeInbox() -> [OSCMessage] {
        defer { inbox.removeAll() }
        return inbox
    }
}
