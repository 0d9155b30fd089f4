import CJack
import Synchronization

/// A JACK client of the tests' own with one MIDI output port, `<name>:out`: what a
/// sequencer or keyboard is to the node or plugin under test, with every event placed at a
/// JACK frame.
///
/// An event is queued for a frame (``send(_:atFrame:)``, or ``send(_:after:)`` from the
/// frame now); the process callback writes it into the period that holds that frame, at
/// its offset. A frame already past when the callback first sees the event (the test's
/// thread ran late) is written at the start of the current period: ``deliveredFrame(_:)``
/// tells the frame each batch really went out at, which is what a test judges against.
///
/// A test tool, not real-time code: its callback takes a lock (the dummy server the tests
/// run does not schedule it in real time either).
public final class MIDISender: @unchecked Sendable {
    /// A batch of events queued together, to ask where it went out.
    public struct Ticket: Hashable, Sendable { let value: Int }

    private struct Pending {
        var ticket: Int
        var frame: UInt32  // JACK frame time
        var bytes: [UInt8]
    }

    private struct Queue {
        var pending: [Pending] = []
        var delivered: [Int: UInt32] = [:]
        var nextTicket = 0
    }

    private let client: OpaquePointer
    private let port: OpaquePointer
    private let queue = Mutex(Queue())
    /// Events JACK's buffer had no room for.
    public let refused = Atomic<Int>(0)
    public let written = Atomic<Int>(0)
    public let rate: Double
    public let portName: String

    /// Opens `name` on the server `serverName` and connects its port to `destination`.
    public init(serverName: String, name: String = "testmidi", connectTo destination: String?) throws {
        var status = JackStatus(rawValue: 0)
        guard
            let client = name.withCString({ n in
                serverName.withCString { toneshaper_jack_client_open_on(n, JackNoStartServer, &status, $0) }
            })
        else { throw TimelineError("the test MIDI client could not open (JACK status \(status.rawValue))") }
        guard let port = jack_port_register(client, "out", toneshaper_jack_midi_type(), UInt(JackPortIsOutput.rawValue), 0) else {
            jack_client_close(client)
            throw TimelineError("the test MIDI client could not register its port")
        }
        self.client = client
        self.port = port
        portName = String(cString: jack_port_name(port))
        rate = Double(jack_get_sample_rate(client))
        jack_set_process_callback(
            client,
            { frames, argument in
                guard let argument else { return 0 }
                Unmanaged<MIDISender>.fromOpaque(argument).takeUnretainedValue().process(frames)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else {
            jack_client_close(client)
            throw TimelineError("the test MIDI client could not activate")
        }
        guard let destination else { return }
        try TimelineRecorder.connect(client, from: String(cString: jack_port_name(port)), to: destination)
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
    }

    /// `events` (each a whole MIDI message, or anything at all) at the JACK frame `frame`,
    /// in order.
    @discardableResult
    public func send(_ events: [[UInt8]], atFrame frame: UInt32) -> Ticket {
        queue.withLock { queue in
            let ticket = queue.nextTicket
            queue.nextTicket += 1
            queue.pending += events.map { Pending(ticket: ticket, frame: frame, bytes: $0) }
            if events.isEmpty { queue.delivered[ticket] = frame }
            return Ticket(value: ticket)
        }
    }

    /// `events` `seconds` from the frame now.
    @discardableResult
    public func send(_ events: [[UInt8]], after seconds: Double) -> Ticket {
        send(events, atFrame: jack_frame_time(client) &+ UInt32(max(0, seconds) * rate))
    }

    /// The frame the batch's first event was written at; nil while it waits.
    public func deliveredFrame(_ ticket: Ticket) -> UInt32? {
        queue.withLock { $0.delivered[ticket.value] }
    }

    /// Waits until every batch in `tickets` went out, and returns their frames in order.
    public func delivered(_ tickets: [Ticket], timeout: Double = 10) async throws -> [UInt32] {
        guard await TimelineRecorder.poll(timeout: timeout, { tickets.allSatisfy { self.deliveredFrame($0) != nil } }) else {
            throw TimelineError("MIDI events were not written within \(timeout) s: the server's periods stopped")
        }
        return tickets.map { deliveredFrame($0)! }
    }

    private func process(_ frames: jack_nframes_t) {
        guard let buffer = jack_port_get_buffer(port, frames) else { return }
        jack_midi_clear_buffer(buffer)
        let start = jack_last_frame_time(client)
        queue.withLock { queue in
            var kept: [Pending] = []
            // JACK takes a period's events in time order only: a late one goes no earlier
            // than the one written before it.
            var earliest: UInt32 = 0
            for event in queue.pending {
                let offset = TimelineRecorder.distance(from: start, to: event.frame)
                if offset >= Int(frames) {
                    kept.append(event)
                    continue
                }
                let at = max(earliest, UInt32(max(0, offset)))
                earliest = at
                if queue.delivered[event.ticket] == nil { queue.delivered[event.ticket] = start &+ at }
                let result = event.bytes.withUnsafeBufferPointer { jack_midi_event_write(buffer, at, $0.baseAddress, $0.count) }
                if result == 0 { written.wrappingAdd(1, ordering: .relaxed) } else { refused.wrappingAdd(1, ordering: .relaxed) }
            }
            queue.pending = kept
        }
    }
}
