import Foundation
import ToneShaperCore

// The engine's speed, measured (never asserted): ns per output sample at 48 kHz on one
// core, median of several runs. Usage: ToneShaperBench [filter]; BENCH_FRAMES sets the length.
// Many short runs rather than a few long ones: this machine's neighbours come and go in
// bursts, and a median over many short runs sees through them.
let frames = Int(ProcessInfo.processInfo.environment["BENCH_FRAMES"] ?? "") ?? 96_000
let runs = Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? "") ?? 31
let filter = CommandLine.arguments.dropFirst().first

func row(_ name: String, _ value: String, _ note: String = "") {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0), value.padding(toLength: 12, withPad: " ", startingAt: 0), note)
}

func selected(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

// Half a second of work first, untimed: the first milliseconds of a process run slower
// (the CPU's clock rising, memory being mapped in), and would fall on the first case.
_ = kernelCases[0].measure(frames: 2_400_000, runs: 3)

print("# kernel cost, ns per output sample (median of \(runs) runs of \(frames) frames, periods of 256)")
for c in kernelCases where selected(c.name) {
    let ns = c.measure(frames: frames, runs: runs)
    row(c.name, String(format: "%.2f", ns), c.goal.map { ns <= $0 ? "goal <= \($0): met" : "goal <= \($0): missed" } ?? "")
}

if selected("Fourier") {
    print("\n# Fourier waves: worst cases (no goal)")
    for c in fourierStressCases { row(c.name, String(format: "%.2f", c.measure(frames: frames, runs: runs))) }
    print("\n# band-limited tables (built once per process, on first use)")
    for wave in [WaveType.squareFourier, .triangleFourier, .sawtoothFourier] {
        let tables = FourierWavetables.shared(for: wave)
        row("\(wave.rawValue) tables", String(format: "%.1f ms", tables.buildSeconds * 1000),
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
    row("a period with \(RealtimeRenderer.maximumMIDIEvents) note-ons, 64 voices", String(format: "%.1f us", flood),
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
    var te: [Double] = [], tr: [Double] = []
    for _ in 0..<runs {
        te.append(kernelCases[0].measure(frames: frames, runs: 1))
        tr.append(measureReference(shape, frames: frames, runs: 1))
    }
    let engine = median(te), reference = median(tr)
    row("baseline (sine, echo, sine scaling)", String(format: "%.2f", reference), String(format: "engine %.2f: %.1fx faster", engine, reference / engine))
}
