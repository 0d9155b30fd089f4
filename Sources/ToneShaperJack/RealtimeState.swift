import CJack
import ToneShaperCore

/// What the process callback reads and writes, in one heap block whose address JACK passes
/// back as the callback's `arg`. It owns the renderer (`~Copyable`: one client's audio
/// thread, and no other, drives it) and holds no Swift references that would be retained
/// or released per cycle: the signals are kept as `Unmanaged` (retained once here,
/// released when the state is destroyed) and used through `_withUnsafeGuaranteedRef`.
///
/// The control thread writes `client` and the ports only while no client is active (before
/// `jack_activate`, which orders the writes before the first callback).
struct RealtimeState: ~Copyable {
    var renderer: RealtimeRenderer
    var client: OpaquePointer?
    var port: OpaquePointer?
    /// Stereo: a second port that gets a copy of the first.
    var mirrorPort: OpaquePointer?
    /// `midi_in`, unless MIDI is off.
    var midiPort: OpaquePointer?
    /// The period's MIDI events, copied out of JACK's buffer (fixed capacity, allocated here).
    let midiEvents: UnsafeMutablePointer<MIDIEvent>
    let signals: Unmanaged<NodeSignals>
    let histogram: UnsafeMutablePointer<UInt64>
    let hooks: RealtimeCycleHooks?

    deinit {
        signals.release()
        midiEvents.deallocate()
    }

    /// Allocates the state, off the audio thread. The renderer (and its engine) belong to it.
    static func make(
        renderer: consuming RealtimeRenderer, signals: NodeSignals,
        hooks: RealtimeCycleHooks?
    ) -> UnsafeMutablePointer<RealtimeState> {
        let state = UnsafeMutablePointer<RealtimeState>.allocate(capacity: 1)
        let events = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: RealtimeRenderer.maximumMIDIEvents)
        events.initialize(repeating: MIDIEvent(frame: 0, size: 0, byte0: 0), count: RealtimeRenderer.maximumMIDIEvents)
        state.initialize(
            to: RealtimeState(
                renderer: renderer, client: nil, port: nil, mirrorPort: nil, midiPort: nil, midiEvents: events,
                signals: .passRetained(signals), histogram: signals.histogram.buckets, hooks: hooks))
        return state
    }

    /// Frees everything (the renderer hands its plans back to the controller), once no
    /// callback can run any more (the client is closed).
    static func destroy(_ state: UnsafeMutablePointer<RealtimeState>) {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// One JACK period: fetch the port buffer and the period's timing, then render.
    @inline(__always)
    mutating func runCycle(frames nframes: jack_nframes_t) {
        guard nframes > 0, let client, let port, let raw = jack_port_get_buffer(port, nframes) else { return }
        let frames = Int(nframes)
        let out = raw.assumingMemoryBound(to: Float.self)
        let clock = periodClock(client: client, frames: frames)
        let events = readMIDI(frames: nframes)
        let transport = renderer.performer.settings.transport ? RealtimeState.transport(client) : nil
        renderer.renderPeriod(
            into: out, frames: frames, clock: clock,
            midi: UnsafeBufferPointer(start: midiEvents, count: events), transport: transport)
        if let mirrorPort, let copy = jack_port_get_buffer(mirrorPort, nframes) {
            copy.copyMemory(from: raw, byteCount: frames * MemoryLayout<Float>.stride)
        }
    }

    /// Copies this period's MIDI events (at most `maximumMIDIEvents`; a flood beyond is
    /// dropped, and counted) into the fixed array. Returns how many.
    @inline(__always)
    private func readMIDI(frames: jack_nframes_t) -> Int {
        guard let midiPort, let buffer = jack_port_get_buffer(midiPort, frames) else { return 0 }
        let total = Int(jack_midi_get_event_count(buffer))
        let count = min(total, RealtimeRenderer.maximumMIDIEvents)
        var event = jack_midi_event_t()
        var taken = 0
        for index in 0..<count {
            guard jack_midi_event_get(&event, buffer, UInt32(index)) == 0, let bytes = event.buffer else { continue }
            midiEvents[taken] = MIDIEvent(frame: Int(event.time), bytes: bytes, size: event.size)
            taken += 1
        }
        if total > count { signals._withUnsafeGuaranteedRef { _ = $0.droppedMIDIEvents.wrappingAdd(total - count, ordering: .relaxed) } }
        return taken
    }

    /// The transport now (`jack_transport_query` is real-time safe).
    @inline(__always)
    private static func transport(_ client: OpaquePointer) -> TransportState {
        var rolling: Int32 = 0
        var frame: UInt32 = 0
        var bar: Int32 = 0
        var beat: Int32 = 0
        var tick: Int32 = 0
        var ticksPerBeat = 0.0
        var beatsPerBar: Float = 0
        var bpm = 0.0
        let hasBBT = toneshaper_jack_transport(client, &rolling, &frame, &bar, &beat, &tick, &ticksPerBeat, &beatsPerBar, &bpm) == 1
        let bbt =
            hasBBT
            ? BarsBeats(
                bar: Int(bar), beat: Int(beat), tick: Int(tick), ticksPerBeat: ticksPerBeat,
                beatsPerBar: Double(beatsPerBar), beatsPerMinute: bpm) : nil
        return TransportState(rolling: rolling != 0, frame: Int(frame), bbt: bbt)
    }

    /// This period in wall-clock time, from `jack_get_cycle_times` (called once per cycle)
    /// and the control side's published wall-minus-JACK offset (SPEC 12).
    @inline(__always)
    private func periodClock(client: OpaquePointer, frames: Int) -> PeriodClock {
        let offset = Double(signals._withUnsafeGuaranteedRef { $0.wallClockOffsetMicros.load(ordering: .relaxed) })
        var currentFrames: jack_nframes_t = 0
        var currentUsecs: jack_time_t = 0
        var nextUsecs: jack_time_t = 0
        var periodUsecs: Float = 0
        if jack_get_cycle_times(client, &currentFrames, &currentUsecs, &nextUsecs, &periodUsecs) == 0,
            nextUsecs > currentUsecs
        {
            return PeriodClock(
                startMicros: Double(currentUsecs) + offset,
                microsPerFrame: Double(nextUsecs - currentUsecs) / Double(frames))
        }
        // No timing from the server (should not happen inside the callback): now, nominal rate.
        return PeriodClock(
            startMicros: Double(jack_get_time()) + offset,
            microsPerFrame: 1_000_000 / renderer.engine.plan.sampleRate)
    }

    /// Counts the period and its duration. Single writer: the audio thread.
    @inline(__always)
    func record(callbackNanoseconds ns: UInt64) {
        signals._withUnsafeGuaranteedRef { s in
            s.periods.wrappingAdd(1, ordering: .relaxed)
            // Freewheeling (a DAW's export) runs periods back to back: their times say
            // nothing about real-time behaviour, so they stay out of the timing figures.
            if s.freewheeling.load(ordering: .relaxed) { return }
            CallbackTimingHistogram.record(ns, into: histogram)
            if ns > s.maxCallbackNanoseconds.load(ordering: .relaxed) {
                s.maxCallbackNanoseconds.store(ns, ordering: .relaxed)
            }
        }
    }
}

/// What the server-notification callbacks of one client get as `arg`: where to report,
/// and which client they belong to.
struct SessionToken {
    let signals: Unmanaged<NodeSignals>
    let generation: Int
}
