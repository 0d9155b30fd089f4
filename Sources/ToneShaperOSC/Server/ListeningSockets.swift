import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The node's two listening sockets: UDP and TCP on the same port number, each dual-stack
/// (IPv6 with IPv4-mapped senders) where the machine has IPv6, else IPv4 only.
///
/// The node opens them itself rather than through liblo's server: liblo 0.31 binds IPv4
/// only, opens UDP and TCP on unrelated ports when asked for any free one, and on TCP
/// replies to a client that stopped reading by closing its connection and connecting
/// back to the client's ephemeral port, blocking the receiving thread meanwhile. liblo
/// still encodes and decodes every message (`OSCPacket`).
struct ListeningSockets {
    let udp: Int32
    let tcp: Int32
    let family: Int32
    let port: Int

    /// How many times a free port is looked for when the UDP one chosen by the kernel is
    /// taken for TCP.
    static let freePortAttempts = 20

    /// Opens both on `port` (0: a port free for both). Close with `close()`.
    static func open(port: Int) throws(OSCConfigurationError) -> ListeningSockets {
        let family = ipv6Available() ? AF_INET6 : AF_INET
        for _ in 0..<(port == 0 ? freePortAttempts : 1) {
            let udp = try bind(type: Int32(SOCK_DGRAM.rawValue), family: family, port: port)
            let chosen = localPort(of: udp) ?? port
            do throws(OSCConfigurationError) {
                let tcp = try bind(type: Int32(SOCK_STREAM.rawValue), family: family, port: chosen)
                guard listen(tcp, 16) == 0 else {
                    let why = String(cString: strerror(errno))
                    Glibc.close(tcp)
                    Glibc.close(udp)
                    throw OSCConfigurationError("cannot listen for OSC over TCP on port \(chosen): \(why)")
                }
                return ListeningSockets(udp: udp, tcp: tcp, family: family, port: chosen)
            } catch {
                Glibc.close(udp)
                if port != 0 { throw error }
                // The kernel's free UDP port is taken for TCP: ask for another.
            }
        }
        throw OSCConfigurationError("cannot find a port free for both OSC over UDP and TCP after \(freePortAttempts) tries")
    }

    func close() {
        Glibc.close(udp)
        Glibc.close(tcp)
    }

    private static func bind(type: Int32, family: Int32, port: Int) throws(OSCConfigurationError) -> Int32 {
        let kind = type == Int32(SOCK_DGRAM.rawValue) ? "UDP" : "TCP"
        let fd = socket(family, type | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            throw OSCConfigurationError("cannot open an OSC \(kind) socket: \(String(cString: strerror(errno)))")
        }
        var on: Int32 = 1
        var off: Int32 = 0
        if type == Int32(SOCK_STREAM.rawValue) {
            // A restarted node can take its port back while old connections linger in TIME_WAIT.
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        } else {
            // Room for bursts from a fast controller before the kernel drops datagrams.
            var bufferSize: Int32 = 1 << 20
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
        }
        if family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        let wildcard = family == AF_INET6 ? SocketAddress(.v6(0), port: port) : SocketAddress(.v4(0), port: port)
        let bound = wildcard.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            if code == EADDRINUSE {
                throw OSCConfigurationError("port \(port) is in use; use --osc-port 0 for any free port")
            }
            throw OSCConfigurationError("cannot open OSC \(kind) port \(port): \(String(cString: strerror(code)))")
        }
        return fd
    }

    /// Whether an IPv6 socket can be bound here (kernels and containers may lack IPv6).
    static func ipv6Available() -> Bool {
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        return SocketAddress(.v6(0), port: 0).withSockaddr { Glibc.bind(fd, $0, $1) } == 0
    }

    /// The port a socket is bound to.
    static func localPort(of fd: Int32) -> Int? {
        guard fd >= 0 else { return nil }
        let (result, address) = SocketAddress.receiving { Int(getsockname(fd, $0, $1)) }
        return result == 0 ? address.port : nil
    }
}
