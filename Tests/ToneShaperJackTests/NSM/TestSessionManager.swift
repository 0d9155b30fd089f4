import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A session manager of the tests' own, speaking NSM over plain UDP as nsmd does: it waits
/// for a client's announce, learns the client's address from it, and sends it what nsmd
/// would (open, save, ...). It can also send from a second socket, as a stranger would.
final class TestSessionManager: @unchecked Sendable {
    struct Message: CustomStringConvertible {
        var path: String
        var arguments: [OSCDatagram.Argument]
        var strings: [String] { arguments.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        var description: String { ([path] + arguments.map { "\($0)" }).joined(separator: " ") }
    }

    private let socketFD: Int32
    let port: Int
    /// Where the client announced from.
    private(set) var client: sockaddr_in?
    /// Everything received so far, in order.
    private(set) var received: [Message] = []

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw JackTestError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw JackTestError("bind() failed")
        }
        socketFD = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socketFD) }

    /// NSM_URL as nsmd sets it (a host name, resolved by the client).
    var url: String { "osc.udp://localhost:\(port)/" }
    var environment: [String: String] { ["NSM_URL": url] }

    /// The next message, or nil after `timeout` seconds.
    func next(timeout: Double) -> Message? {
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let n = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(socketFD, raw.baseAddress, raw.count, 0, $0, &length) }
            }
        }
        guard n > 0 else { return nil }
        let bytes = Array(buffer[0..<n])
        guard let end = bytes.firstIndex(of: 0), let arguments = OSCDatagram.decodeArguments(bytes) else { return nil }
        let message = Message(path: String(decoding: bytes[0..<end], as: UTF8.self), arguments: arguments)
        if message.path == "/nsm/server/announce" { client = from }
        received.append(message)
        return message
    }

    /// Waits for a message to `path`, skipping others; nil after `timeout` seconds.
    func expect(_ path: String, timeout: Double = 10) async -> Message? {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if let message = next(timeout: min(0.2, max(0.01, deadline - monotonicSeconds()))), message.path == path { return message }
            await Task.yield()
        }
        return nil
    }

    /// Whether nothing but messages to other paths arrived in `seconds`.
    func nothing(to path: String, within seconds: Double) async -> Bool {
        await expect(path, timeout: seconds) == nil
    }

    /// Sends to the client from the manager's own socket.
    func send(_ path: String, _ arguments: [OSCDatagram.Argument] = []) throws {
        try send(raw: OSCDatagram.message(path, arguments))
    }

    func send(raw datagram: [UInt8], fromStranger: Bool = false) throws {
        guard var to = client else { throw JackTestError("no client has announced") }
        let fd = fromStranger ? socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0) : socketFD
        defer { if fromStranger { close(fd) } }
        let sent = datagram.withUnsafeBytes { raw in
            withUnsafePointer(to: &to) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard sent == datagram.count else { throw JackTestError("sendto() failed") }
    }

    /// The announce reply nsmd sends.
    func welcome() throws {
        try send(
            "/reply",
            [.string("/nsm/server/announce"), .string("Welcome"), .string("Test Session Manager"), .string(":server-control:optional-gui:")])
    }

    /// `/nsm/client/open`, and the answer (a `/reply` or an `/error` to it).
    func open(_ path: String, clientID: String, displayName: String = "ToneShaper") async throws -> Message? {
        try send("/nsm/client/open", [.string(path), .string(displayName), .string(clientID)])
        return await answer(to: "/nsm/client/open")
    }

    func save() async throws -> Message? {
        try send("/nsm/client/save")
        return await answer(to: "/nsm/client/save")
    }

    /// The next `/reply` or `/error` whose first argument is `path`.
    func answer(to path: String, timeout: Double = 10) async -> Message? {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if let m = next(timeout: 0.2), m.path == "/reply" || m.path == "/error", m.strings.first == path { return m }
            await Task.yield()
        }
        return nil
    }
}
