import CLiblo
import Logging
import Synchronization
import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The node's socket to the session manager: a liblo server of its own on a free port, in
/// UDP, as `NSM_URL` names it. Everything goes to the manager from this one socket (the
/// manager tells its clients apart by their return address). Messages from anyone but the
/// manager are dropped unread; the manager's are handed to `onMessage` on the receiving
/// thread, in order.
public final class NSMConnection: @unchecked Sendable {
    // @unchecked: `server`, `target` and `loop` are set in init and released in stop() after
    // the receiving thread has finished; sends are serialised by `sending`.
    public let url: String
    public let manager: NSMManagerAddress
    private let server: lo_server
    private let target: lo_address
    private var loop: LibloServerLoop?
    private let sending = Mutex(())
    private let stopped = Atomic<Bool>(false)
    private let logger: Logger
    private let onMessage: @Sendable (String, [OSCValue]) -> Void
    private let strangers = Atomic<Int>(0)

    /// Opens the socket for `url` ("osc.udp://host:port/"). Throws when the URL is not a
    /// usable OSC URL (the API says a node then runs without session management).
    public init(
        url: String, logger: Logger = Logger(label: "toneshaper.nsm"),
        onMessage: @escaping @Sendable (String, [OSCValue]) -> Void
    ) throws(OSCConfigurationError) {
        self.url = url
        self.logger = logger
        self.onMessage = onMessage
        let proto = lo_url_get_protocol_id(url)
        // nsmd, RaySession and Carla all serve UDP; the receive loop polls one datagram socket.
        guard proto == LO_UDP else {
            throw OSCConfigurationError("NSM_URL \"\(OSCCommandRouter.clip(url, 200))\" is not an osc.udp:// URL")
        }
        guard let hostPointer = lo_url_get_hostname(url), let portPointer = lo_url_get_port(url) else {
            throw OSCConfigurationError("NSM_URL \"\(OSCCommandRouter.clip(url, 200))\" has no host or port")
        }
        let host = String(cString: hostPointer)
        let portText = String(cString: portPointer)
        free(hostPointer)
        free(portPointer)
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw OSCConfigurationError("NSM_URL \"\(OSCCommandRouter.clip(url, 200))\" has no valid port")
        }
        let addresses = NSMManagerAddress.resolve(host)
        guard !addresses.isEmpty else { throw OSCConfigurationError("NSM_URL host \"\(host)\" cannot be resolved") }
        manager = NSMManagerAddress(addresses: addresses, port: port)
        guard let target = lo_address_new_from_url(url) else {
            throw OSCConfigurationError("NSM_URL \"\(OSCCommandRouter.clip(url, 200))\" is not a usable address")
        }
        LibloErrors.use(logger)
        LibloErrors.clearLast()
        guard let server = lo_server_new_with_proto(nil, proto, LibloErrors.handler) else {
            lo_address_free(target)
            throw OSCConfigurationError("cannot open a socket for the session manager: \(LibloErrors.last ?? "unknown error")")
        }
        self.target = target
        self.server = server
        lo_server_add_method(
            server, nil, nil,
            { path, types, argv, argc, message, context in
                guard let context else { return 0 }
                Unmanaged<NSMConnection>.fromOpaque(context)._withUnsafeGuaranteedRef {
                    $0.receive(path: path, types: types, argv: argv, argc: argc, message: message)
                }
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        stop()
        lo_server_free(server)
        lo_address_free(target)
    }

    /// Starts receiving.
    public func start() throws(OSCConfigurationError) {
        guard loop == nil else { return }
        guard let loop = LibloServerLoop(server: server) else {
            throw OSCConfigurationError("cannot start the session manager's receiving thread (no pipe available)")
        }
        self.loop = loop
        loop.start()
    }

    /// Stops receiving (waiting for a message being handled). Sending still works.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing), let loop else { return }
        loop.stop()
        self.loop = nil
    }

    /// The local URL of the node's session socket (for logs).
    public var localURL: String {
        guard let text = lo_server_get_url(server) else { return "?" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Messages dropped because they did not come from the manager.
    public var ignoredStrangers: Int { strangers.load(ordering: .relaxed) }

    /// Sends `message` to the manager from the session socket. False if it could not be sent.
    @discardableResult
    public func send(_ message: OSCMessage) -> Bool {
        guard let payload = LibloMessages.make(message.arguments) else { return false }
        defer { lo_message_free(payload) }
        let sent = sending.withLock { _ in lo_send_message_from(target, server, message.path, payload) }
        if sent < 0 { logger.warning("NSM: could not send \(message.path) to \(url)") }
        return sent >= 0
    }

    private func receive(
        path: UnsafePointer<CChar>?, types: UnsafePointer<CChar>?,
        argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?, argc: Int32, message: lo_message?
    ) {
        let source = message.flatMap { lo_message_get_source($0) }
        let host = source.flatMap { LibloMessages.string(lo_address_get_hostname($0)) }
        let port = source.flatMap { LibloMessages.string(lo_address_get_port($0)) }.flatMap { Int($0) }
        guard manager.accepts(host: host, port: port) else {
            // Counted and logged at most once in a while: a stranger must not fill the log.
            let n = strangers.wrappingAdd(1, ordering: .relaxed).newValue
            if n & (n - 1) == 0 {
                logger.warning(
                    "NSM: ignored \(n == 1 ? "a message" : "\(n) messages") from \(host ?? "?"):\(port.map(String.init) ?? "?"), which is not the session manager"
                )
            }
            return
        }
        let address = LibloMessages.string(path) ?? ""
        guard let arguments = LibloMessages.arguments(types: types, argv: argv, argc: argc, message: message) else {
            logger.warning("NSM: ignored a malformed \(OSCCommandRouter.clip(address, 120)) (type tags and arguments disagree)")
            return
        }
        onMessage(address, arguments)
    }
}
