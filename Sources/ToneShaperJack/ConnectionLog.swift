import CJack
import Synchronization

/// Every connection to or from the node's ports as JACK announces it (the port-connect
/// callback), so that one made with `jack_connect` a few milliseconds before the server
/// dies is still restored: the control loop's poll of the graph runs every 50 ms and
/// cannot see the graph of a server that is already gone.
///
/// The callback runs on JACK's notification thread, never the process thread, so it may
/// take this lock and allocate.
final class ConnectionLog: Sendable {
    struct Event: Equatable {
        var connection: Connection
        var connected: Bool
    }

    /// The client and its ports are kept as addresses (plain integers, so the state is
    /// Sendable), only compared and handed back to libjack under the lock.
    private struct State {
        var generation = 0
        var client: UInt = 0
        var ports: [UInt] = []
        var events: [Event] = []
    }
    private let state = Mutex(State())

    /// A new client: events from older ones are dropped from now on.
    func begin(generation: Int, client: OpaquePointer, ports: [OpaquePointer]) {
        let address = ConnectionLog.address(client)
        let portAddresses = ports.map(ConnectionLog.address)
        state.withLock { $0 = State(generation: generation, client: address, ports: portAddresses) }
    }

    /// The client is closing: its pointers must not be used any more.
    func end(generation: Int) {
        state.withLock { s in
            if s.generation == generation {
                s.client = 0
                s.ports = []
            }
        }
    }

    /// From the port-connect callback: records the change if one side is ours.
    func record(_ a: jack_port_id_t, _ b: jack_port_id_t, connected: Bool, generation: Int) {
        state.withLock { s in
            guard s.generation == generation, let client = OpaquePointer(bitPattern: s.client),
                let portA = jack_port_by_id(client, a), let portB = jack_port_by_id(client, b)
            else { return }
            let (index, peer): (Int, OpaquePointer)
            if let i = s.ports.firstIndex(of: ConnectionLog.address(portA)) {
                (index, peer) = (i, portB)
            } else if let i = s.ports.firstIndex(of: ConnectionLog.address(portB)) {
                (index, peer) = (i, portA)
            } else {
                return
            }
            guard let name = jack_port_name(peer) else { return }
            s.events.append(Event(connection: Connection(port: index, peer: String(cString: name)), connected: connected))
            // Bounded: a client flapping connections must not grow this without end.
            if s.events.count > 4096 { s.events.removeFirst(s.events.count - 4096) }
        }
    }

    /// The events of `generation` since the last call, oldest first.
    func drain(generation: Int) -> [Event] {
        state.withLock { s in
            guard s.generation == generation else { return [] }
            defer { s.events.removeAll() }
            return s.events
        }
    }

    private static func address(_ pointer: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))
    }

    /// `connections` with `events` applied in order.
    static func apply(_ events: [Event], to connections: [Connection]) -> [Connection] {
        var result = connections
        for event in events {
            if event.connected {
                if !result.contains(event.connection) { result.append(event.connection) }
            } else {
                result.removeAll { $0 == event.connection }
            }
        }
        return result
    }
}
