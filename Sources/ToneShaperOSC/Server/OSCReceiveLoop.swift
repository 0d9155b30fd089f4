import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a packet came from, and so where its replies go.
struct PacketOrigin {
    enum Transport: Equatable { case udp, tcp }
    var transport: Transport
    var address: SocketAddress
    /// The TCP connection it arrived on (nil for UDP). Valid only during the handler call.
    unowned(unsafe) var connection: StreamConnection?
}

/// The thread that reads the node's OSC sockets: UDP datagrams, TCP connections being
/// accepted, and each connected TCP client. It sleeps in poll() until something arrives
/// (see `PollingThread`). Every socket
/// is non-blocking and every client has its own buffers: a slow or stalled TCP client
/// delays no one.
///
/// The handler runs on this thread and may answer through `reply`; connections are
/// touched by this thread only.
final class OSCReceiveLoop: @unchecked Sendable {
    typealias Handler = (_ packet: UnsafeRawBufferPointer, _ origin: PacketOrigin) -> Void
    typealias Admit = (_ address: SocketAddress) -> Bool

    let sockets: ListeningSockets
    private let handler: Handler
    private let admit: Admit
    private let note: (String) -> Void
    private let thread: PollingThread
    private var connections: [StreamConnection] = []

    /// TCP clients at once; past it the one idle longest makes room for the newcomer, so
    /// clients that connect and go quiet cannot lock everyone out.
    static let maximumConnections = 32
    /// Largest datagram read (the UDP maximum).
    static let maximumDatagram = 65_536

    /// - Parameters:
    ///   - admit: whether a TCP peer may connect at all (the access policy).
    ///   - note: a line for the log (throttled by the caller).
    init?(sockets: ListeningSockets, admit: @escaping Admit, note: @escaping (String) -> Void, handler: @escaping Handler) {
        self.sockets = sockets
        self.handler = handler
        self.admit = admit
        self.note = note
        guard let thread = PollingThread() else { return nil }
        self.thread = thread
    }

    func start() {
        thread.start(name: "toneshaper-osc") { [self] in run() }
    }

    /// Wakes the thread, and returns once it will not touch the sockets again. Closes the
    /// TCP connections; the listening sockets belong to the caller.
    func stop() {
        thread.stop()
        connections.removeAll()
    }

    /// Sends a reply packet to `origin` (UDP: to `address`, which may carry a reply port;
    /// TCP: down the connection, or by UDP when `address` was redirected). Only from the
    /// handler.
    func reply(_ packet: [UInt8], to origin: PacketOrigin) -> Bool {
        if origin.transport == .tcp, let connection = origin.connection {
            if connection.queue(packet) { return true }
            note("closing the TCP connection of \(connection.peer.description): it is not reading its replies")
            drop(connection)
            return false
        }
        let destination = origin.address.converted(to: sockets.family)
        let sent = packet.withUnsafeBytes { bytes in
            destination.withSockaddr { sendto(sockets.udp, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
        return sent == packet.count
    }

    private func run() {
        var datagram = [UInt8](repeating: 0, count: OSCReceiveLoop.maximumDatagram)
        var fds: [pollfd] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: sockets.udp, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: sockets.tcp, events: Int16(POLLIN), revents: 0))
            for connection in connections {
                fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN) | (connection.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0))
            }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[0].revents != 0 { break }
            if fds[1].revents != 0 { receiveDatagrams(into: &datagram) }
            if fds[2].revents != 0 { acceptConnections() }
            // Connections polled this round, in order; drops during the loop are by identity.
            let polled = Array(connections.prefix(fds.count - 3))
            for (i, connection) in polled.enumerated() where fds[3 + i].revents != 0 {
                serve(connection, events: fds[3 + i].revents)
            }
        }
    }

    /// Every datagram waiting, then back to sleep.
    private func receiveDatagrams(into buffer: inout [UInt8]) {
        while true {
            let (n, sender) = buffer.withUnsafeMutableBytes { bytes in
                SocketAddress.receiving { recvfrom(sockets.udp, bytes.baseAddress, bytes.count, 0, $0, $1) }
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return }
            buffer.withUnsafeBytes { handler(UnsafeRawBufferPointer(rebasing: $0[0..<n]), PacketOrigin(transport: .udp, address: sender)) }
        }
    }

    private func acceptConnections() {
        while true {
            let (fd, peer) = SocketAddress.receiving { Int(accept(sockets.tcp, $0, $1)) }
            guard fd >= 0 else { return }
            _ = fcntl(Int32(fd), F_SETFL, fcntl(Int32(fd), F_GETFL) | O_NONBLOCK)
            _ = fcntl(Int32(fd), F_SETFD, FD_CLOEXEC)
            // Senders outside the policy get nothing, not even a connection that stays open.
            guard admit(peer) else {
                close(Int32(fd))
                continue
            }
            if connections.count >= OSCReceiveLoop.maximumConnections,
                let idlest = connections.min(by: { $0.lastActivity < $1.lastActivity })
            {
                note("\(OSCReceiveLoop.maximumConnections) TCP clients connected; closing the one idle longest (\(idlest.peer.description))")
                drop(idlest)
            }
            connections.append(StreamConnection(fd: Int32(fd), peer: peer, now: OSCReceiveLoop.now()))
        }
    }

    private func serve(_ connection: StreamConnection, events: Int16) {
        guard connections.contains(where: { $0 === connection }) else { return }
        if events & Int16(POLLOUT) != 0 && !connection.flush() {
            drop(connection)
            return
        }
        guard events & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 else { return }
        let outcome = connection.read(now: OSCReceiveLoop.now())
        let packets: [[UInt8]]
        var closing = false
        switch outcome {
        case .packets(let p): packets = p
        case .closed(let p, let reason):
            packets = p
            closing = true
            if let reason { note("closing the TCP connection of \(connection.peer.description): \(reason)") }
        }
        for packet in packets {
            // A reply may have dropped the connection (it stopped reading).
            guard connections.contains(where: { $0 === connection }) else { return }
            packet.withUnsafeBytes { handler($0, PacketOrigin(transport: .tcp, address: connection.peer, connection: connection)) }
        }
        if closing { drop(connection) }
    }

    private func drop(_ connection: StreamConnection) {
        connections.removeAll { $0 === connection }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
