import CJack
import Synchronization

/// Listens to the node's output for the web page's oscilloscope and spectrum: a JACK
/// client of its own in the node's process, with an input port connected to the node's
/// output, opened only while a page watches. Its process callback does one thing, a
/// copy of the period into a ring (no allocation, lock or waiting), and publishes how many
/// samples it has written; the web side reads the newest samples when it likes. A reader
/// that falls a ring behind sees a torn frame, which a scope may show once: nothing waits.
///
/// A separate client, rather than a copy in the node's own callback, leaves the node's
/// real-time path as it is, and costs nothing while no page watches.
public final class ScopeTap: @unchecked Sendable {
    /// Samples kept: 0.68 s at 48 kHz, more than a spectrum frame needs.
    public static let capacity = 1 << 15

    /// What the process callback touches, allocated once, never moved.
    private struct Ring: ~Copyable {
        let samples: UnsafeMutablePointer<Float>
        let written = Atomic<Int>(0)
        var port: OpaquePointer?

        /// The process callback (under the real-time proof, as the node's is): the period
        /// into the ring, then the count published.
        #if REALTIME_PROOF
            @_noLocks @_noAllocation
        #endif
        func copy(_ frames: jack_nframes_t) {
            guard let port, let buffer = RealtimeCalls.portBuffer(port, frames) else { return }
            let input = buffer.assumingMemoryBound(to: Float.self)
            let capacity = ScopeTap.capacity
            let count = min(Int(frames), capacity)
            let start = written.load(ordering: .relaxed)
            let offset = start & (capacity - 1)
            let first = min(count, capacity - offset)
            let size = MemoryLayout<Float>.stride
            UnsafeMutableRawPointer(samples + offset).copyMemory(from: input, byteCount: first * size)
            if first < count { UnsafeMutableRawPointer(samples).copyMemory(from: input + first, byteCount: (count - first) * size) }
            written.store(start &+ count, ordering: .releasing)
        }
    }

    private let ring: UnsafeMutablePointer<Ring>
    private var client: OpaquePointer?
    public let sampleRate: Double

    /// Opens the client, connects `sources` (the node's output ports) to it and starts it.
    public init(serverName: String?, clientName: String, sources: [String]) throws(JackNodeError) {
        ring = UnsafeMutablePointer<Ring>.allocate(capacity: 1)
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: ScopeTap.capacity)
        samples.initialize(repeating: 0, count: ScopeTap.capacity)
        ring.initialize(to: Ring(samples: samples))
        var status = jack_status_t(rawValue: 0)
        let opened: OpaquePointer? = clientName.withCString { name in
            if let serverName { return serverName.withCString { toneshaper_jack_client_open_on(name, JackNoStartServer, &status, $0) } }
            return toneshaper_jack_client_open(name, JackNoStartServer, &status)
        }
        guard let client = opened else {
            ScopeTap.free(ring)
            throw .openFailed(serverName: serverName ?? "default", status: status.rawValue)
        }
        self.client = client
        sampleRate = Double(jack_get_sample_rate(client))
        ring.pointee.port = jack_port_register(client, "in", toneshaper_jack_audio_type(), UInt(JackPortIsInput.rawValue), 0)
        jack_set_process_callback(
            client,
            { frames, arg in
                arg?.assumingMemoryBound(to: Ring.self).pointee.copy(frames)
                return 0
            }, UnsafeMutableRawPointer(ring))
        guard ring.pointee.port != nil, jack_activate(client) == 0 else {
            close()
            throw .activationFailed
        }
        let destination = String(cString: jack_port_name(ring.pointee.port))
        for source in sources { _ = jack_connect(client, source, destination) }
    }

    deinit { close() }

    /// The newest `count` samples (at most the capacity), oldest first.
    public func latest(_ count: Int) -> [Float] {
        let n = min(count, ScopeTap.capacity)
        let end = ring.pointee.written.load(ordering: .acquiring)
        return (0..<n).map { i in ring.pointee.samples[(end - n + i) & (ScopeTap.capacity - 1)] }
    }

    /// Whether the callback has run lately enough to have filled `count` samples.
    public var samplesWritten: Int { ring.pointee.written.load(ordering: .acquiring) }

    public func close() {
        guard let client else { return }
        self.client = nil
        jack_deactivate(client)
        jack_client_close(client)
        ScopeTap.free(ring)
    }

    private static func free(_ ring: UnsafeMutablePointer<Ring>) {
        ring.pointee.samples.deallocate()
        ring.deinitialize(count: 1)
        ring.deallocate()
    }
}
