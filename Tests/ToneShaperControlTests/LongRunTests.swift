import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

@testable import ToneShaperKernelBaseline

/// 24 hours of 48 kHz audio through the engine's own curve lookup and integrator (stages A
/// and B of the kernel, the ones that carry state), against a double-precision closed form.
/// The phase must stay within 1e-6 cycles (the fixed-point integrator's bound is 4.6e-7,
/// half a 2^-52 unit per sample), and never become subnormal.
@Suite struct DayLongPhase {
    static let rate = 48000.0
    static let day = 24 * 3600 * 48000  // samples

    /// Computes one cycle's frequencies with the kernel's stage A (they repeat every cycle,
    /// and stage A does not depend on block boundaries: see PiecewiseEqualsWhole), then runs
    /// the kernel's integrator (stage B) over a whole day of them, in blocks of 240.
    /// Checks the phase against `expected` every `every` samples.
    func run(_ shape: ToneShape, every: Int, expected: (Int) -> Double) -> (worst: Double, subnormal: Bool) {
        let storage = CurveStorage(shape: shape, sampleRate: DayLongPhase.rate, id: 1)
        let plan = storage.plan
        let cycle = plan.cycleLength
        let block = 240
        precondition(cycle % block == 0)
        let v = UnsafeMutablePointer<Double>.allocate(capacity: cycle)
        let fractions = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { fractions.deallocate() }
        let work = UnsafeMutablePointer<Double>.allocate(capacity: 5 * block)
        defer {
            v.deallocate()
            work.deallocate()
        }
        let ramp = work + 4 * block
        for k in 0..<block { ramp[k] = Double(k) }
        var voice = VoiceState.starting(at: 0, plan: plan, map: .identity)
        var start = 0
        while start < cycle {
            Kernel.frequencies(
                plan: plan, voice: &voice, count: block, range: RangeRamp(offset: 0, slope: 1, offsetStep: 0, slopeStep: 0),
                ramp: ramp, v: v + start, u: fractions)
            start += block
        }
        var main = VoiceState.starting(at: 0, plan: plan, map: .identity).integrator
        let fixed = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * block)
        defer { fixed.deallocate() }
        let steps = fixed
        let phase = fixed + block
        let scale = plan.halfSamplePeriod * PhaseIntegrator.unitsPerCycle
        var worst = 0.0
        var subnormal = false
        var n = 0
        while n < DayLongPhase.day {
            let offset = n % cycle
            Kernel.steps(first: main.lastFrequency, v: v + offset, count: block, scale: scale, out: steps)
            Kernel.accumulate(&main.fixedPhase, steps: steps, count: block, into: FixedPhases(phase))
            main.lastFrequency = v[offset + block - 1]
            let due = (every - n % every) % every
            if due < block {
                var e = abs(PhaseIntegrator.cycles(phase[due]) - expected(n + due))
                e = min(e, 1 - e)
                worst = max(worst, e)
            }
            if main.phase != 0 && !main.phase.isNormal { subnormal = true }
            n += block
        }
        print("24 h of \(shape.points.count == 1 ? "constant" : "swept") frequency: worst phase error \(worst) cycles")
        withExtendedLifetime(storage) {}
        return (worst, subnormal)
    }

    @Test func constantFrequency() {
        let shape = ToneShape(points: [CurvePoint(time: 0, frequency: 440)], duration: 1, minFrequency: 440, maxFrequency: 440, scale: .none)
        // x(n) = 440 n / 48000, exactly, in integers.
        let result = run(shape, every: 1_000_003) { n in Double((440 * n) % 48000) / 48000 }
        #expect(result.worst < 1e-6, "worst phase error over 24 h: \(result.worst) cycles")
        #expect(!result.subnormal)
    }

    @Test func linearSweep() {
        // 100 -> 300 Hz over a 1 s cycle: v[m] = 100 + 200 m / 47999. The trapezoid rule is
        // exact on a straight line, and one whole cycle (with the step back from 300 to 100)
        // integrates to exactly 200 cycles, so the phase at sample n is X(n mod S) mod 1.
        let shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 100), CurvePoint(time: 1, frequency: 300)], duration: 1,
            minFrequency: 100, maxFrequency: 300, scale: .none, fidelity: 1)
        let result = run(shape, every: 999_983) { n in
            let m = Double(n % 48000)
            let x = (100 * m + 100 * m * m / 47999) / 48000
            return x - x.rounded(.down)
        }
        #expect(result.worst < 1e-6, "worst phase error over 24 h: \(result.worst) cycles")
        #expect(!result.subnormal)
    }
}
