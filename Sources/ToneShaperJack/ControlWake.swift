import CFutex
import CJack
import Synchronization

/// Wakes the control thread from any thread, the JACK process callback included: a futex
/// word that the signalling side changes with one atomic exchange, and a `FUTEX_WAKE`
/// system call only when the control thread is asleep on it. Signals coalesce (one wake-up
/// answers any number of them), and one that comes while the control thread is busy is
/// kept for its next wait, so none is lost.
///
/// Why a futex: the audio side must not wait, lock or allocate. The exchange is
/// wait-free and proved so (`signal` is under the real-time proof); the system call never
/// blocks (see CFutex/include/futex.h) and is skipped whenever nobody sleeps, so a busy
/// control side costs the audio thread one atomic. A `DispatchSemaphore` counts (a burst
/// of periods would leave a queue of wake-ups to drain) and is a reference-counted object
/// the proof cannot follow; an eventfd would cost a system call on every signal and a file
/// descriptor; a POSIX semaphore counts too.
///
/// The word: 0, nothing to report; 1, signalled; 2, the control thread sleeps (or is about
/// to) and nothing is signalled yet. One thread waits (the control thread); any number
/// signal. It lives in its own allocation, so its address (which the kernel keys the
/// sleeper on) never moves.
struct ControlWake: ~Copyable, @unchecked Sendable {
    private let word: UnsafeMutablePointer<Atomic<UInt32>>

    private static let idle: UInt32 = 0
    private static let signalled: UInt32 = 1
    private static let sleeping: UInt32 = 2

    init() {
        word = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: 1)
        word.initialize(to: Atomic(ControlWake.idle))
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// The futex word as the kernel sees it (an `Atomic<UInt32>` is laid out as a `UInt32`).
    private var rawWord: UnsafeMutablePointer<UInt32> { UnsafeMutableRawPointer(word).assumingMemoryBound(to: UInt32.self) }

    /// Any thread, the audio thread included: wakes the control thread, or, if it is not
    /// asleep, has its next wait return at once.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    func signal() {
        if word.pointee.exchange(ControlWake.signalled, ordering: .acquiringAndReleasing) == ControlWake.sleeping {
            RealtimeCalls.futexWake(rawWord)
        }
    }

    /// The control thread only: sleeps until signalled or until `deadline` (monotonic ns).
    /// True if signalled (a signal given since the last wait counts).
    @discardableResult
    func wait(untilNanoseconds deadline: UInt64) -> Bool {
        while true {
            if word.pointee.compareExchange(expected: ControlWake.signalled, desired: ControlWake.idle, ordering: .acquiringAndReleasing)
                .exchanged
            {
                return true
            }
            let marked = word.pointee.compareExchange(expected: ControlWake.idle, desired: ControlWake.sleeping, ordering: .acquiringAndReleasing)
            if !marked.exchanged && marked.original == ControlWake.signalled { continue }
            let now = toneshaper_monotonic_nanoseconds()
            if now >= deadline { break }
            toneshaper_futex_wait(rawWord, ControlWake.sleeping, Int64(deadline - now))
        }
        // Timed out: clear the sleeping mark, unless a signal came in the meantime.
        return word.pointee.exchange(ControlWake.idle, ordering: .acquiringAndReleasing) == ControlWake.signalled
    }
}
