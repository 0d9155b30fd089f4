import CJack
import ToneShaperAudio
import ToneShaperControl

/// What the process callback reads and writes, in one heap block whose address JACK passes
/// back as the callback's `arg`. It owns the renderer (`~Copyable`: one client's audio
/// thread, and no other, drives it) and holds no Swift references that would be retained
/// or released per cycle: the signals and the probe are kept as `Unmanaged` (retained once
/// here, released when the state is destroyed) and used through `_withUnsafeGuaranteedRef`.
///
/// The control thread writes `client` and the ports only while no client is active (before
/// `jack_activate`, which orders the writes before the first callback).
///
/// Everything the callback runs, from `JackCallbacks.process` down, is under the real-time
/// proof in release builds (`@_noLocks`, `@_noAllocation`); the C functions it calls are
/// listed and audited in `RealtimeCalls`.
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
    /// A test's view of the callback (nil in normal use).
    let probe: Unmanaged<RealtimeProbe>?
    /// The probe's allocation counter, copied out of it (C function pointers: no references).
    let countingStart: (@convention(c) () -> Void)?
    let countingStop: (@convention(c) () -> UInt64)?
    /// The renderer's count of refused tuning messages already added to the signals'.
    var refusedTuningSeen = 0

    deinit {
        signals.release()
        probe?.release()
        midiEvents.deallocate()
    }

    /// Allocates the state, off the audio thread. The renderer (and its engine) belong to it.
    static func make(
        renderer: consuming RealtimeRenderer, signals: NodeSignals,
        probe: RealtimeProbe?
    ) -> UnsafeMutablePointer<RealtimeState> {
        let state = UnsafeMutablePointer<RealtimeState>.allocate(capacity: 1)
        let events = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: RealtimeRenderer.maximumMIDIEvents)
        events.initialize(repeating: MIDIEvent(frame: 0, size: 0, byte0: 0), count: RealtimeRenderer.maximumMIDIEvents)
        state.initialize(
            to: RealtimeState(
                renderer: renderer, client: nil, port: nil, mirrorPort: nil, midiPort: nil, midiEvents: events,
                signals: .passRetained(signals), histogram: signals.histogram.buckets, probe: probe.map { .passRetained($0) },
                countingStart: probe?.allocationCounter?.start, countingStop: probe?.allocationCounter?.stop))
        return state
    }

    /// Frees everything (the renderer hands its plans back to the controller), once no
    /// callback can run any more (the client is closed).
    static func destroy(_ state: UnsafeMutablePointer<RealtimeState>) {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Everything one process callback does: the period, its timing, the wake-up of the
    /// control side when something was handed back, and the probe's records.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    mutating func process(frames nframes: jack_nframes_t) {
        if let startCounting = countingStart { RealtimeCalls.call(startCounting) }
        let start = RealtimeCalls.monotonicNanoseconds()
        if let probe, renderer.queuedCommandCount() > 0 {
            let seen = RealtimeCalls.monotonicNanoseconds()
            probe._withUnsafeGuaranteedRef { _ = $0.commandSeen.compareExchange(expected: 0, desired: seen, ordering: .acquiringAndReleasing) }
        }
        let periodStart = renderer.frame
        let plan = renderer.engine.plan.storageID
        let taken = renderer.commandsTaken
        let events = runCycle(frames: nframes)
        if let probe, renderer.commandsTaken != taken {
            // A command that arrived after the check above, in time for this period: marked
            // now (later than it was taken, never earlier than it was sent).
            let seen = RealtimeCalls.monotonicNanoseconds()
            probe._withUnsafeGuaranteedRef { _ = $0.commandSeen.compareExchange(expected: 0, desired: seen, ordering: .acquiringAndReleasing) }
        }
        record(callbackNanoseconds: RealtimeCalls.monotonicNanoseconds() &- start)
        let refused = renderer.performer.refusedTuningMessages  // stored: no call the proof cannot see into
        if refused != refusedTuningSeen {
            let added = refused &- refusedTuningSeen  // out of the closure: it must not capture self
            signals._withUnsafeGuaranteedRef { _ = $0.refusedTuningMessages.wrappingAdd(added, ordering: .relaxed) }
            refusedTuningSeen = refused
        }
        // Plans to free, MIDI controllers that need a new plan, the audio side's own
        // changes: the control side takes them now, not at its next round.
        if renderer.handbackCount() > 0 { signals._withUnsafeGuaranteedRef { $0.wake.signal() } }
        if let probe {
            let firstEvent = events > 0 ? periodStart + Int64(midiEvents[0].frame) : -1
            let newPlan = renderer.engine.plan.storageID != plan
            let stop = countingStop
            probe._withUnsafeGuaranteedRef { p in
                // Marks are kept once set, until the test resets them (-1).
                if firstEvent >= 0 { _ = p.midiEvent.compareExchange(expected: -1, desired: firstEvent, ordering: .acquiringAndReleasing) }
                if newPlan { _ = p.newPlan.compareExchange(expected: -1, desired: periodStart, ordering: .acquiringAndReleasing) }
                if let stop { p.allocationCount.wrappingAdd(RealtimeCalls.call(stop), ordering: .relaxed) }
                p.cycleCount.wrappingAdd(1, ordering: .releasing)
            }
        }
    }

    /// One JACK period: fetch the port buffer and the period's timing, then render.
    /// Returns how many MIDI events it read.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    mutating func runCycle(frames nframes: jack_nframes_t) -> Int {
        guard nframes > 0, let client, let port, let raw = RealtimeCalls.portBuffer(port, nframes) else { return 0 }
        let frames = Int(nframes)
        let out = raw.assumingMemoryBound(to: Float.self)
        let clock = periodClock(client: client, frames: frames)
        let events = readMIDI(frames: nframes)
        let transport = renderer.performer.settings.transport ? RealtimeState.transport(client) : nil
        renderer.renderPeriod(
            into: out, frames: frames, clock: clock,
            midi: UnsafeBufferPointer(start: midiEvents, count: events), transport: transport)
        if let mirrorPort, let copy = RealtimeCalls.portBuffer(mirrorPort, nframes) {
            copy.copyMemory(from: raw, byteCount: frames * MemoryLayout<Float>.stride)
        }
        return events
    }

    /// Copies this period's MIDI events (at most `maximumMIDIEvents`; a flood beyond is
    /// dropped, and counted) into the fixed array. Returns how many.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    private func readMIDI(frames: jack_nframes_t) -> Int {
        guard let midiPort, let buffer = RealtimeCalls.portBuffer(midiPort, frames) else { return 0 }
        let total = RealtimeCalls.midiEventCount(buffer)
        let count = min(total, RealtimeRenderer.maximumMIDIEvents)
        var event = jack_midi_event_t()
        var taken = 0
        for index in 0..<count {
            guard RealtimeCalls.midiEvent(&event, buffer, index), let bytes = event.buffer else { continue }
            midiEvents[taken] = MIDIEvent(frame: Int(event.time), bytes: bytes, size: event.size)
            taken += 1
        }
        if total > count { signals._withUnsafeGuaranteedRef { _ = $0.droppedMIDIEvents.wrappingAdd(total - count, ordering: .relaxed) } }
        return taken
    }

    /// The transport now (`jack_transport_query` is real-time safe).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
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
        let hasBBT = RealtimeCalls.transport(client, &rolling, &frame, &bar, &beat, &tick, &ticksPerBeat, &beatsPerBar, &bpm)
        let bbt =
            hasBBT
            ? BarsBeats(
                bar: Int(bar), beat: Int(beat), tick: Int(tick), ticksPerBeat: ticksPerBeat,
                beatsPerBar: Double(beatsPerBar), beatsPerMinute: bpm) : nil
        return TransportState(rolling: rolling != 0, frame: Int(frame), bbt: bbt)
    }

    /// This period in wall-clock time, from `jack_get_cycle_times` (called once per cycle)
    /// and the control side's published wall-minus-JACK offset (SPEC 12).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    private func periodClock(client: OpaquePointer, frames: Int) -> PeriodClock {
        let offset = Double(signals._withUnsafeGuaranteedRef { $0.wallClockOffsetMicros.load(ordering: .relaxed) })
        var currentFrames: jack_nframes_t = 0
        var currentUsecs: jack_time_t = 0
        var nextUsecs: jack_time_t = 0
        var periodUsecs: Float = 0
        if RealtimeCalls.cycleTimes(client, &currentFrames, &currentUsecs, &nextUsecs, &periodUsecs) == 0,
            nextUsecs > currentUsecs
        {
            signals._withUnsafeGuaranteedRef { $0.periodFrame.store(Int(currentFrames & 0x7FFF_FFFF), ordering: .relaxed) }
            return PeriodClock(
                startMicros: Double(currentUsecs) + offset,
                microsPerFrame: Double(nextUsecs - currentUsecs) / Double(frames))
        }
        // No timing from the server (should not happen inside the callback): now, nominal rate.
        return PeriodClock(
            startMicros: Double(RealtimeCalls.jackTime()) + offset,
            microsPerFrame: 1_000_000 / renderer.engine.plan.sampleRate)
    }

    /// Counts the period and its duration. Single writer: the audio thread.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    func record(callbackNanoseconds ns: UInt64) {
        // Freewheeling (a DAW's export) runs periods back to back: their times say nothing
        // about real-time behaviour, so they stay out of the timing figures.
        let timed = signals._withUnsafeGuaranteedRef { s in
            s.periods.wrappingAdd(1, ordering: .releasing)
            return !s.freewheeling.load(ordering: .relaxed)
        }
        guard timed else { return }
        recordCallbackTime(ns, into: histogram)
        signals._withUnsafeGuaranteedRef { s in
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
