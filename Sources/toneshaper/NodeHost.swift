import Foundation
import Logging
import Synchronization
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJack
import ToneShaperOSC
import ToneShaperWeb

/// The node's parts around one controller, wired in one place for a plain `toneshaper run`
/// and for the session manager's node (`SessionNode`) alike: the JACK client playing the
/// controller, the OSC control surface, the editor and OSCQuery, and their mDNS
/// announcement. As jalv gives each backend one interface, both callers start and stop these
/// through here only, with one policy for ports (`PortChoice`) and one for JACK (wait for a
/// server only when asked), and tell the user where the node is with the same lines.
final class NodeHost: Sendable {
    /// What the command line asked for (nsmd gives no options; a wrapper may).
    struct Options: Sendable {
        var serverName: String?
        /// nil: no OSC (--no-osc).
        var osc: OSCControlServer.Configuration?
        /// nil: no editor and no OSCQuery (--no-http).
        var web: WebConfiguration?
        /// Announce OSCQuery and OSC over mDNS (not with --no-mdns).
        var announce = true
        var midiInput = true
        var midiConnect: [String] = []
        var midiChannel: Int?
    }

    /// Where a surface listens.
    enum PortChoice {
        /// The configured port, and nothing else: the user named it, and scripts point at it.
        case configured
        /// This port when it is free (the one a session used before, so that a controller or a
        /// bookmark pointed at it keeps working), else any free port, never a fixed one that
        /// two instances would fight over.
        case preferring(Int?)
    }

    let controller: EngineController
    let options: Options
    private let library: DocumentLibrary
    private let logger: Logger

    private struct Parts {
        var node: JackNode?
        var osc: OSCControlServer?
        var web: WebControlServer?
        var announcer: ServiceAnnouncer?
    }
    /// In a mutex: the surfaces ask for the node playing now from their own threads (`/stats`,
    /// the scope), and under a session manager that node changes when the session switches.
    private let parts = Mutex(Parts())

    init(controller: EngineController, options: Options, library: DocumentLibrary, logger: Logger) {
        self.controller = controller
        self.options = options
        self.library = library
        self.logger = logger
    }

    var node: JackNode? { parts.withLock { $0.node } }
    var osc: OSCControlServer? { parts.withLock { $0.osc } }
    var web: WebControlServer? { parts.withLock { $0.web } }

    // MARK: Surfaces

    /// The OSC control surface (unless there is none), wired to the controller and the
    /// playing node's statistics.
    func startOSC(_ choice: PortChoice) throws {
        guard var configuration = options.osc, osc == nil else { return }
        let services = OSCHostServices(statistics: { [weak self] in self?.node?.stats() })
        let server = try openFirst(ports(choice, configured: configuration.port), "OSC control") { port in
            configuration.port = port
            return try OSCControlServer(controller: controller, configuration: configuration, services: services)
        }
        parts.withLock { $0.osc = server }
    }

    /// The editor page and OSCQuery (unless there are none), in front of the same
    /// controller, under the same allow list as OSC, telling OSCQuery clients the OSC port.
    func startWeb(_ choice: PortChoice, name: String) throws {
        guard var configuration = options.web, web == nil else { return }
        configuration.oscPort = osc?.port
        configuration.name = name
        if case .preferring = choice { configuration.searchFreePort = false }
        let services = WebHostServices(
            statistics: { [weak self] in self?.node?.stats() }, library: library,
            scope: .listening(server: options.serverName) { [weak self] in self?.node })
        let server = try openFirst(ports(choice, configured: configuration.port), "the editor") { port in
            configuration.port = port
            return try WebControlServer(controller: controller, configuration: configuration, services: services)
        }
        parts.withLock { $0.web = server }
    }

    /// Controllers find the node by itself: OSCQuery and OSC over mDNS (when a daemon runs),
    /// once, for the surfaces that are open.
    func announce(name: String) {
        guard options.announce else { return }
        parts.withLock { parts in
            guard parts.announcer == nil else { return }
            var services: [ServiceAnnouncer.Service] = []
            if let web = parts.web { services.append(.init(type: "_oscjson._tcp", port: web.port)) }
            if let osc = parts.osc { services += [.init(type: "_osc._udp", port: osc.port), .init(type: "_osc._tcp", port: osc.port)] }
            if !services.isEmpty { parts.announcer = ServiceAnnouncer(name: name, services: services) }
        }
    }

    private func ports(_ choice: PortChoice, configured: Int) -> [Int] {
        switch choice {
        case .configured: return [configured]
        case .preferring(let port): return [port, 0].compactMap { $0 }
        }
    }

    /// The one retry policy of the surfaces: a server made for each port in turn until one
    /// starts; what kept the last from starting is thrown.
    private func openFirst<Server: NodeSurface>(_ ports: [Int], _ what: String, _ make: (Int) throws -> Server) throws -> Server {
        func open(_ port: Int) throws -> Server {
            let server = try make(port)
            try server.start()
            return server
        }
        for port in ports.dropLast() {
            do { return try open(port) } catch { logger.notice("\(what) not on port \(port): \(error); trying another") }
        }
        return try open(ports.last!)
    }

    // MARK: JACK

    /// Opens a JACK client named `clientName` playing the controller, in place of the one
    /// there is; no server is an error.
    func startJack(clientName: String, stereo: Bool, connect: [String], autoConnect: Bool) throws(JackNodeError) -> JackNode {
        let node = makeJackNode(clientName: clientName, stereo: stereo, connect: connect, autoConnect: autoConnect)
        try node.start()
        parts.withLock { $0.node = node }
        return node
    }

    /// ``startJack(clientName:stereo:connect:autoConnect:)``, but no server is waited for
    /// instead of being an error: nil when SIGINT or SIGTERM ends the wait.
    func startJackWaitingForServer(clientName: String, stereo: Bool, connect: [String], autoConnect: Bool) throws(JackNodeError)
        -> JackNode?
    {
        let node = makeJackNode(clientName: clientName, stereo: stereo, connect: connect, autoConnect: autoConnect)
        var said = false
        while true {
            do throws(JackNodeError) {
                try node.start()
                parts.withLock { $0.node = node }
                return node
            } catch {
                guard case .noServer(let name) = error else { throw error }
                if !said { logger.notice("no JACK server \"\(name)\" yet; waiting for one (Ctrl-C to give up)") }
                said = true
            }
            if let signal = TerminationSignals.wait(seconds: 0.25) {
                logger.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM") while waiting for JACK: closing")
                return nil
            }
        }
    }

    /// The client to open, in place of the one there is (which is stopped).
    private func makeJackNode(clientName: String, stereo: Bool, connect: [String], autoConnect: Bool) -> JackNode {
        stopJack()
        var configuration = JackNodeConfiguration(
            clientName: clientName, serverName: options.serverName, stereo: stereo, connectTo: connect, autoConnect: autoConnect)
        configuration.midiInput = options.midiInput
        configuration.midiConnect = options.midiConnect
        configuration.midiChannel = options.midiChannel
        return JackNode(controller: controller, configuration: configuration)
    }

    /// Closes the JACK client, if there is one.
    func stopJack() {
        parts.withLock { parts in
            defer { parts.node = nil }
            return parts.node
        }?.stop()
    }

    // MARK: Closing

    /// Closes everything: the announcement, the surfaces, then the JACK client within
    /// `NodeShutdown`'s bound. False when the client's thread was left running: end the
    /// process with `NodeShutdown.exitLeavingNode()` once the rest is done.
    func stop() -> Bool {
        let closing = parts.withLock { parts in
            defer { parts = Parts() }
            return parts
        }
        closing.announcer?.stop()
        closing.web?.stop()
        closing.osc?.stop()
        return closing.node.map { NodeShutdown.stop($0) } ?? true
    }

    // MARK: Telling the user

    /// Where the node is, straight to file descriptor 1, unbuffered: whoever waits for
    /// these lines (a script, a test, a session manager's log) sees them at once even
    /// through a pipe.
    static func say(_ lines: String) {
        FileHandle.standardOutput.write(Data(lines.utf8))
    }

    /// "JACK: <ports>" and, with MIDI input, "MIDI: <port>".
    static func jackLines(_ node: JackNode) -> String {
        var lines = "JACK: \(node.portNames.joined(separator: " "))\n"
        if let midi = node.midiPortName { lines += "MIDI: \(midi)\n" }
        return lines
    }

    /// "OSC: osc.udp://...", "OSC: osc.tcp://...", for the OSC surface if it is open.
    var oscLines: String { osc.map { "OSC: \($0.url)\nOSC: \($0.tcpURL)\n" } ?? "" }

    /// "Editor: http://...", for the editor if it is open.
    var editorLine: String { web.map { "Editor: \($0.editorURL)\n" } ?? "" }
}

/// A surface the host opens on a port: made, then started (which opens the port).
protocol NodeSurface {
    func start() throws
}

extension OSCControlServer: NodeSurface {}
extension WebControlServer: NodeSurface {
    func start() throws { try start(timeout: 5) }
}
