import CFutex
import CJack

/// Every C function the process callback calls, in one place. The real-time proof
/// (`@_noLocks`, `@_noAllocation`, on in release builds) covers the callback from
/// `JackCallbacks.process` down, but cannot look into C: each call here is taken out of
/// the proof (`_unsafePerformance`) on the strength of the audit beside it. Nothing else on
/// the callback's path is exempt.
enum RealtimeCalls {
    /// `clock_gettime(CLOCK_MONOTONIC)`: read from the vDSO, no system call, no lock.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func monotonicNanoseconds() -> UInt64 {
        _unsafePerformance { toneshaper_monotonic_nanoseconds() }
    }

    /// `jack_port_get_buffer`: JACK's documented way for a process callback to reach a
    /// port's buffer (a lookup in shared memory; for an input, the mix of its connections).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func portBuffer(_ port: OpaquePointer, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        // Returned through a variable: `_unsafePerformance` is generic, and in a debug build
        // (the tests') an optional result's type metadata would be made, and allocated, on
        // the audio thread the first time. The other calls return plain types.
        var buffer: UnsafeMutableRawPointer?
        _unsafePerformance { buffer = jack_port_get_buffer(port, frames) }
        return buffer
    }

    /// `jack_get_cycle_times`: reads the cycle's timing from the client's shared-memory
    /// copy of the engine control block; meant for the process callback.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func cycleTimes(
        _ client: OpaquePointer, _ frames: inout jack_nframes_t, _ current: inout jack_time_t, _ next: inout jack_time_t,
        _ period: inout Float
    ) -> Int32 {
        _unsafePerformance { jack_get_cycle_times(client, &frames, &current, &next, &period) }
    }

    /// `jack_get_time`: JACK's clock (a clock read).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func jackTime() -> jack_time_t {
        _unsafePerformance { jack_get_time() }
    }

    /// `jack_midi_get_event_count` and `jack_midi_event_get`: read the MIDI port's buffer
    /// in place (JACK's MIDI API is meant for the process callback).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> Int {
        _unsafePerformance { Int(jack_midi_get_event_count(buffer)) }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func midiEvent(_ event: inout jack_midi_event_t, _ buffer: UnsafeMutableRawPointer, _ index: Int) -> Bool {
        _unsafePerformance { jack_midi_event_get(&event, buffer, UInt32(index)) == 0 }
    }

    /// `jack_transport_query` (through the shim that flattens its position): documented
    /// real-time safe, a lock-free read of the transport's shared state.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func transport(
        _ client: OpaquePointer, _ rolling: inout Int32, _ frame: inout UInt32, _ bar: inout Int32, _ beat: inout Int32,
        _ tick: inout Int32, _ ticksPerBeat: inout Double, _ beatsPerBar: inout Float, _ bpm: inout Double
    ) -> Bool {
        _unsafePerformance {
            toneshaper_jack_transport(client, &rolling, &frame, &bar, &beat, &tick, &ticksPerBeat, &beatsPerBar, &bpm) == 1
        }
    }

    /// Relaxed atomic load and store of a `UInt64` in plain memory (the timing histogram's
    /// buckets): compiler builtins, a single instruction each on x86-64 and arm64.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func increment(_ slot: UnsafeMutablePointer<UInt64>) {
        _unsafePerformance { toneshaper_store_relaxed_u64(slot, toneshaper_load_relaxed_u64(slot) &+ 1) }
    }

    /// `FUTEX_WAKE` (CFutex): wakes the control thread; never blocks (see futex.h).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func futexWake(_ word: UnsafeMutablePointer<UInt32>) {
        _unsafePerformance { toneshaper_futex_wake(word) }
    }

    /// A test's allocation counter (`RealtimeProbe.AllocationCounter`): two C functions
    /// that set and read a thread-local flag and count, no lock, no allocation. Only a
    /// probe a test made has them.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func call(_ function: @convention(c) () -> Void) {
        _unsafePerformance { function() }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    static func call(_ function: @convention(c) () -> UInt64) -> UInt64 {
        _unsafePerformance { function() }
    }
}
