import Dispatch
import Synchronization

/// Everything the JACK threads tell the control side, as atomics: the process callback's
/// counters, and what the server's notifications (sample rate, buffer size, xruns,
/// shutdown) reported. The notification callbacks touch nothing else, so they stay as
/// harmless as signal handlers; the control loop acts on what they recorded.
final class NodeSignals: Sendable {
    let periods = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    let maxCallbackNanoseconds = Atomic<UInt64>(0)
    let histogram = CallbackTimingHistogram()
    /// The server runs freewheel (faster than real time): periods are not timed, xruns not counted.
    let freewheeling = Atomic<Bool>(false)
    /// MIDI events beyond the per-period limit, dropped.
    let droppedMIDIEvents = Atomic<Int>(0)

    /// Reported by the server (0 until it says).
    let sampleRate = Atomic<Int>(0)
    let bufferSize = Atomic<Int>(0)

    /// Wall clock minus `jack_get_time()`, in microseconds, kept fresh by the control loop
    /// and read by the process callback to place time-tagged commands (SPEC 12).
    let wallClockOffsetMicros = Atomic<Int64>(0)

    /// The generation of the client whose server went away (0: none). A generation per
    /// client keeps a late notice from an old client from tearing down a new one.
    let lostGeneration = Atomic<Int>(0)
    let shutdownReason = ShutdownReason()

    /// Wakes the control loop early (shutdown notice, stop request).
    let wake = DispatchSemaphore(value: 0)
}

/// The server's reason for a shutdown, copied into a fixed buffer by the shutdown handler
/// (no allocation there) and read by the control loop.
final class ShutdownReason: @unchecked Sendable {
    static let capacity = 512
    private let buffer: UnsafeMutablePointer<CChar>
    /// 0: free; -1: being written; otherwise the generation the text belongs to.
    private let state = Atomic<Int>(0)

    init() {
        buffer = UnsafeMutablePointer<CChar>.allocate(capacity: ShutdownReason.capacity)
        buffer.initialize(repeating: 0, count: ShutdownReason.capacity)
    }

    deinit { buffer.deallocate() }

    /// From the shutdown handler: keeps the first reason given, by copying bytes only.
    func record(_ text: UnsafePointer<CChar>?, generation: Int) {
        guard let text, state.compareExchange(expected: 0, desired: -1, ordering: .acquiring).exchanged else { return }
        var i = 0
        while i < ShutdownReason.capacity - 1 && text[i] != 0 {
            buffer[i] = text[i]
            i += 1
        }
        buffer[i] = 0
        state.store(generation, ordering: .releasing)
    }

    /// From the control loop: the reason recorded for `generation`, if any, and frees the slot.
    func take(generation: Int) -> String? {
        let s = state.load(ordering: .acquiring)
        guard s != 0 && s != -1 else { return nil }
        let text = s == generation ? String(cString: buffer) : nil
        state.store(0, ordering: .releasing)
        return text.flatMap { $0.isEmpty ? nil : $0 }
    }
}
