import FlyingFox
import FlyingSocks
import Foundation
import Synchronization
import ToneShaperControl
import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#endif

public struct WebConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The node's web side: the editor page, OSCQuery, control over HTTP and WebSocket. A thin
/// adapter in front of the `EngineController`: requests become the core's commands, its
/// refusals are phrased for the page, and its change feed is pushed to every page. The
/// audio thread never waits on it: the controller hands changes over lock-free.
public final class WebControlServer: Sendable {
    public let configuration: WebConfiguration
    /// The token peers beyond loopback must give (nil when loopback only).
    public let token: String?
    /// The editor pages open now, for a session manager's optional GUI.
    public let pages = EditorPages()
    private let routes: WebRoutes
    private let bindAddress: String
    /// The server and the port it listens on, once started.
    private let running = Mutex<(server: HTTPServer, port: Int, task: Task<Void, any Error>)?>(nil)

    /// Checks the configuration and prepares the routes; `start()` binds and serves.
    public init(controller: EngineController, configuration: WebConfiguration, services: WebHostServices) throws {
        self.configuration = configuration
        let policy: AccessPolicy
        do { policy = try AccessPolicy(host: configuration.host, allow: configuration.allow) } catch {
            throw WebConfigurationError("--osc-host: \(error.description)")
        }
        guard (0...65535).contains(configuration.port) else {
            throw WebConfigurationError("--http-port: \(configuration.port) is not a port (0...65535)")
        }
        let loopbackOnly = policy.allowed.allSatisfy { range in AddressRange.loopback.contains(range) }
        token = loopbackOnly ? nil : RequestGuard.makeToken()
        // Loopback only: bind loopback, so nothing else even reaches the socket. Opened:
        // bind everything and let the policy and the token decide.
        bindAddress = loopbackOnly ? "127.0.0.1" : "0.0.0.0"
        let context = WebContext(
            controller: controller, namespace: OSCQueryNamespace(prefix: configuration.oscPrefix),
            services: services, name: configuration.name, oscPort: configuration.oscPort, pages: pages)
        routes = WebRoutes(context: context, guardian: RequestGuard(policy: policy, token: token), load: WebLoad())
    }

    /// The port listened on (0 before `start()`).
    public var port: Int { running.withLock { $0?.port ?? 0 } }

    /// The editor's address as printed (with the token when one is needed).
    public var editorURL: String {
        let host = configuration.host.flatMap { ["0.0.0.0", "::", "*", "localhost", ""].contains($0) ? nil : $0 } ?? "127.0.0.1"
        return "http://\(host):\(port)/editor" + (token.map { "?token=\($0)" } ?? "")
    }

    /// Binds and starts serving; returns once the socket listens. A free port found by the
    /// search may be taken by another program before the server binds it (several nodes
    /// starting at once): then the search goes on, a few times.
    public func start(timeout: Double = 5) throws {
        var lastError: any Error = WebConfigurationError("no port")
        for _ in 0..<5 {
            let port = try WebControlServer.freePort(configuration.port, search: configuration.searchFreePort, address: bindAddress)
            let address = try sockaddr_in.inet(ip4: bindAddress, port: UInt16(port))
            // Its own logger off: stdout carries the node's ready lines.
            let server = HTTPServer(
                config: HTTPServer.Configuration(
                    address: address, timeout: 30, pool: NoDelayPool(base: HTTPServer.defaultPool()),
                    logger: .disabled), handler: routes)
            switch WebControlServer.listen(server, timeout: timeout) {
            case .success(let task):
                running.withLock { $0 = (server, port, task) }
                return
            case .failure(let error):
                lastError = error
                // A port asked for by number is not searched past.
                guard configuration.searchFreePort || configuration.port == 0 else { break }
                continue
            }
            break
        }
        throw WebConfigurationError(
            "the web server could not listen on port \(configuration.port == 0 ? "any" : String(configuration.port)): \(lastError)")
    }

    /// ``start(timeout:)`` for async callers (tests, an async host). The synchronous one
    /// waits for the server's own tasks, which run on Swift concurrency's cooperative
    /// threads: blocking one of those few threads to wait would starve the tasks it waits
    /// for (two such waits at once deadlocked a 2-core machine's pool). So the wait happens
    /// on a thread of its own.
    public func start(timeout: Double = 5) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread {
                do {
                    try self.start(timeout: timeout)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// Runs `server` until it listens (its task) or fails to (why), whichever comes first.
    private static func listen(_ server: HTTPServer, timeout: Double) -> Result<Task<Void, any Error>, any Error> {
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let decided = DispatchSemaphore(value: 0)
        let settle = { @Sendable (result: Result<Void, any Error>) in
            let first = outcome.withLock { o in
                defer { if o == nil { o = result } }
                return o == nil
            }
            if first { decided.signal() }
        }
        let task = Task {
            do { try await server.run() } catch {
                settle(.failure(error))  // a bind that fails ends run() at once
                throw error
            }
        }
        Task {
            do {
                try await server.waitUntilListening(timeout: timeout)
                settle(.success(()))
            } catch {
                settle(.failure(error))
            }
        }
        decided.wait()
        switch outcome.withLock({ $0 }) {
        case .success?: return .success(task)
        case .failure(let error)?:
            task.cancel()
            return .failure(error)
        case nil: return .failure(WebConfigurationError("no outcome"))
        }
    }

    public func stop() {
        guard
            let (server, _, task) = running.withLock({ r in
                defer { r = nil }
                return r
            })
        else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await server.stop(timeout: 0.5)
            done.signal()
        }
        _ = done.wait(timeout: .now() + 2)
        task.cancel()
    }

    /// The first port from `port` that can be bound (port itself only, unless `search`);
    /// for 0, one the system picks.
    static func freePort(_ port: Int, search: Bool, address: String) throws -> Int {
        guard (0...65535).contains(port) else { throw WebConfigurationError("--http-port: \(port) is not a port (0...65535)") }
        let candidates = port == 0 || !search ? [port] : Array(port..<min(65536, port + WebConfiguration.portSearchLength))
        for candidate in candidates {
            if let bound = probe(candidate, address: address) { return bound }
        }
        // Many nodes on one machine: past the range the default searches, any free port
        // (the printed URL says which).
        if search && port != 0, let bound = probe(0, address: address) { return bound }
        throw WebConfigurationError(
            search && port != 0
                ? "--http-port: ports \(port) to \(candidates.last ?? port) are all taken; choose another with --http-port, or 0 for any free port"
                : "--http-port: port \(port) is taken; choose another, or 0 for any free port")
    }

    /// Binds and releases `port`, returning the port bound (the system's choice for 0).
    private static func probe(_ port: Int, address: String) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &sin.sin_addr)
        let bound = withUnsafePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return named == 0 ? Int(UInt16(bigEndian: sin.sin_port)) : port
    }
}
