import CLiblo
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The thread that feeds the session-manager connection's liblo server its datagrams,
/// sleeping in poll() until one arrives (see `PollingThread`).
final class LibloServerLoop: @unchecked Sendable {
    private let server: lo_server
    private let socket: Int32
    private let thread: PollingThread

    init?(server: lo_server) {
        self.server = server
        socket = lo_server_get_socket_fd(server)
        guard socket >= 0, let thread = PollingThread() else { return nil }
        self.thread = thread
    }

    func start() {
        thread.start(name: "toneshaper-nsm") { [self] in run() }
    }

    /// Wakes the thread, and returns once it will not touch the server again.
    func stop() { thread.stop() }

    private func run() {
        var fds = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
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
    }
}
