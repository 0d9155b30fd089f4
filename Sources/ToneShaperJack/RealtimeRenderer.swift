import ToneShaperCore

/// The audio-thread half of the node, without JACK: one period at a time it takes the
/// controller's commands, applies each at its sample (SPEC 8, 12), renders, and hands
/// retired plans back. The JACK process callback calls it with the port's buffer; tests
/// call it with their own buffers and clocks.
///
/// Real-time safe after `init`: no allocation, no locks, no I/O, no retain/release (the
/// queues are passed in at +0 by the caller and carry only plain values).
public struct RealtimeRenderer {
    public private(set) var engine: ToneEngine
    private var pending = PendingCommands()

    /// Takes ownership of `engine` (its memory is freed by `deallocate()`).
    public init(engine: ToneEngine) {
        self.engine = engine
    }

    /// Frees the engine's and the pending list's memory. Off the audio thread, once the
    /// callback can no longer run.
    public func deallocate() {
        pending.deallocate()
        engine.deallocate()
    }

    /// Commands held for a later period.
    public var pendingCount: Int { pending.count }

    /// Renders one period of `frames` samples into `out`.
    ///
    /// Every command waiting in `commands` moves into the pending list, keyed by its due
    /// time (now, for commands without one or already past); then the pending commands due
    /// inside this period are applied at their exact sample, rendering up to each one. A
    /// new plan while the engine cannot take one (a cross-fade still running) waits, and
    /// so does everything after it, to keep the controller's order.
    public mutating func renderPeriod(into out: UnsafeMutablePointer<Float>, frames: Int, clock: PeriodClock,
                                      commands: SPSCQueue<TimedCommand>, retired: SPSCQueue<Int>) {
        // Continuous changes ramp across one period (SPEC 8), whatever the period is now.
        if engine.rampLength != frames { engine.rampLength = frames }

        takeQueuedCommands(from: commands, now: clock.startMicros)

        var position = 0
        let end = Double(frames)
        while let next = pending.first {
            let offset = clock.frameOffset(ofMicros: next.dueMicros)
            if offset >= end { break }                          // a later period
            // Written so that an offset that is not a number counts as "now" instead of
            // reaching Int(), which would trap on the audio thread.
            let at = !(offset > Double(position)) ? position : Int(offset)
            if at > position {
                engine.render(into: out + position, count: at - position)
                position = at
            }
            if next.command.replacesPlan && !engine.canAcceptPlan { break }
            pending.removeFirst()
            engine.apply(next.command)
        }
        if position < frames { engine.render(into: out + position, count: frames - position) }

        // Hand back plans the engine no longer reads; leave them in the engine (which then
        // refuses new plans for a while) rather than lose one when the queue is full.
        while retired.count < retired.capacity - 1, let id = engine.takeRetiredPlan() {
            retired.push(id)
        }
    }

    /// Moves queued commands into the pending list. When the list is full (a controller
    /// flooding the node with future-dated commands), the overflow applies at once rather
    /// than blocking later immediate changes behind it.
    private mutating func takeQueuedCommands(from commands: SPSCQueue<TimedCommand>, now: Double) {
        while let queued = commands.peek() {
            // Past or untimed commands count as due now, which keeps them in arrival order
            // among themselves (insertion is stable).
            var due = now
            if let seconds = queued.due {
                let micros = seconds * 1_000_000
                if micros.isFinite && micros > now { due = micros }
            }
            if !pending.isFull {
                pending.insert(PendingCommands.Entry(dueMicros: due, command: queued.command))
            } else {
                if queued.command.replacesPlan && !engine.canAcceptPlan { return }   // stays queued
                engine.apply(queued.command)
            }
            _ = commands.pop()
        }
    }
}
