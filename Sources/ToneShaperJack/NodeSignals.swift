import CJack
import Synchronization

/// Everything the JACK threads tell the control side, as atomics: the process callback's
/// counters, and what the server's notifications (sample rate, buffer size, xruns,
/// shutdown) reported. The notification callbacks touch nothing else, so they stay as
/// harmless as signal handlers; the control loop acts on what they recorded.
final class NodeSignals: Sendable {
    let periods = Atomic<Int>(0)
    /// JACK's frame time at the start of the latest period (modulo 2^31), stored before
    /// `periods` counts it.
    let periodFrame = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    let maxCallbackNanoseconds = Atomic<UInt64>(0)
    let histogram = CallbackTimingHistogram()
    /// The server runs freewheel (faster than real time): periods are not timed, xruns not counted.
    let freewheeling = Atomic<Bool>(false)
    /// When freewheel last ended (monotonic ns): the driver finds itself late just after,
    /// and those xruns are freewheel's, not the node's.
    let freewheelEnded = Atomic<UInt64>(0)
    static let freewheelGraceNanoseconds: UInt64 = 1_000_000_000

    /// The times of the last four xruns counted (monotonic ns), a ring written at `recentXrunNext`:
    /// the server reports xruns as freewheel starts, sometimes before it says it started.
    let recentXrun0 = Atomic<UInt64>(0), recentXrun1 = Atomic<UInt64>(0)
    let recentXrun2 = Atomic<UInt64>(0), recentXrun3 = Atomic<UInt64>(0)
    let recentXrunNext = Atomic<Int>(0)

    /// Counts an xrun, unless freewheel causes it.
    func countXrun() {
        guard !inFreewheel() else { return }
        xruns.wrappingAdd(1, ordering: .relaxed)
        let now = toneshaper_monotonic_nanoseconds()
        switch recentXrunNext.wrappingAdd(1, ordering: .relaxed).oldValue & 3 {
        case 0: recentXrun0.store(now, ordering: .relaxed)
        case 1: recentXrun1.store(now, ordering: .relaxed)
        case 2: recentXrun2.store(now, ordering: .relaxed)
        default: recentXrun3.store(now, ordering: .relaxed)
        }
    }

    /// Freewheel started: the xruns of the last half second were its doing; take them back.
    func freewheelStarted() {
        freewheeling.store(true, ordering: .relaxed)
        let now = toneshaper_monotonic_nanoseconds()
        var recent = 0
        for time in [
            recentXrun0.load(ordering: .relaxed), recentXrun1.load(ordering: .relaxed),
            recentXrun2.load(ordering: .relaxed), recentXrun3.load(ordering: .relaxed),
        ]
        where time != 0 && now &- time < 500_000_000 { recent += 1 }
        if recent > 0 { xruns.wrappingSubtract(min(recent, xruns.load(ordering: .relaxed)), ordering: .relaxed) }
    }

    /// Freewheel ended: xruns of the next second are still its doing.
    func freewheelStopped() {
        freewheeling.store(false, ordering: .relaxed)
        freewheelEnded.store(toneshaper_monotonic_nanoseconds(), ordering: .relaxed)
    }

    /// Freewheeling now, or just stopped.
    func inFreewheel() -> Bool {
        if freewheeling.load(ordering: .relaxed) { return true }
        let ended = freewheelEnded.load(ordering: .relaxed)
        return ended != 0 && toneshaper_monotonic_nanoseconds() &- ended < NodeSignals.freewheelGraceNanoseconds
    }
    /// MIDI events beyond the per-period limit, dropped (all since start), and how many of
    /// them the control loop has reported.
    let droppedMIDIEvents = Atomic<Int>(0)
    let reportedDroppedMIDIEvents = Atomic<Int>(0)
    let lastDropReport = Atomic<UInt64>(0)
    /// MIDI Tuning Standard messages refused (truncated, a wrong checksum), all since
    /// start, and how many of them the control loop has reported.
    let refusedTuningMessages = Atomic<Int>(0)
    let reportedRefusedTuningMessages = Atomic<Int>(0)

    /// What `midi_in` was connected to (kept by the control loop, for a reconnect), the
    /// client generation whose MIDI connections are settled, and until when (monotonic ns)
    /// a new client keeps trying to restore them.
    let midiPeers = Mutex<[String]>([])
    let midiSettledGeneration = Atomic<Int>(0)
    let midiRestoreDeadline = Atomic<UInt64>(0)

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

    /// Wakes the control loop: the process callback when it handed something back (the
    /// loop then collects it), `requestRound` for the rest.
    let wake = ControlWake()
    /// Set by `requestRound`: the control loop's next wake-up runs a whole round, not only
    /// the collection of what the audio thread handed back.
    let roundRequested = Atomic<Bool>(false)

    /// A shutdown notice, a stop request, a new connection: the control loop looks at once.
    func requestRound() {
        roundRequested.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Connections made and broken as JACK reports them (see `ConnectionLog`).
    let connectionLog = ConnectionLog()
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

extension NodeSignals {
    /// Forgets the callback timings (the `/stats` percentiles and maximum), so that they
    /// describe the current connection: a reconnection is a new server, perhaps on another
    /// machine load, and an old maximum says nothing about it. Called before the new
    /// client activates. xruns and periods keep counting since the node started.
    func resetCallbackTimings() {
        maxCallbackNanoseconds.store(0, ordering: .relaxed)
        for i in 0..<CallbackTimingHistogram.bucketCount {
            toneshaper_store_relaxed_u64(histogram.buckets + i, 0)
        }
    }
}
