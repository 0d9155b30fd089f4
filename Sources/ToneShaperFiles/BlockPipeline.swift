import Dispatch
import Foundation
import Synchronization

/// Hands blocks of samples from the rendering thread to a writing thread through a few
/// slots (`slotCount`), so the engine computes the next blocks while libsndfile and the
/// kernel store earlier ones. The writer's first error stops the renderer at its next block.
///
/// The renderer calls `fill` for each block and `finish` (or `cancel`) once; the consumer
/// runs on its own thread between `init` and the end of `finish`/`cancel`.
final class BlockPipeline: @unchecked Sendable {
    private let capacity: Int
    private let slots: [UnsafeMutableBufferPointer<Float>]
    private var counts: [Int]
    /// Counted slots: `empty` ones the renderer may fill, `full` ones the writer may drain.
    private let empty: DispatchSemaphore
    private let full = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)
    private var nextToFill = 0
    private let failure = Mutex<(any Error)?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// Set by the rendering thread once the writer has been told to stop.
    private var ended = false

    /// Starts the writing thread; `consume` is called on it with each block in order.
    init(blockSize: Int, slotCount: Int = 2, consume: @escaping @Sendable (UnsafeBufferPointer<Float>) throws -> Void) {
        capacity = blockSize
        slots = (0..<slotCount).map { _ in UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize) }
        counts = Array(repeating: 0, count: slotCount)
        // Created at 0 and raised, not created at slotCount: libdispatch traps when a
        // semaphore is freed below its initial value, which `empty` ends up being.
        empty = DispatchSemaphore(value: 0)
        for _ in 0..<slotCount { empty.signal() }
        let thread = Thread { [self] in drain(consume) }
        thread.name = "toneshaper-writer"
        thread.start()
    }

    deinit { for slot in slots { slot.deallocate() } }

    /// Lets `make` write `count` samples straight into a free slot (no copy), waiting while
    /// all are in use, and hands the slot to the writer. Throws the writer's error, if any.
    func fill(_ count: Int, _ make: (UnsafeMutablePointer<Float>) -> Void) throws {
        precondition(count <= capacity)
        empty.wait()
        if let error = failure.withLock({ $0 }) {
            empty.signal()
            throw error
        }
        let slot = nextToFill
        nextToFill = (nextToFill + 1) % slots.count
        make(slots[slot].baseAddress!)
        counts[slot] = count
        full.signal()
    }

    /// Waits until every filled block is written, then throws the writer's error if any.
    func finish() throws {
        endAndWait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Stops the writer after the blocks already filled; errors are dropped.
    func cancel() {
        stopping.store(true, ordering: .releasing)
        endAndWait()
    }

    private func endAndWait() {
        guard !ended else { return }
        ended = true
        // A slot with count -1 tells the writer to stop; it may need a free slot first.
        empty.wait()
        counts[nextToFill] = -1
        full.signal()
        writerDone.wait()
    }

    private func drain(_ consume: (UnsafeBufferPointer<Float>) throws -> Void) {
        var slot = 0
        while true {
            full.wait()
            let count = counts[slot]
            if count < 0 { break }
            if failure.withLock({ $0 == nil }) && !stopping.load(ordering: .acquiring) {
                do { try consume(UnsafeBufferPointer(rebasing: slots[slot][0..<count])) } catch {
                    failure.withLock { $0 = error }
                }
            }
            slot = (slot + 1) % slots.count
            empty.signal()
        }
        writerDone.signal()
    }
}
