import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// One measured case: ns per output sample, median over runs.
struct KernelCase {
    let name: String
    let shape: ToneShape
    var goal: Double?  // ns per sample, when the issue sets one

    /// Renders `frames` frames per run in JACK-sized periods and returns the median ns/sample.
    func measure(frames: Int, runs: Int, period: Int = 256) -> Double {
        let controller = EngineController(shape: shape, sampleRate: 48000)
        var engine = controller.makeEngine(rampLength: period)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: period)
        defer { buffer.deallocate() }
        return nanosecondsPerSample(frames: frames, runs: runs, period: period) {
            engine.render(into: buffer, count: period)
            return buffer[0]
        }
    }

    /// The median ns/sample of the kernel compiled for each level in `levels`, measured side by
    /// side: engines built beforehand (as `EngineController.makeEngine` builds them, but each
    /// plan rendered by its level), one run of each level in turn, so that a shared machine's
    /// load falls on every level alike.
    func measureLevels(_ levels: [KernelLevel], frames: Int, runs: Int, period: Int = 256) -> [Double] {
        let storage = CurveStorage(shape: shape, sampleRate: 48000, id: 1)
        let engines = levels.map { level in
            EngineBox(
                ToneEngine(
                    plan: storage.plan.rendered(by: level), minFrequency: shape.minFrequency, maxFrequency: shape.maxFrequency,
                    amplitude: shape.amplitude, echoVolume: shape.echoVolume, rampLength: period))
        }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: period)
        defer { buffer.deallocate() }
        var times = [[Double]](repeating: [], count: levels.count)
        for run in 0...runs {
            for k in levels.indices {
                let ns = nanosecondsPerSample(frames: frames, runs: 1, period: period) {
                    engines[k].engine.render(into: buffer, count: period)
                    return buffer[0]
                }
                if run > 0 { times[k].append(ns) }
            }
        }
        withExtendedLifetime(storage) {}
        return times.map(median)
    }
}

/// Holds an engine (`~Copyable`, so no array can) for a list of them.
final class EngineBox {
    var engine: ToneEngine
    init(_ engine: consuming ToneEngine) { self.engine = engine }
}

/// Two shapes measured as `KernelCase.measure` does, but alternating one run of each, with
/// both engines built beforehand: the median ns per sample of each.
func measureSideBySide(_ a: ToneShape, _ b: ToneShape, frames: Int, runs: Int, period: Int = 256) -> (Double, Double) {
    let controllers = [EngineController(shape: a, sampleRate: 48000), EngineController(shape: b, sampleRate: 48000)]
    var first = controllers[0].makeEngine(rampLength: period)
    var second = controllers[1].makeEngine(rampLength: period)
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: period)
    defer { buffer.deallocate() }
    var times: [[Double]] = [[], []]
    for run in 0...runs {
        for k in 0..<2 {
            let ns = nanosecondsPerSample(frames: frames, runs: 1, period: period) {
                if k == 0 { first.render(into: buffer, count: period) } else { second.render(into: buffer, count: period) }
                return buffer[0]
            }
            if run > 0 { times[k].append(ns) }
        }
    }
    withExtendedLifetime(controllers) {}
    return (median(times[0]), median(times[1]))
}

/// Times `renderPeriod` (which makes `period` samples) over `frames` frames, after one
/// warm-up run, and returns the median ns per sample over `runs` runs.
func nanosecondsPerSample(frames: Int, runs: Int, period: Int, _ renderPeriod: () -> Float) -> Double {
    var sink: Float = 0
    var times: [Double] = []
    for run in 0...runs {
        let start = ContinuousClock.now
        var done = 0
        while done < frames {
            sink += renderPeriod()
            done += period
        }
        if run > 0 { times.append((ContinuousClock.now - start).nanoseconds / Double(done)) }
    }
    blackHole(sink)
    return median(times)
}

@inline(never) func blackHole<T>(_ x: T) { _ = x }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
}

extension Duration {
    var nanoseconds: Double {
        let (s, a) = components
        return Double(s) * 1e9 + Double(a) / 1e9
    }
}

/// A steady or swept tone shape for the kernel cases.
func benchShape(
    _ wave: WaveType, from f0: Double, to f1: Double, scale: ScaleType = .sine, echo: Bool = true,
    terms: FourierTerms = .default, duration: Double = 10
) -> ToneShape {
    ToneShape(
        points: [CurvePoint(time: 0, frequency: f0), CurvePoint(time: duration, frequency: f1)], duration: duration,
        minFrequency: min(f0, f1), maxFrequency: max(f0, f1), wave: wave, scale: scale,
        echoOffset: echo ? duration / 3 : 0, echoVolume: echo ? 0.5 : 0, fidelity: 500, fourierTerms: terms)
}

func withFidelity(_ shape: ToneShape, _ fidelity: Int) -> ToneShape {
    var s = shape
    s.fidelity = fidelity
    return s
}

let kernelCases: [KernelCase] =
    [
        KernelCase(name: "sine, echo, sine scaling", shape: benchShape(.sine, from: 30, to: 440), goal: 3),
        KernelCase(name: "sine alone (the 600 s sweep's settings)", shape: benchShape(.sine, from: 30, to: 440, scale: .none, echo: false)),
        KernelCase(name: "the default document (run plays it)", shape: .defaultShape),
        // Stage A takes one of three ways by how long a grid cell lasts (see VoiceKernel.frequencies):
        // the first case's cells last 960 samples; these the other two ways.
        KernelCase(name: "sine, echo, sine scaling; cells of 20 samples", shape: withFidelity(benchShape(.sine, from: 30, to: 440), 24_000)),
        KernelCase(name: "sine, echo, sine scaling; cells of 8 samples", shape: withFidelity(benchShape(.sine, from: 30, to: 440), 60_000)),
        KernelCase(name: "same, cells of 8 samples, 100 s cycle", shape: withFidelity(benchShape(.sine, from: 30, to: 440, duration: 100), 600_000)),
        KernelCase(name: "square (anti-aliased)", shape: benchShape(.square, from: 30, to: 440), goal: 5),
        KernelCase(name: "triangle (anti-aliased)", shape: benchShape(.triangle, from: 30, to: 440), goal: 5),
        KernelCase(name: "sawtooth (anti-aliased)", shape: benchShape(.sawtooth, from: 30, to: 440), goal: 5),
    ]
    + [20.0, 200, 2000, 20000].flatMap { f in
        [WaveType.squareFourier, .triangleFourier, .sawtoothFourier].map { w in
            KernelCase(name: "\(w.rawValue), nyquist terms, \(Int(f)) Hz", shape: benchShape(w, from: f, to: f, terms: .nyquist), goal: 20)
        }
    }

/// The Fourier tables' worst cases: a sweep over the whole range, and a curve that jumps
/// between 20 Hz and 20 kHz every few samples, so that almost every chunk of the kernel
/// straddles a level boundary and chooses its table sample by sample.
let fourierStressCases: [KernelCase] = {
    var jumping = benchShape(.sawtoothFourier, from: 20, to: 20000, terms: .nyquist)
    jumping.points = (0..<100_000).map { i in CurvePoint(time: 10 * Double(i) / 99_999, frequency: i % 2 == 0 ? 20 : 20000) }
    jumping.fidelity = 100_000
    return [
        KernelCase(name: "Sawtooth Fourier, nyquist, sweep 20 Hz-20 kHz", shape: benchShape(.sawtoothFourier, from: 20, to: 20000, terms: .nyquist)),
        KernelCase(
            name: "Sawtooth Fourier, 40 terms, sweep 20 Hz-20 kHz", shape: benchShape(.sawtoothFourier, from: 20, to: 20000, terms: .count(40))),
        KernelCase(name: "Sawtooth Fourier, nyquist, jumping 20 Hz/20 kHz", shape: jumping),
    ]
}()

struct IndependencePair {
    let title: String
    let a: KernelCase
    let b: KernelCase
}

/// Shapes that differ only in what must not change the cost: points, fidelity, duration.
let independencePairs: [IndependencePair] = {
    func points(_ count: Int) -> ToneShape {
        var s = benchShape(.sine, from: 100, to: 1000)
        s.points = (0..<count).map { i in
            CurvePoint(time: 10 * Double(i) / Double(count - 1), frequency: 100 + 900 * Double((i * 7919) % 1000) / 1000)
        }
        return s
    }
    func fidelity(_ n: Int) -> ToneShape {
        var s = points(1000)
        s.fidelity = n
        return s
    }
    func duration(_ d: Double) -> ToneShape {
        var s = benchShape(.sine, from: 100, to: 1000, duration: d)
        s.echoOffset = d / 3
        return s
    }
    return [
        IndependencePair(
            title: "points: 2 vs 100000", a: KernelCase(name: "2 points", shape: points(2)),
            b: KernelCase(name: "100000 points", shape: points(100_000))),
        IndependencePair(
            title: "fidelity: 1 vs 1000000", a: KernelCase(name: "fidelity 1", shape: fidelity(1)),
            b: KernelCase(name: "fidelity 1000000", shape: fidelity(1_000_000))),
        IndependencePair(
            title: "duration: 0.01 s vs 3600 s", a: KernelCase(name: "0.01 s", shape: duration(0.01)),
            b: KernelCase(name: "3600 s", shape: duration(3600))),
    ]
}()
