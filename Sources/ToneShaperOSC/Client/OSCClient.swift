import CLiblo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends OSC messages to a node and collects what comes back: `toneshaper send`, and the
/// tests. Messages leave from a liblo server on a free local port, so the node's replies
/// (which go to the sender's address) arrive at that same port.
///
/// Not thread-safe: use one client from one thread.
public final class OSCClient {
    public let host: String
    public let port: Int
    private let server: lo_server
    private let target: lo_address
    private let inbox: Inbox

    /// Collects replies from liblo's C callback (handed a pointer to it, unretained; the
    /// client owns it and outlives the server that calls back).
    private final class Inbox {
        var messages: [OSCMessage] = []
    }

    /// - Parameters:
    ///   - host: a numeric IPv4 address or "localhost" (the local socket is IPv4).
    ///   - port: the node's OSC port.
    public init(host: String = "127.0.0.1", port: Int = 9000) throws(OSCConfigurationError) {
        guard (1...65535).contains(port) else { throw OSCConfigurationError("OSC port \(port) is out of range 1...65535") }
        self.host = host
        self.port = port
        LibloErrors.clearLast()
        guard let server = lo_server_new_with_proto("0", LO_UDP, LibloErrors.handler) else {
            throw OSCConfigurationError("cannot open a local UDP port to send from: \(LibloErrors.last ?? "unknown error")")
        }
        // "localhost" could resolve to ::1, which the IPv4 socket cannot reach.
        let resolvedHost = host.lowercased() == "localhost" ? "127.0.0.1" : host
        guard let target = lo_address_new_with_proto(LO_UDP, resolvedHost, String(port)) else {
            lo_server_free(server)
            throw OSCConfigurationError("cannot use OSC address \(host):\(port)")
        }
        self.server = server
        self.target = target
        inbox = Inbox()
        lo_server_add_method(server, nil, nil, { path, types, argv, argc, message, context in
            guard let context else { return 0 }
            let inbox = Unmanaged<Inbox>.fromOpaque(context).takeUnretainedValue()
            let arguments = LibloMessages.arguments(types: types, argv: argv, argc: argc, message: message) ?? []
            inbox.messages.append(OSCMessage(path: LibloMessages.string(path) ?? "", arguments: arguments))
            return 0
        }, Unmanaged.passUnretained(inbox).toOpaque())
    }

    deinit {
        lo_address_free(target)
        lo_server_free(server)
    }

    /// The local port replies come back to.
    public var localPort: Int { OSCControlServer.localPort(of: lo_server_get_socket_fd(server)) ?? 0 }

    /// Sends one message, or a bundle holding it when `timeTag` is given.
    public func send(_ path: String, _ arguments: [OSCValue] = [], at timeTag: OSCTimeTag? = nil) throws(OSCConfigurationError) {
        guard let message = LibloMessages.make(arguments) else { throw OSCConfigurationError("out of memory building an OSC message") }
        defer { lo_message_free(message) }
        let result: Int32
        if let timeTag {
            guard let bundle = lo_bundle_new(lo_timetag(sec: timeTag.seconds, frac: timeTag.fraction)) else {
                throw OSCConfigurationError("out of memory building an OSC bundle")
            }
            lo_bundle_add_message(bundle, path, message)
            result = lo_send_bundle_from(target, server, bundle)
            lo_bundle_free(bundle)
        } else {
            result = lo_send_message_from(target, server, path, message)
        }
        guard result >= 0 else {
            let why = LibloMessages.string(lo_address_errstr(target)) ?? "unknown error"
            throw OSCConfigurationError("cannot send \(path) to \(host):\(port): \(why)")
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
            _ = lo_server_recv_noblock(server, Int32(min(remaining * 1000, 100).rounded(.up)))
        }
        return collected
    }

    /// Sends one message and waits for its reply (the node answers every message from
    /// an allowed sender once). Empty when nothing came back in time.
    public func request(_ path: String, _ arguments: [OSCValue] = [], at timeTag: OSCTimeTag? = nil,
                        timeout: Double = 1) throws(OSCConfigurationError) -> [OSCMessage] {
        _ = takeInbox()
        drainSocket()
        try send(path, arguments, at: timeTag)
        return receive(timeout: timeout) { !$0.isEmpty }
    }

    /// Reads and discards anything already waiting (late replies to earlier requests).
    public func drainSocket() {
        while lo_server_recv_noblock(server, 0) > 0 {}
        _ = takeInbox()
    }

    private func takeInbox() -> [OSCMessage] {
        defer { inbox.messages.removeAll() }
        return inbox.messages
    }
}
