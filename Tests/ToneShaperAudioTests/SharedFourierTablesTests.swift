import Foundation
import Synchronization
import Testing
import ToneShaperAudio
import ToneShaperTestSupport

/// The Fourier tables' cache counted by instances (as the LV2 plugin counts them): the last
/// instance to go lets the cache's sets go, a set held elsewhere (as a plan's storage holds
/// it) stays whole until it is let go too, and readers racing the last instance's going
/// always get a whole set. In a process of its own (``ChildTest``): emptying the cache would
/// make the other tests of this process build their tables again.
@Suite struct SharedFourierTablesTests {
    @Test func theLastInstanceGoingLetsTheTablesGoAndNoHolderLosesThem() throws {
        let result = try ChildTest.run("sharedTablesInAProcessOfItsOwn")
        #expect(result.exitedNormally && result.status == 0, "the child test failed: \(result.output)")
    }

    @Test(.enabled(if: ChildTest.isRunning("sharedTablesInAProcessOfItsOwn"), Comment(rawValue: ChildTest.skipReason)))
    func sharedTablesInAProcessOfItsOwn() throws {
        SharedFourierTables.instanceMade()
        SharedFourierTables.instanceMade()
        weak var cached: FourierWavetables?
        var held: FourierWavetables? = FourierWavetables.shared(for: .triangleFourier)
        cached = held
        let expected = Self.sum(try #require(held))
        #expect(FourierWavetables.shared(for: .triangleFourier) === held, "one set while instances live")

        SharedFourierTables.instanceGone()
        #expect(FourierWavetables.shared(for: .triangleFourier) === held, "an instance is left: the set is kept")
        SharedFourierTables.instanceGone()
        #expect(SharedFourierTables.instanceCount == 0)
        // The cache let it go, but it is held here, as a plan's storage holds its set: whole.
        #expect(cached != nil)
        #expect(Self.sum(try #require(held)) == expected)
        let rebuilt = FourierWavetables.shared(for: .triangleFourier)
        #expect(rebuilt !== held, "with no instance left, the next set is built anew")
        #expect(Self.sum(rebuilt) == expected)
        held = nil
        #expect(cached == nil, "freed once nobody holds it")

        // Readers on other threads while instances come and go: each gets a whole set.
        let stop = Atomic<Bool>(false)
        let bad = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let threads = (0..<3).map { _ in
            Thread {
                while !stop.load(ordering: .relaxed) {
                    if Self.sum(FourierWavetables.shared(for: .triangleFourier)) != expected { bad.add(1, ordering: .relaxed) }
                    reads.add(1, ordering: .relaxed)
                }
                finished.add(1, ordering: .releasing)
            }
        }
        for thread in threads { thread.start() }
        for _ in 0..<40 {
            SharedFourierTables.instanceMade()
            _ = FourierWavetables.shared(for: .triangleFourier)
            SharedFourierTables.instanceGone()
        }
        stop.store(true, ordering: .relaxed)
        while finished.load(ordering: .acquiring) < threads.count { usleep(1_000) }
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(bad.load(ordering: .relaxed) == 0)
    }

    /// A checksum of a set's coefficients: a freed or half-built set would not give it.
    static func sum(_ tables: FourierWavetables) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: tables.tops.count, by: 7) {
            let level = tables.level(i)
            for j in stride(from: 0, to: Int(level.length), by: 97) { sum += Double(level.coefficients[j]) * Double(j % 13 + 1) }
        }
        return sum
    }
}
