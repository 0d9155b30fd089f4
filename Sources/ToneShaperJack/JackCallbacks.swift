import CJack

/// The C callbacks JACK calls. They live here, in a library with no actor isolation,
/// because a closure written in the executable's main file would be main-actor isolated
/// and trap on JACK's threads. The closures passed to JACK capture nothing (so they are
/// plain C function pointers) and forward to these functions.
enum JackCallbacks {
    /// The process callback: real-time safe (no allocation, locks, waiting, I/O or
    /// logging), and proved so in release builds from here down (see `RealtimeState`).
    /// `arg` is the node's `RealtimeState`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    static func process(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
        guard let arg else { return 0 }
        arg.assumingMemoryBound(to: RealtimeState.self).pointee.process(frames: nframes)
        return 0
    }

    // The notifications below run on JACK's notification thread (or, for shutdown, any
    // thread): they only store into atomics (the port-connect one also takes the
    // connection log's lock, which only the control thread shares). `arg` is the
    // client's `SessionToken`.

    static func sampleRateChanged(_ rate: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
        withSignals(arg) { s, _ in s.sampleRate.store(Int(rate), ordering: .releasing) }
        return 0
    }

    static func bufferSizeChanged(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
        withSignals(arg) { s, _ in s.bufferSize.store(Int(frames), ordering: .releasing) }
        return 0
    }

    static func xrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
        withSignals(arg) { s, _ in s.countXrun() }
        return 0
    }

    /// A connection made or broken anywhere in the graph: the log keeps those of our
    /// ports, and the control loop is woken to look at once.
    static func portConnect(_ a: jack_port_id_t, _ b: jack_port_id_t, _ connect: Int32, _ arg: UnsafeMutableRawPointer?) {
        withSignals(arg) { s, generation in
            s.connectionLog.record(a, b, connected: connect != 0, generation: generation)
            s.requestRound()
        }
    }

    /// Server gone (jack_on_info_shutdown): remember the reason, raise the flag, wake the
    /// control loop. Never close the client here (it would hang).
    static func infoShutdown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
        withSignals(arg) { s, generation in
            s.shutdownReason.record(reason, generation: generation)
            s.lostGeneration.store(generation, ordering: .releasing)
            s.requestRound()
        }
    }

    /// Server gone (jack_on_shutdown, no reason given). Idempotent with `infoShutdown`.
    static func shutdown(_ arg: UnsafeMutableRawPointer?) {
        withSignals(arg) { s, generation in
            s.lostGeneration.store(generation, ordering: .releasing)
            s.requestRound()
        }
    }

    @inline(__always)
    private static func withSignals(_ arg: UnsafeMutableRawPointer?, _ body: (NodeSignals, Int) -> Void) {
        guard let arg else { return }
        let token = arg.assumingMemoryBound(to: SessionToken.self).pointee
        token.signals._withUnsafeGuaranteedRef { body($0, token.generation) }
    }

    /// Freewheel on or off (a DAW's faster-than-real-time export): `/stats` leaves those
    /// periods and the xruns around them out.
    static func freewheel(_ starting: Int32, _ arg: UnsafeMutableRawPointer?) {
        withSignals(arg) { s, _ in
            if starting != 0 {
                s.freewheelStarted()
            } else {
                s.freewheelStopped()
            }
        }
    }
}
