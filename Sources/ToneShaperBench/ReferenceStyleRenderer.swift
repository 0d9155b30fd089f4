import Foundation
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel

/// A straightforward renderer written the way the original app renders a buffer: a new
/// array of frequencies per buffer, the trapezoid rule over a copy of it, and a closure
/// call per sample for the wave and for the scaling, with libm's sin. It is the baseline
/// the engine's speed is measured against; it is never used to make sound.
struct ReferenceStyleRenderer {
    let grid: [Double]
    let cycleLength: Int
    let rate: Double
    let echoOffset: Int
    let echoVolume: Double
    let amplitude: Double
    let wave: (Double) -> Double
    let scale: (Double) -> Double
    var n = 0
    var lastX = 0.0, lastV = -1.0
    var echoLastX = 0.0, echoLastV = -1.0

    init(shape: ToneShape, rate: Double) {
        grid = FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity)
        cycleLength = max(1, Int(shape.duration * rate))
        self.rate = rate
        echoOffset = Int(shape.echoOffset * rate) % cycleLength
        echoVolume = shape.echoVolume
        amplitude = shape.amplitude
        switch shape.wave {
        case .sine: wave = { sin(2 * .pi * $0) }
        case .square: wave = { $0.truncatingRemainder(dividingBy: 1) < 0.5 ? 1 : -1 }
        case .sawtooth: wave = { 2 * $0.truncatingRemainder(dividingBy: 1) - 1 }
        default: wave = { sin(2 * .pi * $0) }
        }
        switch shape.scale {
        case .sine: scale = { abs(sin(.pi * $0)) }
        case .linear: scale = { 1 - $0 }
        default: scale = { _ in 1 }
        }
    }

    func frequency(at index: Int) -> Double {
        let position = Double(index) * Double(grid.count - 2) / Double(max(1, cycleLength - 1))
        let i = Int(position)
        return grid[i] + (grid[i + 1] - grid[i]) * (position - Double(i))
    }

    /// One buffer, as the app makes it: fresh arrays all the way.
    mutating func render(count: Int) -> [Float] {
        var v: [Double] = []
        var ve: [Double] = []
        for i in 0..<count {
            v.append(frequency(at: (n + i) % cycleLength))
            ve.append(frequency(at: (n + i + echoOffset) % cycleLength))
        }
        let x = integrate(Array(v), last: &lastX, lastV: &lastV)
        let xe = integrate(Array(ve), last: &echoLastX, lastV: &echoLastV)
        var out: [Float] = []
        for i in 0..<count {
            let u = Double((n + i) % cycleLength) / Double(cycleLength)
            let ue = Double((n + i + echoOffset) % cycleLength) / Double(cycleLength)
            let main = wave(x[i]) * scale(u)
            let echo = wave(xe[i]) * scale(ue)
            out.append(Float(amplitude * (main + echoVolume * echo) / 2))
        }
        n = (n + count) % cycleLength
        return out
    }

    private func integrate(_ v: [Double], last: inout Double, lastV: inout Double) -> [Double] {
        var x: [Double] = []
        var previous = lastV < 0 ? v[0] : lastV
        var sum = lastV < 0 ? -v[0] / rate : last
        for f in v {
            sum += (previous + f) / (2 * rate)
            x.append(sum)
            previous = f
        }
        last = sum
        lastV = previous
        return x
    }
}

/// ns per sample of the baseline, median over runs.
func measureReference(_ shape: ToneShape, frames: Int, runs: Int, period: Int = 256) -> Double {
    var renderer = ReferenceStyleRenderer(shape: shape, rate: 48000)
    return nanosecondsPerSample(frames: frames, runs: runs, period: period) { renderer.render(count: period)[0] }
}
