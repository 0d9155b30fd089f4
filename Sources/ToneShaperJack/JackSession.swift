import CJack
import Dispatch
import Foundation
import Logging

/// One open JACK client and its output ports. The node opens one at start and a new one
/// each time a server comes back after a loss. Used from the node's control side only.
struct JackSession: @unchecked Sendable {
    let client: OpaquePointer
    let ports: [OpaquePointer]
    let generation: Int
    /// Where the server-notification callbacks report; freed once the client is closed.
    let token: UnsafeMutablePointer<SessionToken>

    /// Opens a client without ever starting a server, registers the ports and installs the
    /// notification callbacks (everything except the process callback).
    static func open(
        configuration: JackNodeConfiguration, generation: Int,
        signals: NodeSignals
    ) throws(JackNodeError) -> JackSession {
        JackMessages.install()
        var status = JackStatus(rawValue: 0)
        let opened = configuration.clientName.withCString { name in
            if let server = configuration.serverName {
                return server.withCString { toneshaper_jack_client_open_on(name, JackNoStartServer, &status, $0) }
            }
            return toneshaper_jack_client_open(name, JackNoStartServer, &status)
        }
        guard let client = opened else {
            let server = configuration.effectiveServerName
            if status.rawValue & JackServerFailed.rawValue != 0 || status.rawValue & JackServerError.rawValue != 0 {
                throw .noServer(serverName: server)
            }
            throw .openFailed(serverName: server, status: status.rawValue)
        }
        var ports: [OpaquePointer] = []
        for short in configuration.portShortNames {
            guard
                let port = jack_port_register(
                    client, short, toneshaper_jack_audio_type(),
                    UInt(JackPortIsOutput.rawValue), 0)
            else {
                jack_client_close(client)
                throw .portRegistrationFailed(port: short)
            }
            ports.append(port)
        }
        if configuration.midiInput
            && jack_port_register(
                client, JackNodeConfiguration.midiPortName, toneshaper_jack_midi_type(),
                UInt(JackPortIsInput.rawValue), 0) == nil
        {
            jack_client_close(client)
            throw .portRegistrationFailed(port: JackNodeConfiguration.midiPortName)
        }
        let token = UnsafeMutablePointer<SessionToken>.allocate(capacity: 1)
        token.initialize(to: SessionToken(signals: .passRetained(signals), generation: generation))
        let arg = UnsafeMutableRawPointer(token)
        jack_set_sample_rate_callback(client, { rate, arg in JackCallbacks.sampleRateChanged(rate, arg) }, arg)
        jack_set_buffer_size_callback(client, { frames, arg in JackCallbacks.bufferSizeChanged(frames, arg) }, arg)
        jack_set_xrun_callback(client, { arg in JackCallbacks.xrun(arg) }, arg)
        jack_set_freewheel_callback(client, { starting, arg in JackCallbacks.freewheel(starting, arg) }, arg)
        jack_on_info_shutdown(client, { code, reason, arg in JackCallbacks.infoShutdown(code, reason, arg) }, arg)
        jack_on_shutdown(client, { arg in JackCallbacks.shutdown(arg) }, arg)
        signals.connectionLog.begin(generation: generation, client: client, ports: ports)
        jack_set_port_connect_callback(client, { a, b, connect, arg in JackCallbacks.portConnect(a, b, connect, arg) }, arg)
        return JackSession(client: client, ports: ports, generation: generation, token: token)
    }

    var clientName: String { String(cString: jack_get_client_name(client)) }
    var portNames: [String] { ports.map { String(cString: jack_port_name($0)) } }
    var sampleRate: Int { Int(jack_get_sample_rate(client)) }
    var bufferSize: Int { Int(jack_get_buffer_size(client)) }

    /// Points the real-time state at this client's ports and installs the process callback.
    /// Only while no client runs the callback (before activation).
    func attach(_ state: UnsafeMutablePointer<RealtimeState>) {
        state.pointee.client = client
        state.pointee.port = ports[0]
        state.pointee.mirrorPort = ports.count > 1 ? ports[1] : nil
        state.pointee.midiPort = midiPort
        jack_set_process_callback(client, { frames, arg in JackCallbacks.process(frames, arg) }, UnsafeMutableRawPointer(state))
    }

    func activate() throws(JackNodeError) {
        if jack_activate(client) != 0 { throw .activationFailed }
    }

    /// The physical playback ports (jack_get_ports with JackPortIsPhysical | JackPortIsInput).
    func physicalPlaybackPorts() -> [String] {
        let flags = UInt(JackPortIsPhysical.rawValue | JackPortIsInput.rawValue)
        return JackSession.strings(jack_get_ports(client, nil, toneshaper_jack_audio_type(), flags))
    }

    /// Connects our port `index` to `destination`. True when connected (or already was).
    @discardableResult
    func connect(port index: Int, to destination: String) -> Bool {
        let result = jack_connect(client, jack_port_name(ports[index]), destination)
        return result == 0 || result == EEXIST
    }

    /// Every connection our ports have now, as (our port index, other port's full name).
    func connections() -> [Connection] {
        var found: [Connection] = []
        for (index, port) in ports.enumerated() {
            for other in JackSession.strings(jack_port_get_connections(port)) {
                found.append(Connection(port: index, peer: other))
            }
        }
        return found
    }

    /// A port name exists in the graph now.
    func portExists(_ name: String) -> Bool { jack_port_by_name(client, name) != nil }

    /// Closes the client on a separate thread and waits at most `timeout` seconds: after a
    /// server restart `jack_client_close` has been seen to hang (jack2 issue 395). True when
    /// it returned; then the token is freed too. On a timeout both are left behind.
    func close(deactivateFirst: Bool, timeout: Double) -> Bool {
        token.pointee.signals._withUnsafeGuaranteedRef { $0.connectionLog.end(generation: generation) }
        let done = DispatchSemaphore(value: 0)
        let this = self
        Thread.detachNewThread {
            if deactivateFirst { jack_deactivate(this.client) }
            jack_client_close(this.client)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return false }
        token.pointee.signals.release()
        token.deinitialize(count: 1)
        token.deallocate()
        return true
    }

    /// Copies a NULL-terminated array of C strings from libjack and frees it with jack_free.
    static func strings(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(list) }
        var result: [String] = []
        var i = 0
        while let name = list[i] {
            result.append(String(cString: name))
            i += 1
        }
        return result
    }
}

/// One connection of the node: which of its ports, to which other port.
struct Connection: Hashable, Sendable {
    var port: Int
    var peer: String
}
