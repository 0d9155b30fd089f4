import CLiblo
import Logging
import Synchronization
import ToneShaperCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The OSC control surface of the node (SPEC 10): a liblo server thread that checks each
/// message's sender, turns the message into an `EngineController` call, and answers the
/// sender.
///
/// Replies (all under the configured prefix, `/toneshaper` by default):
/// - a change applied: `/toneshaper/ok <address:s>` (unless `acknowledge` is off);
/// - anything refused: `/toneshaper/error <address:s> <reason:s>`, nothing changed;
/// - `/toneshaper/state`: key/value pairs, one per parameter (`frequency/min` f, `wave` s,
///   `fidelity` i, `anti-alias` i, ...) in the table's order, then `playing` i, `points` i;
/// - `/toneshaper/stats`: `p50` `p99` `p999` `max` (µs, f), `xruns` `periods` `bufferSize`
///   (i), `sampleRate` (f).
///
/// Senders outside the access policy get no reply and change nothing. Error replies are
/// rate-limited per sender, error log lines globally.
///
/// All the work happens on liblo's thread; `start` and `stop` may be called from any
/// thread but not from inside a handler.
public final class OSCControlServer: @unchecked Sendable {
    // @unchecked: `thread` and `server` are written only by start() before liblo's thread
    // runs and by stop() after it has been joined; everything the handler mutates is in
    // a Mutex or an Atomic.

    public let configuration: Configuration
    public let controller: EngineController
    public let addressSpace: OSCAddressSpace
    public let policy: AccessPolicy
    private let router: OSCCommandRouter
    private let logger: Logger

    private var loop: OSCReceiveLoop?
    private var server: lo_server?
    private let lifecycle = Mutex(false)
    private let boundPort = Atomic<Int>(0)

    private struct Throttles {
        var replies: ReplyLimiter
        var errorLog: LogThrottle
        var refusalLog: LogThrottle
    }
    private let throttles: Mutex<Throttles>

    private let receivedCount = Atomic<Int>(0)
    private let appliedCount = Atomic<Int>(0)
    private let refusedCount = Atomic<Int>(0)
    private let ignoredSenderCount = Atomic<Int>(0)

    /// - Throws: `OSCConfigurationError` naming the configuration field that is wrong.
    public init(controller: EngineController, configuration: Configuration = Configuration(),
                services: OSCHostServices = OSCHostServices(),
                logger: Logger = Logger(label: "toneshaper.osc")) throws(OSCConfigurationError) {
        let (prefix, policy) = try configuration.validated()
        self.configuration = configuration
        self.controller = controller
        self.policy = policy
        self.logger = logger
        addressSpace = OSCAddressSpace(prefix: prefix)
        router = OSCCommandRouter(space: addressSpace, controller: controller, services: services,
                                  maximumStringLength: configuration.maximumStringLength)
        throttles = Mutex(Throttles(
            replies: ReplyLimiter(rate: configuration.errorRepliesPerSecond, burst: configuration.errorReplyBurst),
            errorLog: LogThrottle(linesPerSecond: configuration.logLinesPerSecond),
            refusalLog: LogThrottle(linesPerSecond: configuration.logLinesPerSecond)))
    }

    deinit {
        stop()
    }

    // MARK: Lifecycle

    /// Opens the UDP port and starts the receiving thread.
    public func start() throws(OSCConfigurationError) {
        try lifecycle.withLock { running throws(OSCConfigurationError) in
            guard !running else { return }
            LibloErrors.use(logger)
            LibloErrors.clearLast()
            guard let server = lo_server_new_with_proto(String(configuration.port), LO_UDP, LibloErrors.handler) else {
                let why = LibloErrors.last ?? "unknown error"
                throw OSCConfigurationError("cannot open OSC UDP port \(configuration.port): \(why)\(configuration.port != 0 ? "; is another program using it? (--osc-port 0 picks a free one)" : "")")
            }
            // Future-dated bundles are handed over at once with their time tag, which
            // becomes a sample position on the audio side (SPEC 12); liblo's own queue
            // would dispatch them late and coarsely on its thread.
            lo_server_enable_queue(server, 0, 1)
            let fd = lo_server_get_socket_fd(server)
            // Room for bursts from a fast controller before the kernel drops datagrams.
            var bufferSize: Int32 = 1 << 20
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
            // liblo reports port 0 as 0: ask the socket which port the kernel chose.
            boundPort.store(OSCControlServer.localPort(of: fd) ?? configuration.port, ordering: .releasing)

            // One catch-all method: every address is routed in Swift (see OSCAddressSpace
            // on why OSC patterns must not fan out), arity and types are checked there,
            // and unknown addresses are answered instead of dropped.
            lo_server_add_method(server, nil, nil, { path, types, argv, argc, message, context in
                guard let context else { return 0 }
                Unmanaged<OSCControlServer>.fromOpaque(context)._withUnsafeGuaranteedRef {
                    $0.receive(path: path, types: types, argv: argv, argc: argc, message: message)
                }
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())

            guard let loop = OSCReceiveLoop(server: server) else {
                lo_server_free(server)
                throw OSCConfigurationError("cannot start the OSC receiving thread (no pipe available)")
            }
            self.server = server
            self.loop = loop
            loop.start()
            running = true
            logger.info("OSC control on \(url) (prefix \(addressSpace.prefix.isEmpty ? "none" : addressSpace.prefix)); accepting \(policy)")
        }
    }

    /// Stops the receiving thread (waiting for a message being handled) and closes the port.
    public func stop() {
        lifecycle.withLock { running in
            guard running, let loop, let server else { return }
            loop.stop()
            lo_server_free(server)
            self.loop = nil
            self.server = nil
            running = false
            let (errors, refusals) = throttles.withLock { ($0.errorLog.drainSuppressed(), $0.refusalLog.drainSuppressed()) }
            if errors + refusals > 0 {
                logger.warning("OSC: \(errors) more refused messages and \(refusals) more refused senders not logged")
            }
        }
    }

    public var isRunning: Bool { lifecycle.withLock { $0 } }

    /// The UDP port listened on (the one the kernel chose when configured with 0).
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// "osc.udp://127.0.0.1:9000/", for printing at start.
    public var url: String {
        let host: String
        switch configuration.host?.trimmingWhitespace {
        case nil, "", "localhost": host = "127.0.0.1"
        case let h?: host = h.contains(":") ? "[\(h)]" : h
        }
        return "osc.udp://\(host):\(port)/"
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
        Counters(received: receivedCount.load(ordering: .relaxed), applied: appliedCount.load(ordering: .relaxed),
                 refused: refusedCount.load(ordering: .relaxed), ignoredSenders: ignoredSenderCount.load(ordering: .relaxed),
                 suppressedReplies: throttles.withLock { $0.replies.suppressed })
    }

    // MARK: Handling (liblo's thread)

    private func receive(path: UnsafePointer<CChar>?, types: UnsafePointer<CChar>?,
                         argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?, argc: Int32, message: lo_message?) {
        // The source belongs to liblo and is freed after this handler: read it now, keep
        // nothing of it.
        let source = message.flatMap { lo_message_get_source($0) }
        let host = source.flatMap { LibloMessages.string(lo_address_get_hostname($0)) }
        guard policy.permits(host: host) else {
            ignoredSenderCount.add(1, ordering: .relaxed)
            logThrottled(\.refusalLog) { "OSC: ignored a message from \(host ?? "an unknown sender"), which is not allowed (accepting \(self.policy))" }
            return
        }
        let address = LibloMessages.string(path) ?? ""
        // Session-manager messages belong on the NSM socket (ToneShaperOSC/NSM); one that
        // strays here is no control address and gets no error reply.
        if NSMProtocol.isSessionAddress(address) { return }
        receivedCount.add(1, ordering: .relaxed)
        let response: OSCResponse
        if let arguments = LibloMessages.arguments(types: types, argv: argv, argc: argc, message: message) {
            let tag = message.map { lo_message_get_timestamp($0) } ?? toneshaper_lo_tt_immediate()
            response = router.handle(path: address, arguments: arguments,
                                     timeTag: OSCTimeTag(seconds: tag.sec, fraction: tag.frac))
        } else {
            response = .refused(address: address, reason: "malformed message (type tags and arguments disagree)")
        }

        switch response {
        case .applied(let address, let notes):
            appliedCount.add(1, ordering: .relaxed)
            logger.debug("OSC \(OSCCommandRouter.clip(address, 200)) applied (from \(host ?? "?"))")
            if configuration.acknowledge {
                reply(to: source, OSCMessage(path: addressSpace.okAddress, arguments: [.string(address)] + notes.map { .string($0) }))
            }
        case .reply(let message):
            appliedCount.add(1, ordering: .relaxed)
            reply(to: source, message)
        case .refused(let address, let reason):
            refusedCount.add(1, ordering: .relaxed)
            let shownAddress = OSCCommandRouter.clip(address, 256)
            logThrottled(\.errorLog) { "OSC \(shownAddress) from \(host ?? "?") refused: \(reason)" }
            let allowed = throttles.withLock { $0.replies.allow(sender: host ?? "?") }
            if allowed {
                reply(to: source, OSCMessage(path: addressSpace.errorAddress, arguments: [.string(shownAddress), .string(reason)]))
            }
        }
    }

    private func reply(to source: lo_address?, _ message: OSCMessage) {
        guard let source, let server, let payload = LibloMessages.make(message.arguments) else { return }
        defer { lo_message_free(payload) }
        if lo_send_message_from(source, server, message.path, payload) < 0 {
            logThrottled(\.errorLog) { "OSC: could not send \(message.path) to \(LibloMessages.string(lo_address_get_hostname(source)) ?? "?")" }
        }
    }

    private func logThrottled(_ which: WritableKeyPath<Throttles, LogThrottle>, _ line: () -> String) {
        let decision = throttles.withLock { $0[keyPath: which].decide() }
        guard case .log(let suppressed) = decision else { return }
        if suppressed > 0 { logger.warning("OSC: \(suppressed) more such lines suppressed in the last second") }
        logger.warning("\(line())")
    }

    /// The port a socket is bound to.
    static func localPort(of fd: Int32) -> Int? {
        guard fd >= 0 else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }
}
