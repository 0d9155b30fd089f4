import CAllocationCounter
import Foundation
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// The audio-thread logic without JACK: commands reach the engine at the right sample, in
/// the right order, and nothing allocates.
@Suite struct RealtimeRendererTests {
    static let rate = 48_000.0
    static let period = 64
    static let microsPerFrame = 1_000_000 / rate
    /// Some wall-clock moment (µs) for period 0 to start at.
    static let origin = 1_700_000_000_000_000.0

    /// A controller and the renderer it feeds, rendering period after period with a clock
    /// that advances exactly one period each time.
    final class Harness {
        let controller: EngineController
        var renderer: RealtimeRenderer
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: RealtimeRendererTests.period)
        var periodIndex = 0
        var output: [Float] = []

        init(shape: ToneShape = RealtimeRendererTests.steadyShape) {
            // The controller's now is period 0's start, whenever the test runs.
            controller = EngineController(
                shape: shape, sampleRate: RealtimeRendererTests.rate,
                clock: { RealtimeRendererTests.origin / 1_000_000 })
            renderer = controller.makeRenderer(rampLength: RealtimeRendererTests.period)
        }

        deinit {
            buffer.deallocate()
        }

        static func clock(forPeriod index: Int) -> PeriodClock {
            PeriodClock(startMicros: origin + Double(index * period) * microsPerFrame, microsPerFrame: microsPerFrame)
        }

        /// Unix seconds of sample `n` since period 0 began.
        static func due(atSample n: Int) -> Double { (origin + Double(n) * microsPerFrame) / 1_000_000 }

        func render(periods: Int, keep: Bool = true) {
            for _ in 0..<periods {
                renderer.renderPeriod(into: buffer, frames: RealtimeRendererTests.period, clock: Harness.clock(forPeriod: periodIndex))
                if keep { output += UnsafeBufferPointer(start: buffer, count: RealtimeRendererTests.period) }
                periodIndex += 1
            }
        }
    }

    /// A steady 440 Hz sine, no amplitude scaling: any change shows at once.
    static let steadyShape = ToneShape(
        points: [CurvePoint(time: 0, frequency: 440)], duration: 1,
        minFrequency: 20, maxFrequency: 2000, scale: .none, amplitude: 0.5)

    /// The first sample at which two renderings differ.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    }

    @Test func timeTaggedChangeStartsAtItsSample() throws {
        let reference = Harness()
        let tagged = Harness()
        // Period 3, sample 37 of it.
        let sample = 3 * Self.period + 37
        try tagged.controller.set(.amplitude, to: .real(0.1), due: Harness.due(atSample: sample))
        reference.render(periods: 6)
        tagged.render(periods: 6)
        // A ramp starts at its sample with the old value, so the first different sample is the next one.
        #expect(Self.firstDifference(reference.output, tagged.output) == sample + 1)
        #expect({ tagged.renderer.engine.amplitude.target == 0.1 }())
    }

    @Test func futureChangeWaitsInThePendingListAcrossPeriods() throws {
        let reference = Harness()
        let tagged = Harness()
        let sample = 40 * Self.period + 5
        try tagged.controller.set(.amplitude, to: .real(0.2), due: Harness.due(atSample: sample))
        reference.render(periods: 2)
        tagged.render(periods: 2)
        #expect(tagged.renderer.pendingCount == 1)
        #expect(tagged.controller.queuedCommandCount == 0)
        reference.render(periods: 40)
        tagged.render(periods: 40)
        #expect(tagged.renderer.pendingCount == 0)
        #expect(Self.firstDifference(reference.output, tagged.output) == sample + 1)
    }

    @Test func untimedAndPastChangesApplyAtThePeriodStart() throws {
        for due in [nil, Harness.due(atSample: -10_000)] as [Double?] {
            let reference = Harness()
            let changed = Harness()
            reference.render(periods: 2)
            changed.render(periods: 2)
            try changed.controller.set(.amplitude, to: .real(0.05), due: due)
            reference.render(periods: 2)
            changed.render(periods: 2)
            #expect(Self.firstDifference(reference.output, changed.output) == 2 * Self.period + 1)
        }
    }

    @Test func changesDueTogetherApplyInTheOrderSent() throws {
        let h = Harness()
        let due = Harness.due(atSample: 100)
        try h.controller.set(.amplitude, to: .real(0.1), due: due)
        try h.controller.set(.amplitude, to: .real(0.3), due: due)
        try h.controller.set(.amplitude, to: .real(0.2), due: due)
        // An untimed change sent later than a past-due one wins over it.
        h.render(periods: 3)
        #expect({ h.renderer.engine.amplitude.target == 0.2 }())
        try h.controller.set(.amplitude, to: .real(0.4), due: Harness.due(atSample: 0))
        try h.controller.set(.amplitude, to: .real(0.35))
        h.render(periods: 1)
        #expect({ h.renderer.engine.amplitude.target == 0.35 }())
    }

    @Test func aNewPlanWaitsForTheCrossfadeAndOldPlansAreHandedBack() throws {
        let h = Harness()
        h.render(periods: 1)
        try h.controller.set(.wave, to: .text("Square"))
        try h.controller.set(.wave, to: .text("Triangle"))
        h.render(periods: 1)
        // The first new plan is fading in; the second waits for it.
        #expect({ h.renderer.engine.isCrossfading }())
        #expect({ h.renderer.engine.plan.wave == .square }())
        #expect(h.renderer.pendingCount == 1)
        h.render(periods: 20)
        #expect({ h.renderer.engine.plan.wave == .triangle }())
        #expect(h.renderer.pendingCount == 0)
        h.controller.collectHandback()
        #expect(h.controller.livePlanCount == 1)
        #expect(h.output.allSatisfy { $0.isFinite && abs($0) <= 0.5 })
    }

    @Test func scheduledChangesAreBoundedAndTheOneBeyondIsRefused() throws {
        let h = Harness()
        let now = Harness.due(atSample: 0)
        var refused: ControlError?
        for i in 0..<100 {
            do {
                try h.controller.perform(.set(.amplitude, .real(0.001 * Double(i + 1))), due: now + 10 + Double(i) * 1e-3, now: now)
            } catch { refused = refused ?? error }
        }
        // Exactly the bound was taken; the next was refused with a reason, and changed nothing.
        #expect(h.controller.scheduledCount == EngineController.maximumScheduled)
        #expect(refused?.subject == .time)
        #expect(h.controller.shape.amplitude == 0.001 * Double(EngineController.maximumScheduled))
        h.render(periods: 1)
        #expect(h.renderer.pendingCount == EngineController.maximumScheduled)
        #expect(h.controller.queuedCommandCount == 0)
        // An immediate change still sounds at once: nothing waits behind the schedule.
        try h.controller.set(.amplitude, to: .real(0.4))
        h.render(periods: 1)
        #expect({ h.renderer.engine.amplitude.target == 0.4 }())
        // Clearing the schedule drops every scheduled change and makes room again.
        try h.controller.perform(.clearSchedule)
        h.render(periods: 1)
        h.controller.collectHandback()
        #expect(h.renderer.pendingCount == 0)
        #expect(h.controller.scheduledCount == 0)
        try h.controller.perform(.set(.amplitude, .real(0.2)), due: now + 5, now: now)
        #expect(h.controller.scheduledCount == 1)
    }

    @Test func applyingScheduledChangesMakesRoomForMore() throws {
        let h = Harness()
        for i in 0..<EngineController.maximumScheduled {
            try h.controller.set(.amplitude, to: .real(0.1), due: Harness.due(atSample: 100 + i))
        }
        h.render(periods: 4)
        h.controller.collectHandback()
        #expect(h.controller.scheduledCount == 0)
    }

    @Test func renderingWithTimedCommandsAndNewPlansAllocatesNothing() throws {
        let h = Harness(shape: .defaultShape)
        // Everything is prepared on this "control" thread first: the controller allocates.
        for i in 0..<40 {
            let due = Harness.due(atSample: 500 + i * 2_400 + i % 64)
            try h.controller.set(.amplitude, to: .real(0.1 + 0.01 * Double(i)), due: due)
            // At most EngineController.maximumLivePlans plans may wait at once.
            if i % 8 == 0 { try h.controller.set(.wave, to: .text(i % 10 == 0 ? "Square" : "Sawtooth Fourier")) }
            if i % 7 == 0 { try h.controller.setFrequencyRange(min: 100 + Double(i), max: 800, due: i % 2 == 0 ? nil : due) }
        }
        for _ in 0..<100 { try h.controller.set(.echoVolume, to: .real(0.5), due: Harness.due(atSample: 1_000_000)) }
        allocation_counter_start()
        h.render(periods: 2_000, keep: false)
        let allocations = allocation_counter_stop()
        #expect(allocations == 0)
        #expect(h.renderer.pendingCount > 0)
        h.controller.collectHandback()
    }

    @Test func periodClockFollowsTheSpecFormula() {
        // frame = rint((t - current_usecs) * nframes / (next_usecs - current_usecs))
        let clock = PeriodClock(startMicros: 1_000_000, microsPerFrame: 1333.0 / 64)
        #expect(clock.frameOffset(ofMicros: 1_000_000) == 0)
        #expect(clock.frameOffset(ofMicros: 1_000_000 + 1333.0 / 64 * 10.4) == 10)
        #expect(clock.frameOffset(ofMicros: 1_000_000 + 1333.0 / 64 * 10.6) == 11)
        #expect(clock.frameOffset(ofMicros: 999_000) < 0)
        #expect(clock.frameOffset(ofMicros: 1e18) > 1e12)
    }
}

/// A stop that overtakes a cross-fade (a new plan within 5 ms after /stop) once left the
/// fade unfinished for ever: the next plan waited for it, and every change behind that plan,
/// /play included, with it. Found by the scheduled-flood test (ScheduledFloodTests).
@Suite struct StopDuringCrossfade {
    @Test func changesAfterAStoppedCrossfadeAreStillApplied() throws {
        let h = RealtimeRendererTests.Harness()
        h.render(periods: 2)
        try h.controller.stop()
        h.render(periods: 1)  // fading out (5 ms = 240 samples)
        try h.controller.set(.wave, to: .text("Square"))  // a cross-fade starts while the gate falls
        h.render(periods: 10)  // the gate reaches 0 first
        try h.controller.set(.wave, to: .text("Triangle"))
        try h.controller.play()
        try h.controller.set(.amplitude, to: .real(0.3))
        h.render(periods: 10)
        #expect({ h.renderer.engine.plan.wave == .triangle }())
        #expect({ h.renderer.engine.isPlaying }())
        #expect({ h.renderer.engine.amplitude.target == 0.3 }())
        #expect(h.renderer.pendingCount == 0)
        h.controller.collectHandback()
        #expect(h.controller.livePlanCount == 1)
        #expect(h.output.suffix(64).contains { $0 != 0 })
    }
}
