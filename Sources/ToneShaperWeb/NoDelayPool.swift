import FlyingFox
import FlyingSocks

#if canImport(Glibc)
    import Glibc
#endif

/// FlyingFox's socket pool, with Nagle's algorithm off on every socket it waits on.
///
/// The page gets several small WebSocket frames per edit (the acknowledgement, the state,
/// LISTEN values); with Nagle on, the second waits for the first one's delayed ACK, about
/// 40 ms on Linux, which a drag shows as lag. The listening socket is among those the pool
/// waits on, and Linux hands TCP_NODELAY on to the sockets it accepts; setting it on every
/// socket seen covers the rest.
struct NoDelayPool: AsyncSocketPool {
    let base: any AsyncSocketPool

    func prepare() async throws { try await base.prepare() }
    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        var on: Int32 = 1
        setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
