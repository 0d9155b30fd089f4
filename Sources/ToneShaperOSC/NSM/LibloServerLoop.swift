import CLiblo
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The thread that feeds the session-manager connection's liblo server its datagrams. liblo's own server thread wakes
/// every 10 ms to poll, about a hundred times a second for nothing; this one sleeps in
/// poll() until a datagram arrives or `stop()` writes to its wake-up pipe, so an idle node
/// costs no CPU on OSC.
final class LibloServerLoop: @unchecked Sendable {
    private let server: lo_server
    private let socket: Int32
    private var wake: [Int32] = [-1, -1]
    private let finished = DispatchSemaphore(value: 0)

    init?(server: lo_server) {
        self.server = server
        socket = lo_server_get_socket_fd(server)
        guard socket >= 0, pipe(&wake) == 0 else { return nil }
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "toneshaper-nsm"
        thread.start()
    }

    /// Wakes the thread, and returns once it will not touch the server again.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        finished.wait()
        close(wake[0])
        close(wake[1])
    }

    private func run() {
        var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { break }
            if fds[0].revents != 0 {
                // Everything that has arrived, then back to sleep.
                while lo_server_recv_noblock(server, 0) > 0 {}
            }
        }
        finished.signal()
    }
}
