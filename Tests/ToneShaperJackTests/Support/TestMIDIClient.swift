import CJack
import Foundation
import Synchronization

/// A JACK client of the test's own with one MIDI output port, `<name>:out`, connected to
/// the node's `midi_in`. Events are scheduled at a delay from now; the process callback
/// writes each into the period it falls in, at its frame. A test tool, not real-time code:
/// its callback takes a lock (the dummy server runs without real-time scheduling).
final class TestMIDIClient: @unchecked Sendable {
    private struct Pending {
        var frame: UInt32  // JACK frame time
        var bytes: [UInt8]
    }

    private let client: OpaquePointer
    private let port: OpaquePointer
    private let queue = Mutex<[Pending]>([])
    /// Events JACK's buffer had no room for.
    let refused = Atomic<Int>(0)
    let written = Atomic<Int>(0)
    let rate: Double

    init(server: PrivateJackServer, name: String = "testmidi", connectTo destination: String?) throws {
        var status = JackStatus(rawValue: 0)
        guard
            let client = name.withCString({ n in
                server.name.withCString { toneshaper_jack_client_open_on(n, JackNoStartServer, &status, $0) }
            })
        else { throw JackTestError("the test MIDI client could not open (status \(status.rawValue))") }
        guard let port = jack_port_register(client, "out", toneshaper_jack_midi_type(), UInt(JackPortIsOutput.rawValue), 0) else {
            jack_client_close(client)
            throw JackTestError("the test MIDI client could not register its port")
        }
        self.client = client
        self.port = port
        rate = Double(jack_get_sample_rate(client))
        jack_set_process_callback(
            client,
            { frames, arg in
                guard let arg else { return 0 }
                Unmanaged<TestMIDIClient>.fromOpaque(arg).takeUnretainedValue().process(frames)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else {
            jack_client_close(client)
            throw JackTestError("the test MIDI client could not activate")
        }
        guard let destination else { return }
        let result = jack_connect(client, jack_port_name(port), destination)
        guard result == 0 else { throw JackTestError("could not connect the test MIDI client to \(destination) (\(result))") }
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
    }

    /// `events` (each a whole MIDI message, or anything at all) `seconds` from now, in order.
    func send(_ events: [[UInt8]], after seconds: Double) {
        let frame = jack_frame_time(client) &+ UInt32(max(0, seconds) * rate)
        queue.withLock { $0 += events.map { Pending(frame: frame, bytes: $0) } }
    }

    private func process(_ frames: jack_nframes_t) {
        guard let buffer = jack_port_get_buffer(port, frames) else { return }
        jack_midi_clear_buffer(buffer)
        let start = jack_last_frame_time(client)
        queue.withLock { pending in
            var kept: [Pending] = []
            for event in pending {
                let offset = Int64(Int32(bitPattern: event.frame &- start))
                if offset >= Int64(frames) {
                    kept.append(event)
                    continue
                }
                let at = UInt32(max(0, offset))
                let result = event.bytes.withUnsafeBufferPointer { jack_midi_event_write(buffer, at, $0.baseAddress, $0.count) }
                if result == 0 { written.wrappingAdd(1, ordering: .relaxed) } else { refused.wrappingAdd(1, ordering: .relaxed) }
            }
            pending = kept
        }
    }
}
