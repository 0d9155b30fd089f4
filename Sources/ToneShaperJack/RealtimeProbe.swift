import Synchronization

/// What the process callback lets a test see of itself, for tests that watch the audio
/// thread (`JackNodeConfiguration.probe`; nil in normal use). The callback only stores into
/// the atomics below; tests read them, and `reset` the marks between measurements. No code
/// a test supplies runs on the audio thread, except the allocation counter's two C
/// functions, which must be free of locks and allocation themselves (a thread-local flag
/// and count, as the tests' `CAllocationCounter` is).
///
/// Frames are the renderer's: counted from the node's first period (`RealtimeRenderer.frame`),
/// so two marks give the time between them on the audio's own timeline.
public final class RealtimeProbe: Sendable {
    /// Two C functions that count the allocations the calling thread makes between them.
    public struct AllocationCounter: @unchecked Sendable {
        public var start: @convention(c) () -> Void
        public var stop: @convention(c) () -> UInt64

        public init(start: @convention(c) () -> Void, stop: @convention(c) () -> UInt64) {
            self.start = start
            self.stop = stop
        }
    }

    /// Called around everything the callback does, each period, when given.
    public let allocationCounter: AllocationCounter?

    /// Periods the callback ran.
    public var cycles: Int { cycleCount.load(ordering: .acquiring) }
    /// Allocations the counter saw on the audio thread, over all periods.
    public var allocations: UInt64 { allocationCount.load(ordering: .acquiring) }

    /// `CLOCK_MONOTONIC` nanoseconds at which a callback, since the last `reset`, first
    /// found commands from the controller waiting (it applies them from that period's first
    /// frame); nil: none yet. Read after the check, so never earlier than the command.
    public var commandSeenNanoseconds: UInt64? {
        let value = commandSeen.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// The frame of the first MIDI event the callback read since the last `reset`.
    public var midiEventFrame: Int64? { frame(midiEvent) }

    /// The first frame of the first period, since the last `reset`, that started playing a
    /// new plan (the engine's plan changed during it: a new curve, wave, rate...).
    public var newPlanFrame: Int64? { frame(newPlan) }

    public init(allocationCounter: AllocationCounter? = nil) {
        self.allocationCounter = allocationCounter
    }

    /// Forgets the marks (command seen, MIDI event, new plan); the counts go on.
    public func reset() {
        commandSeen.store(0, ordering: .releasing)
        midiEvent.store(-1, ordering: .releasing)
        newPlan.store(-1, ordering: .releasing)
    }

    // Written by the audio thread only (the marks also by `reset`).
    let cycleCount = Atomic<Int>(0)
    let allocationCount = Atomic<UInt64>(0)
    let commandSeen = Atomic<UInt64>(0)
    let midiEvent = Atomic<Int64>(-1)
    let newPlan = Atomic<Int64>(-1)

    private func frame(_ mark: borrowing Atomic<Int64>) -> Int64? {
        let value = mark.load(ordering: .acquiring)
        return value < 0 ? nil : value
    }
}
