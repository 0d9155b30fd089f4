/// The seam where the engine plugs in (the lead fills it in): the shell (Plugin.swift)
/// checks every input and calls these, and nothing else touches the sound. For now it
/// renders silence.
///
/// Threads: `init` and `free` in instantiate and cleanup; `activate`, `deactivate` and the
/// audio-thread methods (`setControl`, `handleMIDI`, `render`, `workResponse`, `endRun`)
/// from the host's audio thread, never at once; `work` on the worker thread (one call at a
/// time, possibly during run()); `documentForSaving` and `restore` from the host's state
/// calls (never during run(): the plugin does not declare state:threadSafeRestore).
struct PluginEngine {
    let sampleRate: Double
    /// The largest block run() is given (buf-size:maxBlockLength, else a default).
    let maximumBlock: Int
    /// How the engine asks for work off the audio thread (a new plan).
    let scheduler: WorkScheduler
    let log: Log

    // init(sampleRate:maximumBlock:scheduler:log:), in instantiate: everything the
    // audio-thread methods use is allocated there (for now the memberwise one).

    /// Frees what `init` allocated (cleanup).
    mutating func free() {}

    mutating func activate() {}
    mutating func deactivate() {}

    /// A control port moved: row `row` of the parameter table (`ControlPorts.port(row:)`)
    /// now has `value`, already finite, within the port's range and, for whole-number kinds,
    /// rounded (a choice's index, a toggle's 0 or 1, Fourier terms: 0 = nyquist). Taken at
    /// the start of the block.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func setControl(row: Int, value: Double) {}

    /// One MIDI message at `frame` of the block: its length matches its status byte (1 to 3
    /// bytes), and the data bytes are below 0x80. Called after `render` reached `frame`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func handleMIDI(frame: Int, bytes: UnsafeRawBufferPointer) {}

    /// Renders the next `frames` frames (mono) into `output`. The shell calls it for the
    /// slices between events, so an event takes effect at its frame.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        output.update(repeating: 0, count: frames)
    }

    /// On the worker thread: `request` is what the engine gave `scheduler.schedule`; answer
    /// through `responder` (the host hands the answer to `workResponse` on the audio thread).
    func work(_ request: UnsafeRawBufferPointer, responder: WorkResponder) {}

    /// On the worker thread: a document file's bytes, read for a patch:Set of
    /// `urn:toneshaper:file` (`path` is NUL-terminated). Check it, build its plan, answer
    /// through `responder`; log and return false to refuse it (the sound goes on unchanged).
    /// When it returns true the shell answers after it, and the next run() reports the file
    /// on the notify port (patch:Set of urn:toneshaper:file).
    func load(document: UnsafeRawBufferPointer, path: UnsafePointer<CChar>, responder: WorkResponder) -> Bool {
        log.write(.warning, "loading a document comes with the engine; ignored")
        return false
    }

    /// On the audio thread, between run() calls: what `work` or `load` answered through
    /// `responder.respond(_:)`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func workResponse(_ response: UnsafeRawBufferPointer) {}

    /// On the audio thread, at the end of each run() (the worker's end_run).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func endRun() {}

    /// The document to save as the state: JSON text (no NUL needed; the shell stores it as
    /// an atom:String with one), valid until the next call; nil stores nothing.
    func documentForSaving() -> UnsafeRawBufferPointer? { nil }

    /// A state to restore: `json` is the atom:String's text without its NUL (non-empty,
    /// at most `Plugin.maximumDocumentSize` bytes). Check it, log and return false to refuse
    /// it (the sound goes on unchanged).
    mutating func restore(json: UnsafeRawBufferPointer) -> Bool {
        log.write(.warning, "restoring a document comes with the engine; ignored")
        return false
    }
}
