import CMTSESP

/// A renderer's registration with an MTS-ESP master (ODDSound's tuning middleware), through
/// the C loader (`CMTSESP`): registered when made, if the master's library (libMTS.so in
/// /usr/local/lib or /usr/lib, or `TONESHAPER_MTS_LIBRARY`) is there, deregistered when it
/// goes; both off the audio thread, as a renderer is made and destroyed. Without the
/// library it does nothing, and costs a test of a flag a period.
///
/// Its audio-thread calls are C: taken out of the real-time proof (`_unsafePerformance`) on
/// the strength of this audit: the loader's functions read pointers published once with
/// atomics, and call the master's library, whose MTS_HasMaster, MTS_GetTuningTable and
/// MTS_ShouldFilterNote read memory the master writes (no lock, no allocation).
public struct MTSESPClient: ~Copyable {
    /// Whether the library was found and this client registered.
    public let isRegistered: Bool

    public init() { isRegistered = toneshaper_mts_register() }

    deinit { if isRegistered { toneshaper_mts_deregister() } }

    /// The master's 128 frequencies (Hz, key 0 first) while one is connected, else nil.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    public func tuningTable() -> UnsafePointer<Double>? {
        guard isRegistered else { return nil }
        var table: UnsafePointer<Double>?
        _unsafePerformance { table = toneshaper_mts_tuning_table() }
        return table
    }

    /// Whether the master asks that `note` on `channel` play nothing (an unmapped key).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    public func shouldFilter(note: UInt8, channel: UInt8) -> Bool {
        guard isRegistered else { return false }
        var filtered = false
        _unsafePerformance { filtered = toneshaper_mts_should_filter_note(note, channel) }
        return filtered
    }
}
