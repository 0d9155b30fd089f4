import CPluginSupport
import Synchronization

/// A work thread of the plugin's own, for hosts that offer none (CLAP has no worker; an LV2
/// host may lack worker:schedule): plans are built and freed there, and a block's problems
/// logged, never on the audio thread. The audio thread pushes messages (a kind and bytes,
/// copied) on a lock-free queue and wakes the thread with a semaphore (sem_post neither
/// blocks nor allocates); the thread answers on a second queue, which the audio thread
/// drains at the start of a block. What a message means is the shell's (``serve(_:)``).
///
/// Threads: ``push(_:_:)``, ``answers``' pop and ``finishBlock(pushedBefore:offline:)``
/// on the audio thread; ``serve(_:)`` on the work thread; the rest on the main thread.
public struct WorkThread {
    /// The queue to the thread: pushed by the audio thread (or, while no block runs, the
    /// main thread), popped by the thread.
    public let queue: MessageRing
    /// The thread's answers, for the audio thread to take at a block's start.
    public let answers: MessageRing
    /// [0]: messages pushed, [1]: messages the thread has finished.
    let counters: UnsafeMutablePointer<Atomic<Int>>
    let thread: UnsafeMutablePointer<toneshaper_plugin_thread>
    let stopping: UnsafeMutablePointer<Atomic<Bool>>

    public init(slots: Int = 256) {
        precondition(MemoryLayout<InstrumentResponse>.size <= MessageRing.payloadCapacity, "an engine answer fits a queue slot")
        queue = MessageRing(slots: slots)
        answers = MessageRing(slots: slots)
        counters = .allocate(capacity: 2)
        counters.initialize(to: Atomic(0))
        (counters + 1).initialize(to: Atomic(0))
        thread = .allocate(capacity: 1)
        thread.initialize(to: toneshaper_plugin_thread())
        stopping = .allocate(capacity: 1)
        stopping.initialize(to: Atomic(false))
    }

    /// Frees the queues (the thread must be stopped).
    public func free() {
        queue.free()
        answers.free()
        counters.deinitialize(count: 2)
        counters.deallocate()
        thread.deallocate()
        stopping.deinitialize(count: 1)
        stopping.deallocate()
    }

    /// Whether the thread runs (it may have failed to start).
    public var isRunning: Bool { thread.pointee.started != 0 }

    /// Starts the thread on `body(context)`, which calls ``serve(_:)``; false when it
    /// cannot be started.
    public func start(_ body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer) -> Bool {
        stopping.pointee.store(false, ordering: .releasing)
        return toneshaper_plugin_thread_start(thread, body, context) != 0
    }

    /// Tells the thread to return once it has done what is queued, and joins it.
    public func stop() {
        stopping.pointee.store(true, ordering: .releasing)
        toneshaper_plugin_thread_wake(thread)
        toneshaper_plugin_thread_join(thread)
    }

    /// The thread's body: waits to be woken, hands every queued message to `handle` (its
    /// kind, its bytes), and returns when told to stop.
    public func serve(_ handle: (UInt32, UnsafeRawBufferPointer) -> Void) {
        while true {
            toneshaper_plugin_thread_wait(thread)
            while queue.take(handle) { counters[1].add(1, ordering: .releasing) }
            if stopping.pointee.load(ordering: .acquiring) { return }
        }
    }

    /// Queues a message (copied) for the thread; false when the queue is full (dropped).
    /// The thread is woken at the block's end (``finishBlock(pushedBefore:offline:)``).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func push(_ kind: UInt32, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard queue.push(kind, payload) else { return false }
        counters[0].add(1, ordering: .releasing)
        return true
    }

    /// Messages pushed so far (a block notes it at its start).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func pushedCount() -> Int { counters[0].load(ordering: .relaxed) }

    /// At a block's end: the thread is woken when the block pushed anything, or anything
    /// pushed before (by the main thread between blocks, say) is not done yet; `offline`
    /// (a host rendering faster than real time), it is waited for, as a host's synchronous
    /// worker would be: there is no deadline to miss, and the next block plays the plans.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func finishBlock(pushedBefore: Int, offline: Bool) {
        let pushed = counters[0].load(ordering: .relaxed)
        guard pushed != pushedBefore || counters[1].load(ordering: .relaxed) < pushed else { return }
        let thread = self.thread
        let counters = self.counters
        _unsafePerformance {
            toneshaper_plugin_thread_wake(thread)
            if offline && thread.pointee.started != 0 {
                while counters[1].load(ordering: .acquiring) < pushed { toneshaper_plugin_pause() }
            }
        }
    }

    /// Off the audio thread: waits (at most a second) until the thread has done what was
    /// queued for it so far (a state saved must hold the changes queued before).
    public func waitUntilDone() {
        let target = counters[0].load(ordering: .acquiring)
        toneshaper_plugin_thread_wake(thread)
        for _ in 0..<10_000 where counters[1].load(ordering: .acquiring) < target { toneshaper_plugin_pause() }
    }

    /// Drops every message and answer (the thread stopped, the engine about to be made anew).
    public func clear() {
        queue.clear()
        answers.clear()
    }
}

/// How the work thread's answers reach the audio thread: a queue a block drains at its start.
public struct RingAnswer: PluginAnswer {
    public let ring: MessageRing
    public init(ring: MessageRing) { self.ring = ring }
    public func respond(_ answer: UnsafeRawBufferPointer) -> Bool { ring.push(1, answer) }
}
