import Foundation
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperParameters

// The engine's speed, measured (never asserted): ns per output sample at 48 kHz on one
// core, median of several runs. Usage: ToneShaperBench [filter]; BENCH_FRAMES sets the length.
// Many short runs rather than a few long ones: this machine's neighbours come and go in
// bursts, and a median over many short runs sees through them.
let frames = Int(ProcessInfo.processInfo.environment["BENCH_FRAMES"] ?? "") ?? 96_000
let runs = Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? "") ?? 31
let filter = CommandLine.arguments.dropFirst().first

// `ToneShaperBench first-fourier-change MODE`: in this fresh process, how long the controller
// takes to accept a first change to a Fourier wave (ms), then an ordinary change for scale.
// MODE: `on-demand` (tables built by that change, as before), `prepared` (built in the
// background from start-up, the change coming 300 ms later, as a user's first message
// would), `immediately` (the change at once, racing the background build).
if filter == "first-fourier-change" {
    let mode = CommandLine.arguments.dropFirst(2).first ?? "prepared"
    if mode != "on-demand" { FourierWavetables.prepareInBackground() }
    let controller = EngineController(shape: .defaultShape, sampleRate: 48000)
    // An audio side, so that changes build plans as in a live node.
    var renderer = controller.makeRenderer(rampLength: 256)
    if mode == "prepared" { Thread.sleep(forTimeInterval: 0.3) }
    func timed(_ change: () throws -> Void) -> Double {
        let start = ContinuousClock.now
        try! change()
        return (ContinuousClock.now - start).nanoseconds / 1e6
    }
    let first = timed { try controller.set(.wave, to: .text("Sawtooth Fourier")) }
    // Let the engine take the plan and hand the old one back, as the audio thread would.
    func drain() {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { buffer.deallocate() }
        let clock = PeriodClock(startMicros: 0, microsPerFrame: 1_000_000 / 48_000)
        for _ in 0..<64 { renderer.renderPeriod(into: buffer, frames: 256, clock: clock) }
        controller.collectHandback()
    }
    drain()
    let ordinary = timed { try controller.set(.wave, to: .text("Square")) }
    print(String(format: "%.3f %.3f", first, ordinary))
    exit(0)
}

// `ToneShaperBench plugin-compare DOCUMENT BLOCK [VOICES]`: the node's engine timed as the
// C host times the LV2 plugin's run() (PluginCompare.swift; `bash Scripts/bench.sh plugin`).
if filter == "plugin-compare" {
    try pluginCompare(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

// `ToneShaperBench json`: documents read and written by ToneShaperJSON and by Foundation's JSONSerialization.
if filter == "json" {
    jsonBenchmark()
    exit(0)
}

func row(_ name: String, _ value: String, _ note: String = "") {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0), value.padding(toLength: 12, withPad: " ", startingAt: 0), note)
}

/// The levels to measure: every level this CPU runs (BENCH_LEVELS=v3,v4 picks some).
let levels: [KernelLevel] = {
    guard let names = ProcessInfo.processInfo.environment["BENCH_LEVELS"] else { return KernelLevel.available }
    return names.split(separator: ",").compactMap { KernelLevel(rawValue: String($0)) }.filter(KernelLevel.available.contains)
}()

/// BENCH_EXACT=1: the filter is a whole case name (for counting one case's instructions).
let exactFilter = ProcessInfo.processInfo.environment["BENCH_EXACT"] == "1"
func selected(_ name: String) -> Bool { filter.map { exactFilter ? name == $0 : name.contains($0) } ?? true }

// Half a second of work first, untimed: the first milliseconds of a process run slower
// (the CPU's clock rising, memory being mapped in), and would fall on the first case.
// (BENCH_WARMUP=0 skips it, for instruction counts under callgrind.)
if ProcessInfo.processInfo.environment["BENCH_WARMUP"] != "0" { _ = kernelCases[0].measure(frames: 2_400_000, runs: 3) }

print("processor: \(KernelLevel.processorName); levels it runs: \(KernelLevel.available.map(\.rawValue).joined(separator: ", "))")
print("kernel level chosen: \(KernelLevel.selectionNote)")
print("\n# kernel cost per level, ns per output sample (median of \(runs) runs of \(frames) frames, periods of 256,")
print("# levels measured side by side, run by run; the goal applies to the chosen level, \(KernelLevel.selected))")
print(
    "case".padding(toLength: 48, withPad: " ", startingAt: 0),
    levels.map { $0.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined(), "goal")
for c in kernelCases where selected(c.name) {
    let figures = c.measureLevels(levels, frames: frames, runs: runs)
    let chosen = levels.firstIndex(of: KernelLevel.selected).map { figures[$0] }
    let goal = c.goal.map { goal in chosen.map { $0 <= goal ? "<= \(goal): met" : "<= \(goal): missed" } ?? "<= \(goal)" } ?? ""
    print(
        c.name.padding(toLength: 48, withPad: " ", startingAt: 0),
        figures.map { String(format: "%-9.2f", $0) }.joined(), goal)
}

if selected("Fourier") {
    print("\n# Fourier waves: worst cases (no goal)")
    for c in fourierStressCases { row(c.name, String(format: "%.2f", c.measure(frames: frames, runs: runs))) }
    print("\n# band-limited tables (built once per process, on first use; timed here: a set of its own)")
    for wave in [WaveType.squareFourier, .triangleFourier, .sawtoothFourier] {
        let start = ContinuousClock.now
        let tables = FourierWavetables(wave: wave)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        row(
            "\(wave.rawValue) tables", String(format: "%.1f ms", seconds * 1000),
            "\(tables.tops.count) levels, \(String(format: "%.2f", Double(tables.bytes) / 1_000_000)) MB")
    }
}

if selected("voices") {
    print("\n# instrument mode: ns per output sample per voice, notes held, 64-frame periods (sine, echo, sine scaling)")
    let drone = KernelCase(name: "", shape: benchShape(.sine, from: 30, to: 440)).measure(frames: frames, runs: runs, period: 64)
    row("the drone, same shape and periods (for scale)", String(format: "%.2f", drone))
    for voices in [1, 4, 16, 64] {
        let ns = voicesNanoseconds(voices: voices, frames: frames, runs: runs)
        row("voices: \(voices) held", String(format: "%.2f", ns), voices >= 16 ? (ns <= 3 ? "goal <= 3: met" : "goal <= 3: missed") : "")
    }
    let flood = midiFloodMicroseconds(runs: runs)
    row(
        "a period with \(RealtimeRenderer.maximumMIDIEvents) note-ons, 64 voices", String(format: "%.1f us", flood),
        String(format: "%.1f%% of a 64-frame period", flood / 13.333))
}

print("\n# cost independent of the document (pairs should agree within 10%)")
for pair in independencePairs where selected(pair.title) {
    // Both engines side by side, alternating run by run, so that load on a shared machine
    // hits both alike.
    let (a, b) = measureSideBySide(pair.a.shape, pair.b.shape, frames: frames, runs: runs)
    row(pair.title, String(format: "%.2f / %.2f", a, b), String(format: "ratio %.2f", max(a, b) / min(a, b)))
}

if selected("baseline") {
    print("\n# against a straightforward renderer written the way the original app renders")
    let shape = benchShape(.sine, from: 30, to: 440)
    var te: [Double] = []
    var tr: [Double] = []
    for _ in 0..<runs {
        te.append(kernelCases[0].measure(frames: frames, runs: 1))
        tr.append(measureReference(shape, frames: frames, runs: 1))
    }
    let engine = median(te)
    let reference = median(tr)
    row(
        "baseline (sine, echo, sine scaling)", String(format: "%.2f", reference),
        String(format: "engine %.2f: %.1fx faster", engine, reference / engine))
}
