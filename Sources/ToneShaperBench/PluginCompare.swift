import Foundation
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel

#if canImport(Glibc)
    import Glibc
#endif

/// `ToneShaperBench plugin-compare DOCUMENT BLOCK [VOICES] [--paced]`: the node's side of the LV2
/// plugin comparison (`bash Scripts/bench.sh plugin`). The document rendered by the node's
/// own path, `EngineController(shape:).makeRenderer()` and `renderPeriod` as the JACK
/// callback calls it (no MIDI, no transport, the clock advancing a period at a time), in
/// blocks of BLOCK frames at 48 kHz; with VOICES, instrument mode with that many voices and
/// as many notes held from the first frame (C2 upwards, as the C host's bench sends them).
/// Timed exactly as the C host's `--bench-runs` times the plugin's run(): one second
/// untimed, then BENCH_PLUGIN_RUNS blocks (default 20 s worth), clock_gettime(CLOCK_MONOTONIC)
/// around each call; the report has the same keys (`run_ns_per_sample_median:` ...).
/// `--paced` starts each call at its block's time, as the host's `--bench-paced` does.
func pluginCompare(_ allArguments: [String]) throws {
    let paced = allArguments.contains("--paced")
    let arguments = allArguments.filter { $0 != "--paced" }
    guard arguments.count >= 2, let block = Int(arguments[1]), block > 0 else {
        print("usage: ToneShaperBench plugin-compare DOCUMENT BLOCK [VOICES]")
        exit(3)
    }
    let path = arguments[0]
    let voices = arguments.count > 2 ? Int(arguments[2]) : nil
    let rate = 48000.0
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var shape = try ToneShapeDocument.decode([UInt8](data), source: path)
    if let voices {
        shape.performance.instrument = true
        shape.performance.voices = voices
    }
    let runs = Int(ProcessInfo.processInfo.environment["BENCH_PLUGIN_RUNS"] ?? "") ?? Int(20 * rate) / block
    let warmup = Int(rate)

    let controller = EngineController(shape: shape, sampleRate: rate)
    var renderer = controller.makeRenderer(rampLength: block)
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
    defer { buffer.deallocate() }
    var clock = PeriodClock(startMicros: 0, microsPerFrame: 1e6 / rate)
    let notes = (0..<(voices ?? 0)).map { MIDIEvent(frame: 0, size: 3, byte0: 0x90, byte1: UInt8(36 + $0), byte2: 100) }
    let none = UnsafeBufferPointer<MIDIEvent>(start: nil, count: 0)
    var times = [Int](repeating: 0, count: runs)
    var peak: Float = 0
    var done = 0
    var timed = 0
    var next = timespec()
    clock_gettime(CLOCK_MONOTONIC, &next)
    let blockNanoseconds = Int(Double(block) * 1e9 / rate)
    notes.withUnsafeBufferPointer { held in
        while timed < runs {
            if paced {
                clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil)
                next.tv_nsec += blockNanoseconds
                while next.tv_nsec >= 1_000_000_000 {
                    next.tv_nsec -= 1_000_000_000
                    next.tv_sec += 1
                }
            }
            let midi = done == 0 ? held : none
            if done < warmup {
                renderer.renderPeriod(into: buffer, frames: block, clock: clock, midi: midi, transport: nil)
            } else {
                let t0 = monotonicNanoseconds()
                renderer.renderPeriod(into: buffer, frames: block, clock: clock, midi: midi, transport: nil)
                times[timed] = monotonicNanoseconds() - t0
                timed += 1
            }
            for i in 0..<block { peak = max(peak, abs(buffer[i])) }
            done += block
            clock.startMicros += Double(block) * clock.microsPerFrame
            // The plans the renderer hands back, taken as the node's control side does.
            if done % (block * 64) == 0 { controller.collectHandback() }
        }
    }
    if let voices { precondition(renderer.performer.soundingCount == voices, "every note is held") }
    print("kernel_level: \(KernelLevel.selected.rawValue)")
    print("peak: \(peak)")
    printRunReport(times, block: block, rate: rate)
}

func monotonicNanoseconds() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1_000_000_000 + t.tv_nsec
}

/// The C host's `--bench-runs` report (lv2host.c, `bench_report`), for calls of `block` frames.
func printRunReport(_ times: [Int], block: Int, rate: Double) {
    let sorted = times.sorted()
    let count = sorted.count
    func quantile(_ p: Double) -> Double { Double(sorted[max(0, Int((p * Double(count)).rounded(.up)) - 1)]) / 1000 }
    let perSample = median(sorted.map { Double($0) / Double(block) })
    let mean = Double(sorted.reduce(0, +)) / Double(count * block)
    print("run_count: \(count)")
    print(String(format: "run_ns_per_sample_median: %.4f", perSample))
    print(String(format: "run_ns_per_sample_mean: %.4f", mean))
    print(String(format: "run_p50_us: %.3f", quantile(0.5)))
    print(String(format: "run_p99_us: %.3f", quantile(0.99)))
    print(String(format: "run_p999_us: %.3f", quantile(0.999)))
    print(String(format: "run_max_us: %.3f", Double(sorted[count - 1]) / 1000))
    print(String(format: "run_period_us: %.3f", Double(block) * 1e6 / rate))
}
