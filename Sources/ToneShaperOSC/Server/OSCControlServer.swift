import Logging
import Synchronization
import ToneShaperControl
import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The OSC control surface of the node (SPEC 10): one thread receiving OSC over UDP and
/// TCP on the same port, IPv4 and IPv6 (see `ListeningSockets`), that checks each
/// message's sender, turns the message into an `EngineController` call, and answers the
/// sender.
///
/// `<prefix>/reply-port P` is handled here, before routing: it is about where replies go,
/// not about the sound. From then on replies to that sender's address go to UDP port P
/// (0 restores replying to the source).
///
/// Replies (all under the configured prefix, `/toneshaper` by default):
/// - a change applied: `/toneshaper/ok <address:s>` (unless `acknowledge` is off);
/// - anything refused: `/toneshaper/error <address:s> <reason:s>`, nothing changed;
/// - `/toneshaper/state`: key/value pairs, one per parameter (`frequency/min` f, `wave` s,
///   `fidelity` i, `anti-alias` i, ...) in the table's order, then `playing` i, `points` i;
/// - `/toneshaper/stats`: `p50` `p99` `p999` `max` (µs, f), `xruns` `periods` `bufferSize`
///   (i), `sampleRate` (f), `frame` (i).
///
/// Senders outside the access policy get no reply and change nothing. Error replies are
/// rate-limited per sender, error log lines globally.
///
/// All the work happens on the receiving thread; `start` and `stop` may be called from any
/// thread but not from inside a handler.
public final class OSCControlServer: @unchecked Sendable {
    // @unchecked: `loop` and `sockets` are written only by start() before the receiving thread
    // runs and by stop() after it has been joined; everything the handler mutates is in
    // a Mutex or an Atomic.

    public let configuration: Configuration
    public let controller: EngineController
    public let addressSpace: OSCAddressSpace
    public let policy: AccessPolicy
    private let router: OSCCommandRouter
    private let logger: Logger

    private var loop: OSCReceiveLoop?
    private var sockets: ListeningSockets?
    private var subscriptions: OSCSubscriptions?
    private let lifecycle = Mutex(false)
    private let boundPort = Atomic<Int>(0)

    private struct Throttles {
        var replies: ReplyLimiter
        var errorLog: LogThrottle
        var refusalLog: LogThrottle
        var replyPorts = ReplyPortTable()
    }
    private let throttles: Mutex<Throttles>

    private let receivedCount = Atomic<Int>(0)
    private let appliedCount = Atomic<Int>(0)
    private let refusedCount = Atomic<Int>(0)
    private let ignoredSenderCount = Atomic<Int>(0)

    /// - Throws: `OSCConfigurationError` naming the configuration field that is wrong.
    public init(
        controller: EngineController, configuration: Configuration = Configuration(),
        services: OSCHostServices = OSCHostServices(),
        logger: Logger = Logger(label: "toneshaper.osc")
    ) throws(OSCConfigurationError) {
        let (prefix, policy) = try configuration.validated()
        self.configuration = configuration
        self.controller = controller
        self.policy = policy
        self.logger = logger
        addressSpace = OSCAddressSpace(prefix: prefix)
        router = OSCCommandRouter(
            space: addressSpace, controller: controller, services: services,
            maximumStringLength: configuration.maximumStringLength)
        throttles = Mutex(
            Throttles(
                replies: ReplyLimiter(rate: configuration.errorRepliesPerSecond, burst: configuration.errorReplyBurst),
                errorLog: LogThrottle(linesPerSecond: configuration.logLinesPerSecond),
                refusalLog: LogThrottle(linesPerSecond: configuration.logLinesPerSecond)))
    }

    deinit {
        stop()
    }

    // MARK: Lifecycle

    /// Opens the UDP and TCP ports (the same number) and starts the receiving thread.
    public func start() throws(OSCConfigurationError) {
        try lifecycle.withLock { running throws(OSCConfigurationError) in
            guard !running else { return }
            let sockets = try ListeningSockets.open(port: configuration.port)
            let policy = self.policy
            guard
                let loop = OSCReceiveLoop(
                    sockets: sockets,
                    admit: { [weak self] peer in
                        guard let self else { return false }
                        if self.policy.permits(host: peer.ip.map(\.description)) { return true }
                        self.refuseSender(peer.ip?.description)
                        return false
                    },
                    note: { [weak self] line in self?.logThrottled(\.errorLog) { line } },
                    handler: { [weak self] packet, origin in self?.receive(packet, from: origin) })
            else {
                sockets.close()
                throw OSCConfigurationError("cannot start the OSC receiving thread (no pipe available)")
            }
            boundPort.store(sockets.port, ordering: .releasing)
            self.sockets = sockets
            self.loop = loop
            let router = self.router
            let subscriptions = OSCSubscriptions(
                send: { packet, address in
                    // sendto on the UDP socket is safe from any thread (TCP is the loop's alone).
                    let destination = address.converted(to: sockets.family)
                    return packet.withUnsafeBytes { bytes in
                        destination.withSockaddr { sendto(sockets.udp, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
                    } == packet.count
                },
                messages: { keys in router.updateMessages(for: keys) })
            subscriptions.start(watching: controller)
            self.subscriptions = subscriptions
            loop.start()
            running = true
            logger.info(
                "listening on \(url) and \(tcpURL)\(sockets.family == AF_INET6 ? " (IPv4 and IPv6)" : "") (prefix \(addressSpace.prefix.isEmpty ? "none" : addressSpace.prefix)); accepting \(policy)"
            )
        }
    }

    /// Stops the receiving thread (waiting for a message being handled) and closes the ports.
    public func stop() {
        lifecycle.withLock { running in
            guard running, let loop, let sockets else { return }
            subscriptions?.stop()
            subscriptions = nil
            loop.stop()
            sockets.close()
            self.loop = nil
            self.sockets = nil
            running = false
            let (errors, refusals) = throttles.withLock { ($0.errorLog.drainSuppressed(), $0.refusalLog.drainSuppressed()) }
            if errors + refusals > 0 {
                logger.warning("\(errors) more refused messages and \(refusals) more refused senders not logged")
            }
        }
    }

    public var isRunning: Bool { lifecycle.withLock { $0 } }

    /// The port listened on, UDP and TCP alike (the one the kernel chose when configured
    /// with 0).
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// "osc.udp://127.0.0.1:9000/", for printing at start.
    public var url: String { "osc.udp://\(urlHost):\(port)/" }

    /// "osc.tcp://127.0.0.1:9000/": the same port over TCP.
    public var tcpURL: String { "osc.tcp://\(urlHost):\(port)/" }

    private var urlHost: String {
        switch configuration.host?.trimmingWhitespace {
        case nil, "", "localhost": return "127.0.0.1"
        case let h?: return h.contains(":") ? "[\(h)]" : h
        }
    }

    /// What the server has seen since it was made.
    public struct Counters: Equatable, Sendable {
        /// Messages from allowed senders.
        public var received: Int
        /// Changes applied and queries answered.
        public var applied: Int
        /// Messages refused with an error (replied to or not).
        public var refused: Int
        /// Messages from senders outside the access policy (ignored, no reply).
        public var ignoredSenders: Int
        /// Error replies not sent because of the per-sender limit.
        public var suppressedReplies: Int
    }

    public var counters: Counters {
        Counters(
            received: receivedCount.load(ordering: .relaxed), applied: appliedCount.load(ordering: .relaxed),
            refused: refusedCount.load(ordering: .relaxed), ignoredSenders: ignoredSenderCount.load(ordering: .relaxed),
            suppressedReplies: throttles.withLock { $0.replies.suppressed })
    }

    // MARK: Handling (the receiving thread)

    /// One packet (a message or a bundle of them) from one sender.
    private func receive(_ packet: UnsafeRawBufferPointer, from origin: PacketOrigin) {
        let sender = origin.address.ip
        let host = sender?.description
        guard let sender, policy.permits(sender) else {
            refuseSender(host)
            return
        }
        let messages = OSCPacket.decode(packet)
        if messages.isEmpty {
            receivedCount.add(1, ordering: .relaxed)
            refusedCount.add(1, ordering: .relaxed)
            logThrottled(\.errorLog) { "ignored \(packet.count) bytes from \(host ?? "?") that are not an OSC message or bundle" }
            return
        }
        for message in messages {
            // Session-manager messages belong on the NSM socket (ToneShaperOSC/NSM); one that
            // strays here is no control address and gets no error reply.
            if NSMProtocol.isSessionAddress(message.path) { continue }
            receivedCount.add(1, ordering: .relaxed)
            let response: OSCResponse
            if message.path == addressSpace.replyPortAddress {
                response = setReplyPort(message.arguments, for: sender)
            } else if message.path == addressSpace.subscribeAddress || message.path == addressSpace.unsubscribeAddress {
                response = subscription(message.path, message.arguments, from: replyRoute(for: origin, sender: sender), sender: sender)
            } else if let arguments = message.arguments {
                response = router.handle(path: message.path, arguments: arguments, timeTag: message.timeTag)
            } else {
                response = .refused(address: message.path, reason: "malformed message (type tags and arguments disagree)")
            }
            respond(response, to: replyRoute(for: origin, sender: sender), host: host)
        }
    }

    private func respond(_ response: OSCResponse, to route: PacketOrigin, host: String?) {
        switch response {
        case .applied(let address, let notes):
            appliedCount.add(1, ordering: .relaxed)
            logger.debug("\(OSCCommandRouter.clip(address, 200)) applied (from \(host ?? "?"))")
            if configuration.acknowledge {
                reply(to: route, OSCMessage(path: addressSpace.okAddress, arguments: [.string(address)] + notes.map { .string($0) }))
            }
        case .reply(let message):
            appliedCount.add(1, ordering: .relaxed)
            reply(to: route, message)
        case .refused(let address, let reason):
            refusedCount.add(1, ordering: .relaxed)
            let shownAddress = OSCCommandRouter.clip(address, 256)
            logThrottled(\.errorLog) { "\(shownAddress) from \(host ?? "?") refused: \(reason)" }
            let allowed = throttles.withLock { $0.replies.allow(sender: host ?? "?") }
            if allowed {
                reply(to: route, OSCMessage(path: addressSpace.errorAddress, arguments: [.string(shownAddress), .string(reason)]))
            }
        }
    }

    /// Where replies to this sender go: back where the packet came from (its UDP source
    /// port, or its TCP connection), unless it chose a reply port, which is always UDP.
    private func replyRoute(for origin: PacketOrigin, sender: IPAddress) -> PacketOrigin {
        guard let port = throttles.withLock({ $0.replyPorts.port(for: sender) }) else { return origin }
        return PacketOrigin(transport: .udp, address: origin.address.withPort(port))
    }

    /// `<prefix>/reply-port P`: transport, not a parameter, so it is handled here, before
    /// routing. 0 goes back to replying to the source port.
    private func setReplyPort(_ arguments: [OSCValue]?, for sender: IPAddress) -> OSCResponse {
        let address = addressSpace.replyPortAddress
        guard let arguments, arguments.count == 1 else {
            return .refused(address: address, reason: "expects one argument, a UDP port 1...65535 (0: reply to the source port again)")
        }
        let port: Int?
        switch arguments[0] {
        case .int32(let i): port = Int(i)
        case .int64(let i): port = Int(exactly: i)
        case .float(let f): port = Int(exactly: f)
        case .double(let d): port = Int(exactly: d)
        default: port = nil
        }
        guard let port, (0...65535).contains(port) else {
            return .refused(
                address: address, reason: "\(arguments[0]) is not a port; give a whole number 1...65535, or 0 to reply to the source port again")
        }
        throttles.withLock { $0.replyPorts.set(port, for: sender) }
        return .applied(address: address, notes: [])
    }

    /// `<prefix>/subscribe [port] [host]` and `<prefix>/unsubscribe [port] [host]`: where
    /// changes are pushed. Without arguments, the sender's own address and reply port;
    /// another host only if the access policy would take control from it.
    private func subscription(_ path: String, _ arguments: [OSCValue]?, from route: PacketOrigin, sender: IPAddress) -> OSCResponse {
        guard let subscriptions else { return .refused(address: path, reason: "the server is stopping") }
        let usage = "expects no arguments, a UDP port, or a port and a host"
        guard let arguments, arguments.count <= 2 else { return .refused(address: path, reason: usage) }
        var port = route.address.port
        var host = sender
        if let first = arguments.first {
            switch first {
            case .int32(let p) where (1...65535).contains(p): port = Int(p)
            case .float(let p) where p == p.rounded() && (1...65535).contains(p): port = Int(p)
            default: return .refused(address: path, reason: "\(usage); \(first) is not a port 1...65535")
            }
        }
        if arguments.count == 2 {
            guard case .string(let text) = arguments[1], let named = IPAddress(text == "localhost" ? "127.0.0.1" : text) else {
                return .refused(address: path, reason: "\(usage); the host must be a numeric IPv4 or IPv6 address")
            }
            guard policy.permits(named) else {
                return .refused(address: path, reason: "\(named) may not control this node (accepting \(policy)), so it cannot subscribe either")
            }
            host = named
        }
        let address = SocketAddress(host, port: port)
        if path == addressSpace.unsubscribeAddress {
            guard subscriptions.remove(address) else { return .refused(address: path, reason: "\(address.description) is not subscribed") }
            return .applied(address: path, notes: [])
        }
        guard subscriptions.add(address) else {
            return .refused(
                address: path,
                reason: "\(OSCSubscriptions.maximum) controllers are subscribed already, the most this node serves; unsubscribe one first")
        }
        // The whole state once, so the controller starts from what plays.
        if let packet = OSCPacket.encode(router.stateReply()) { subscriptions.push(packet, to: address) }
        return .applied(address: path, notes: [])
    }

    private func reply(to route: PacketOrigin, _ message: OSCMessage) {
        guard let loop, let packet = OSCPacket.encode(message) else { return }
        if !loop.reply(packet, to: route) {
            logThrottled(\.errorLog) { "could not send \(message.path) to \(route.address.description)" }
        }
    }

    private func refuseSender(_ host: String?) {
        ignoredSenderCount.add(1, ordering: .relaxed)
        logThrottled(\.refusalLog) { "ignored a message from \(host ?? "an unknown sender"), which is not allowed (accepting \(self.policy))" }
    }

    private func logThrottled(_ which: WritableKeyPath<Throttles, LogThrottle>, _ line: () -> String) {
        let decision = throttles.withLock { $0[keyPath: which].decide() }
        guard case .log(let suppressed) = decision else { return }
        if suppressed > 0 { logger.warning("\(suppressed) more such lines suppressed in the last second") }
        logger.warning("\(line())")
    }
}

extension OSCAddressSpace {
    /// `<prefix>/reply-port`: where this sender's replies go (handled by the server).
    var replyPortAddress: String { prefix + "/" + OSCServerAddress.replyPort.path }
    /// `<prefix>/subscribe`, `<prefix>/unsubscribe`: pushed changes (handled by the server).
    var subscribeAddress: String { prefix + "/" + OSCServerAddress.subscribe.path }
    var unsubscribeAddress: String { prefix + "/" + OSCServerAddress.unsubscribe.path }
}
