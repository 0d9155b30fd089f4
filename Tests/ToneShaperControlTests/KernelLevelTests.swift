import Foundation
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// The render kernel is compiled once per instruction-set level (`KernelLevel`). Every level
/// this CPU runs must render what the baseline renders: the phase and the place in the cycle
/// bit for bit (integer sums of the same rounded trapezoids, from frequencies computed by the
/// same IEEE operations), the samples within the float rounding that fused multiply-adds and
/// other instruction choices may move.
@Suite struct KernelLevels {
    @Test func selectionAndOverride() {
        let available = KernelLevel.available
        #expect(available.first == .baseline)
        #expect(available == available.sorted())
        #expect(available.contains(KernelLevel.selected))
        #expect(KernelLevel.choose(forced: nil).level == KernelLevel.automatic)
        // The highest level the CPU runs: v4 where it has AVX-512, else v3, else the baseline.
        #expect(KernelLevel.automatic == (available.contains(.v4) ? .v4 : available.contains(.v3) ? .v3 : .baseline))
        #expect(KernelLevel.automatic == available.last)
        #expect(KernelLevel.choose(forced: "baseline").level == .baseline)
        #expect(KernelLevel.choose(forced: "BASELINE").level == .baseline)
        let bogus = KernelLevel.choose(forced: "avx9000")
        #expect(bogus.level == KernelLevel.automatic && bogus.note.contains("not one of"))
        for level in KernelLevel.allCases where !available.contains(level) {
            #expect(KernelLevel.choose(forced: level.rawValue).level == KernelLevel.automatic)
        }
        for level in available { #expect(KernelLevel.choose(forced: level.rawValue).level == level) }
    }

    /// cpuid and xgetbv agree with what Linux says the CPU and the OS support: the flags of
    /// /proc/cpuinfo (which leave out AVX and AVX-512 when the OS does not save their
    /// registers). So the automatic choice is v4 exactly where the CPU has AVX-512.
    @Test func levelsFollowTheFlagsLinuxReports() throws {
        #if os(Linux) && arch(x86_64)
            let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let line = try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
            let flags = Set(line.split(separator: ":", maxSplits: 1).last!.split(separator: " ").map(String.init))
            // x86-64-v3 and -v4 as the psABI defines them (LZCNT is "abm" in Linux's names).
            let v3 = ["avx", "avx2", "fma", "bmi1", "bmi2", "abm", "movbe", "f16c"]
            let v4 = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]
            let hasV3 = v3.allSatisfy(flags.contains)
            let hasV4 = hasV3 && v4.allSatisfy(flags.contains)
            #expect(KernelLevel.available.contains(.v3) == hasV3)
            #expect(KernelLevel.available.contains(.v4) == hasV4)
            #expect(KernelLevel.automatic == (hasV4 ? .v4 : hasV3 ? .v3 : .baseline))
            print("kernel levels: CPU flags give v3 \(hasV3), v4 \(hasV4); automatic choice \(KernelLevel.automatic)")
        #endif
    }

    /// Shapes that take every way through the kernel: each wave (plain, anti-aliased,
    /// Fourier), each scaling, the three ways of reading the curve, sweeps to Nyquist.
    static let shapes: [(String, ToneShape)] = {
        func sweep(
            _ wave: WaveType, _ scale: ScaleType, from f0: Double = 30, to f1: Double = 4000, fidelity: Int = 500,
            duration: Double = 2, antiAliased: Bool = true, terms: FourierTerms = .nyquist
        ) -> ToneShape {
            var shape = ToneShape(
                points: [
                    CurvePoint(time: 0, frequency: f0), CurvePoint(time: duration * 0.6, frequency: f1),
                    CurvePoint(time: duration, frequency: f0),
                ],
                duration: duration, minFrequency: min(f0, f1), maxFrequency: max(f0, f1), wave: wave, scale: scale,
                echoOffset: duration / 3, echoVolume: 0.5, fidelity: fidelity, fourierTerms: terms)
            shape.antiAliased = antiAliased
            return shape
        }
        var shapes: [(String, ToneShape)] = []
        for wave in WaveType.allCases {
            shapes.append(("\(wave.rawValue), sine scaling", sweep(wave, .sine)))
            if !wave.isFourier && wave != .sine { shapes.append(("\(wave.rawValue), naive", sweep(wave, .linear, antiAliased: false))) }
        }
        for scale in ScaleType.allCases { shapes.append(("sine, \(scale.rawValue)", sweep(.sine, scale))) }
        shapes.append(("sine, cells of 8 samples (the per-sample curve)", sweep(.sine, .sine, fidelity: 12_000)))
        shapes.append(("sine, cells under 16 samples in a 60 s cycle (windows)", sweep(.sine, .sine, fidelity: 400_000, duration: 60)))
        shapes.append(("square, up to Nyquist and beyond", sweep(.square, .none, from: 100, to: 30_000)))
        shapes.append(("Sawtooth Fourier, 40 terms, 20 Hz-20 kHz", sweep(.sawtoothFourier, .none, from: 20, to: 20_000, terms: .count(40))))
        return shapes
    }()

    @Test(arguments: KernelLevels.shapes.map(\.0))
    func everyLevelRendersWhatTheBaselineRenders(name: String) {
        let shape = KernelLevels.shapes.first { $0.0 == name }!.1
        let storage = CurveStorage(shape: shape, sampleRate: 48000, id: 1)
        let baseline = LevelRun(plan: storage.plan.rendered(by: .baseline))
        for level in KernelLevel.available where level != .baseline {
            let run = LevelRun(plan: storage.plan.rendered(by: level))
            #expect(run.states == baseline.states, "\(level): voice states differ from the baseline's")
            var worst: Float = 0
            for i in baseline.output.indices { worst = max(worst, abs(run.output[i] - baseline.output[i])) }
            print("\(name), \(level) against baseline: phases identical: \(run.states == baseline.states), largest sample difference \(worst)")
            // The samples are in [-1, 1] (waves times scalings). Fused multiply-adds (the
            // levels above the baseline) move the single-precision sine by a few units in the
            // last place, 3.6e-7 at most here; 2e-6 (-114 dB) leaves room for other CPUs.
            #expect(worst <= 2e-6, "\(level): samples differ from the baseline's by up to \(worst)")
        }
        withExtendedLifetime(storage) {}
    }
}

/// The kernel's single-precision sine and sine scaling (polynomials, phases read from 24
/// bits of the fixed-point sum) against the double-precision formulas, at every level: the
/// levels agreeing with each other would not catch a polynomial gone wrong in all of them.
@Suite struct KernelSineAccuracy {
    @Test(arguments: [ScaleType.sine, .none])
    func sineAndSineScalingFollowTheFormulas(scale: ScaleType) {
        let shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 30), CurvePoint(time: 0.25, frequency: 9000)],
            duration: 0.25, minFrequency: 30, maxFrequency: 9000, wave: .sine, scale: scale,
            echoOffset: 0, echoVolume: 0, fidelity: 500)
        let storage = CurveStorage(shape: shape, sampleRate: 48000, id: 1)
        let block = 256
        let doubles = UnsafeMutablePointer<Double>.allocate(capacity: (VoiceScratch.arrays + 1) * block)
        let fixed = UnsafeMutablePointer<UInt64>.allocate(capacity: VoiceScratch.fixedArrays * block)
        let fractions = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
        let out = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer {
            doubles.deallocate()
            fixed.deallocate()
            fractions.deallocate()
            out.deallocate()
        }
        let ramp = doubles + VoiceScratch.arrays * block
        for k in 0..<block { ramp[k] = Double(k) }
        let scratch = VoiceScratch(base: doubles, fixed: fixed, fractions: fractions, stride: block, ramp: UnsafePointer(ramp))
        for level in KernelLevel.available {
            let plan = storage.plan.rendered(by: level)
            var voice = VoiceState.starting(at: 0, plan: plan, map: .identity)
            // The formulas' own integrator, fed the curve sample by sample.
            var integrator = voice.integrator
            var worst = 0.0
            var n = 0
            while n < 2 * plan.cycleLength {
                VoiceKernel.renderSingle(
                    plan: plan, voice: &voice, count: block, map: .identity,
                    mapStep: FrequencyMap(offset: 0, slope: 0), scratch: scratch, out: out)
                for k in 0..<block {
                    let index = (n + k) % plan.cycleLength
                    let v = clampFrequency(plan.curveValue(at: index), nyquist: plan.nyquist)
                    let phase = integrator.advance(v, halfSamplePeriod: plan.halfSamplePeriod)
                    let u = Double(index) * plan.cycleFractionPerSample
                    let want = UnitWave.naive(.sine, phase) * AmplitudeScaling.value(scale, at: u)
                    worst = max(worst, abs(Double(out[k]) - want))
                }
                n += block
            }
            print("sine, \(scale.rawValue) scaling, \(level): largest difference from the formulas \(worst)")
            // The sine polynomial 6e-7, the phase's 24 bits 3.7e-7, the arch 2e-7, roundings.
            #expect(worst < 2e-6, "\(level), \(scale.rawValue) scaling: \(worst) from the double-precision formulas")
        }
        withExtendedLifetime(storage) {}
    }
}

/// One level's rendering of a plan through `VoiceKernel`, as the engine calls it: passes of
/// irregular lengths, pairs and single voices, steady and ramping ranges.
struct LevelRun {
    var output: [Float] = []
    var states: [VoiceState] = []

    init(plan: RenderPlan) {
        let block = 512
        let doubles = UnsafeMutablePointer<Double>.allocate(capacity: (VoiceScratch.arrays + 1) * block)
        let fixed = UnsafeMutablePointer<UInt64>.allocate(capacity: VoiceScratch.fixedArrays * block)
        let fractions = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
        let outs = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
        defer {
            doubles.deallocate()
            fixed.deallocate()
            fractions.deallocate()
            outs.deallocate()
        }
        let ramp = doubles + VoiceScratch.arrays * block
        for k in 0..<block { ramp[k] = Double(k) }
        let scratch = VoiceScratch(base: doubles, fixed: fixed, fractions: fractions, stride: block, ramp: UnsafePointer(ramp))
        let map = FrequencyMap.identity
        var main = VoiceState.starting(at: 0, plan: plan, map: map)
        var echo = VoiceState.starting(at: plan.echoOffset, phase: 0.3, plan: plan, map: map)
        let sizes = [1, 7, 64, 256, 512, 3, 128, 500, 33]
        var done = 0
        var pass = 0
        // Up to a second and a half, through the cycle's end for the short cycles.
        while done < 72_000 {
            let count = sizes[pass % sizes.count]
            // Every third pass ramps the range (a steady one otherwise).
            let step = pass % 3 == 2 ? FrequencyMap(offset: 0.01, slope: 1e-5) : FrequencyMap(offset: 0, slope: 0)
            let passMap = FrequencyMap(offset: Double(pass % 5), slope: 1 + 0.001 * Double(pass % 7))
            if pass % 4 == 3 {
                VoiceKernel.renderSingle(plan: plan, voice: &main, count: count, map: passMap, mapStep: step, scratch: scratch, out: outs)
                output += UnsafeBufferPointer(start: outs, count: count)
            } else {
                VoiceKernel.renderPair(
                    plan: plan, main: &main, echo: &echo, count: count, map: passMap, mapStep: step,
                    scratch: scratch, mainOut: outs, echoOut: outs + block)
                output += UnsafeBufferPointer(start: outs, count: count)
                output += UnsafeBufferPointer(start: outs + block, count: count)
            }
            states += [main, echo]
            done += count
            pass += 1
        }
    }
}
