import CAllocationCounter
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// The audio thread may not allocate. The compiler proves the kernel (release builds turn
/// on @_noAllocation/@_noLocks); this counts, on a real run, every malloc and free made
/// while the engine renders thousands of periods and takes changes between them, as the
/// JACK callback does.
@Suite struct RealtimeSafety {
    @Test(arguments: WaveType.allCases)
    func renderingAndApplyingChangesAllocatesNothing(_ wave: WaveType) throws {
        var shape = ToneShape.defaultShape
        shape.wave = wave
        shape.fourierTerms = .nyquist
        shape.echoOffset = 0.3
        let controller = EngineController(shape: shape, sampleRate: 48000)
        var engine = controller.makeEngine(rampLength: 64)
        let audio = controller.makeRenderer()  // never run: it only collects the commands
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        // Commands prepared off the "audio thread" beforehand, including new plans.
        try controller.setFrequencyRange(min: 200, max: 900)
        try controller.set(.amplitude, to: .real(0.5))
        try controller.set(.scale, to: .text("Two Step"))
        try controller.set(.echoVolume, to: .real(0.3))
        try controller.stop()
        try controller.play()
        var pending: [EngineCommand] = []
        for c in audio.drainCommands() { pending.append(c.command) }
        pending.reserveCapacity(pending.count)

        allocation_counter_start()
        var next = 0
        var retiredIDs = (0, 0)
        for period in 0..<5000 {
            if period % 400 == 0 && next < pending.count && (!pending[next].replacesPlan || engine.canAcceptPlan) {
                engine.apply(pending[next])
                next += 1
            }
            engine.render(into: buffer, count: 64)
            while let id = engine.takeRetiredPlan() {
                retiredIDs.0 = id
                retiredIDs.1 += 1
            }
        }
        let allocations = allocation_counter_stop()
        #expect(next == pending.count, "every command was applied")
        #expect(retiredIDs.1 >= 1, "a plan was replaced and handed back")
        #expect(allocations == 0, "\(wave): \(allocations) allocations while rendering 5000 periods")
    }

    /// The counter works: an allocation on this thread is seen.
    @Test func theCounterSeesAllocations() {
        allocation_counter_start()
        let array = [Int](repeating: 1, count: Int.random(in: 100...200))
        let n = allocation_counter_stop()
        #expect(array.count >= 100)
        #expect(n >= 1)
    }
}
