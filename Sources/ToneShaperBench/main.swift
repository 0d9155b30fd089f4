import Foundation
import ToneShaperCore

let frames = Int(ProcessInfo.processInfo.environment["BENCH_FRAMES"] ?? "") ?? 480_000
print("case".padding(toLength: 44, withPad: " ", startingAt: 0), "ns/sample", "goal")
let filter = CommandLine.arguments.dropFirst().first
for c in kernelCases where filter.map({ c.name.contains($0) }) ?? true {
    let ns = c.measure(frames: frames, runs: 5)
    let goal = c.goal.map { ns <= $0 ? "<= \($0) ok" : "<= \($0) MISSED" } ?? ""
    print(c.name.padding(toLength: 44, withPad: " ", startingAt: 0), String(format: "%8.2f", ns), goal)
}
