import CJack
import Dispatch
import Foundation
import Logging
import Synchronization
import ToneShaperAudio
import ToneShaperControl

/// The node in the JACK graph (SPEC 9): a client with an output port playing the
/// controller's tone shape. It follows the server's sample rate and period, survives the
/// server going away (keeps its state, reconnects, restores its connections), and reports
/// callback timing.
///
/// Threads: JACK's process thread runs the engine (see `JackCallbacks.process`); a control
/// thread started by `start()` does everything else: frees retired plans, keeps the
/// wall-clock offset fresh, reacts to the server's notifications, reconnects. Public
/// methods may be called from any thread.
public final class JackNode: @unchecked Sendable {
    public let controller: EngineController
    public let configuration: JackNodeConfiguration
    let logger: Logger
    let signals = NodeSignals()

    // Control-side state: written by `start()` before the control thread exists, and from
    // then on only by the control thread.
    var session: JackSession?
    var realtime: UnsafeMutablePointer<RealtimeState>?
    var generation = 0
    /// A client whose close timed out may still own a thread: the real-time state it could
    /// touch must then never be freed.
    var abandonedClient = false
    var appliedSampleRate = 0
    var knownBufferSize = 0
    var warnedNyquist = false
    var lostAt: Double?
    var nextAttempt = 0.0
    var lastAttemptError: JackNodeError?
    /// The connections to restore after a server loss, kept up to date while connected.
    var remembered: [Connection] = []
    /// While restoring after a reconnect: until when to keep trying missing peers.
    var restoreDeadline: Double?

    private struct Published {
        var clientName = ""
        var portNames: [String] = []
        var connected = false
    }
    private let published = Mutex(Published())
    private let started = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let controlFinished = DispatchSemaphore(value: 0)

    public init(
        controller: EngineController, configuration: JackNodeConfiguration = JackNodeConfiguration(),
        logger: Logger = Logger(label: "toneshaper.jack")
    ) {
        self.controller = controller
        self.configuration = configuration
        self.logger = logger
    }

    /// The client's name as JACK granted it ("toneshaper", or "toneshaper-01" if taken).
    public var clientName: String { published.withLock { $0.clientName } }
    /// The full names of the node's ports ("toneshaper:out").
    public var portNames: [String] { published.withLock { $0.portNames } }
    /// False while the server is away.
    public var isConnected: Bool { published.withLock { $0.connected } }

    // MARK: Start and stop

    /// Opens the client (never starting a server), prepares the engine at the server's
    /// rate, activates, connects, and starts the control thread.
    public func start() throws(JackNodeError) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { throw .alreadyStarted }
        // A live node may be switched to a Fourier wave at any moment: have those tables built now,
        // in the background, so that the first such change is as quick as any other.
        FourierWavetables.prepareInBackground()
        do throws(JackNodeError) {
            generation = 1
            let session = try JackSession.open(configuration: configuration, generation: generation, signals: signals)
            // The engine starts at the server's rate, so adopting it queues no new plan.
            let state = makeRealtimeState(for: session)
            realtime = state
            session.attach(state)
            updateClockOffset()
            do throws(JackNodeError) {
                try session.activate()
            } catch {
                _ = session.close(deactivateFirst: false, timeout: configuration.closeTimeout)
                RealtimeState.destroy(state)
                realtime = nil
                throw error
            }
            self.session = session
            publish(session)
            connectAtStart(session)
            connectMIDI(session)
            remembered = session.connections()
        } catch {
            started.store(false, ordering: .releasing)
            throw error
        }
        let thread = Thread { [self] in controlLoop() }
        thread.name = "toneshaper-jack-control"
        thread.start()
    }

    /// A new audio side for `session`: a renderer of its own (its own channels from the
    /// controller), rehearsed so the first callbacks do not fault the kernel in.
    func makeRealtimeState(for session: JackSession) -> UnsafeMutablePointer<RealtimeState> {
        var renderer = controller.makeRenderer(rampLength: session.bufferSize, sampleRate: Double(session.sampleRate))
        renderer.setMIDIChannel(configuration.midiChannel)
        renderer.engine.rehearse(frames: 16 * max(64, session.bufferSize))
        adoptServerSettings(of: session)
        return RealtimeState.make(renderer: renderer, signals: signals, probe: configuration.probe)
    }

    /// Deactivates and closes the client, and stops the control thread. Waits at most a
    /// few seconds.
    public func stop() {
        guard started.load(ordering: .acquiring), !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        signals.requestRound()
        if controlFinished.wait(timeout: .now() + configuration.closeTimeout + 2) == .timedOut {
            logger.warning("the JACK control thread did not finish in time; leaving it")
        }
    }

    // MARK: Statistics

    /// Callback timing percentiles (µs), xruns and periods, from the process callback's
    /// histogram (SPEC 10, `/stats`).
    public func stats() -> NodeStatistics {
        // The period count first: the frame read after it is that period's or a later one's.
        let periods = signals.periods.load(ordering: .acquiring)
        let (values, _) = signals.histogram.percentiles([0.5, 0.99, 0.999])
        let maximum = Double(signals.maxCallbackNanoseconds.load(ordering: .relaxed)) / 1000
        return NodeStatistics(
            p50: min(values[0], maximum), p99: min(values[1], maximum), p999: min(values[2], maximum),
            max: maximum, xruns: signals.xruns.load(ordering: .relaxed), periods: periods,
            bufferSize: signals.bufferSize.load(ordering: .relaxed), sampleRate: Double(signals.sampleRate.load(ordering: .relaxed)),
            frame: signals.periodFrame.load(ordering: .relaxed))
    }

    // MARK: Control thread

    /// A round (`tick`) every `controlInterval`, or at once when asked (`requestRound`);
    /// in between, whenever the process callback wakes it, only what it handed back is
    /// collected (a MIDI controller's new plan, say, must not wait for the next round).
    private func controlLoop() {
        let interval = UInt64(max(0, configuration.controlInterval) * 1e9)
        var nextRound: UInt64 = 0
        while !stopRequested.load(ordering: .acquiring) {
            let now = toneshaper_monotonic_nanoseconds()
            let requested = signals.roundRequested.exchange(false, ordering: .acquiringAndReleasing)
            if requested || now >= nextRound {
                tick()
                nextRound = now + interval
            } else {
                controller.collectHandback()
            }
            signals.wake.wait(untilNanoseconds: nextRound)
        }
        closeForGood()
        controlFinished.signal()
    }

    /// One round of the control loop.
    func tick() {
        controller.collectHandback()
        if let session {
            if signals.lostGeneration.load(ordering: .acquiring) == session.generation {
                serverWentAway(session)
            } else {
                updateClockOffset()
                followServerSettings()
                keepConnections(session)
                keepMIDIConnections(session)
            }
        } else {
            tryReconnect()
        }
        warnAboutNyquist()
        reportDroppedMIDI()
        reportRefusedTuning()
    }

    /// At the end: deactivate, close, free the real-time state (unless an old client might
    /// still touch it).
    private func closeForGood() {
        if let session {
            let name = session.clientName  // not readable once closed
            if session.close(deactivateFirst: true, timeout: configuration.closeTimeout) {
                logger.info("JACK client \(name) closed")
            } else {
                abandonedClient = true
                logger.warning("jack_client_close did not return within \(configuration.closeTimeout) s; leaving it")
            }
            self.session = nil
        }
        published.withLock { $0.connected = false }
        if let realtime, !abandonedClient {
            RealtimeState.destroy(realtime)
            self.realtime = nil
        }
        controller.collectHandback()
    }

    // MARK: Server settings

    /// Adopts the rate and period of a freshly opened client before it runs.
    func adoptServerSettings(of session: JackSession) {
        let rate = session.sampleRate
        signals.sampleRate.store(rate, ordering: .releasing)
        signals.bufferSize.store(session.bufferSize, ordering: .releasing)
        knownBufferSize = session.bufferSize
        if rate > 0 && Double(rate) != controller.sampleRate {
            if appliedSampleRate != 0 { logger.info("JACK sample rate is now \(rate) Hz; rebuilding the curve for it") }
            // If it cannot be queued now, the control loop sees the mismatch and retries.
            appliedSampleRate = controller.setSampleRate(Double(rate)) ? rate : 0
        } else {
            appliedSampleRate = rate
        }
    }

    /// Acts on the sample-rate and buffer-size notifications the callbacks recorded.
    private func followServerSettings() {
        let rate = signals.sampleRate.load(ordering: .acquiring)
        if rate > 0 && rate != appliedSampleRate {
            if controller.setSampleRate(Double(rate)) {
                logger.info("JACK sample rate is now \(rate) Hz; rebuilt the curve for it")
                appliedSampleRate = rate
            }
        }
        let size = signals.bufferSize.load(ordering: .acquiring)
        if size > 0 && size != knownBufferSize {
            logger.info("JACK period is now \(size) frames")
            knownBufferSize = size
        }
    }

    /// Measures wall clock minus `jack_get_time()` and publishes it for the process
    /// callback. The tightest of three brackets wins, so a preemption between the two
    /// clock reads does not skew it.
    func updateClockOffset() {
        var best: Int64 = 0
        var bestSpan = Int64.max
        for _ in 0..<3 {
            let before = toneshaper_wall_clock_microseconds()
            let jack = Int64(bitPattern: jack_get_time())
            let after = toneshaper_wall_clock_microseconds()
            if after - before < bestSpan {
                bestSpan = after - before
                best = before + (after - before) / 2 - jack
            }
        }
        signals.wallClockOffsetMicros.store(best, ordering: .relaxed)
    }

    private func warnAboutNyquist() {
        let exceeds = controller.exceedsNyquist
        if exceeds && !warnedNyquist {
            logger.warning("the shape has frequencies above Nyquist (\(controller.sampleRate / 2) Hz); they are clamped")
        }
        warnedNyquist = exceeds
    }

    func publish(_ session: JackSession?) {
        published.withLock { p in
            if let session {
                p.clientName = session.clientName
                p.portNames = session.portNames
                p.connected = true
            } else {
                p.connected = false
            }
        }
    }

    static func monotonicSeconds() -> Double { Double(toneshaper_monotonic_nanoseconds()) / 1e9 }
}
