import Foundation
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// A tone shape drawn as SVG, in three panels that share the cycle's time axis where they
/// can: the frequency v(t) the engine plays (the curve on its fidelity grid, with the drawn
/// points), the amplitude over the cycle (scaling times gain, with the echo's), and a few
/// waves of the output itself, rendered by the engine.
struct ShapePlot {
    let shape: ToneShape
    let name: String
    var sampleRate = 48_000.0

    static let width = 820.0
    static let panelHeight = 190.0
    static let left = 70.0, right = 20.0, top = 60.0, gap = 56.0

    func svg() -> String {
        var svg = SVGCanvas(width: ShapePlot.width, height: ShapePlot.top + 3 * ShapePlot.panelHeight + 3 * ShapePlot.gap)
        svg.text(
            ShapePlot.left, 24, "\(name): \(shape.wave.rawValue), \(plain(shape.duration)) s cycle, fidelity \(shape.fidelity)", size: 14,
            weight: "bold")
        frequencyPanel(&svg, y: ShapePlot.top)
        amplitudePanel(&svg, y: ShapePlot.top + ShapePlot.panelHeight + ShapePlot.gap)
        wavePanel(&svg, y: ShapePlot.top + 2 * (ShapePlot.panelHeight + ShapePlot.gap))
        return svg.finished()
    }

    private var plotWidth: Double { ShapePlot.width - ShapePlot.left - ShapePlot.right }

    /// v(t): the grid of `fidelity` cells the engine interpolates (SPEC 3), across the cycle.
    private func frequencyPanel(_ svg: inout SVGCanvas, y: Double) {
        let grid = FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity)
        let n = shape.fidelity
        var lo = min(shape.minFrequency, grid.min() ?? 0)
        var hi = max(shape.maxFrequency, grid.max() ?? 1)
        if hi <= lo {
            lo -= 1
            hi += 1
        }
        let frame = PanelFrame(
            x: ShapePlot.left, y: y, width: plotWidth, height: ShapePlot.panelHeight,
            xRange: 0...shape.duration, yRange: lo...hi)
        svg.axes(frame, title: "frequency v(t), Hz", xUnit: "s")
        // Cell boundaries, when there are few enough to see.
        if n <= 64 {
            for i in 0...n {
                svg.line(
                    frame.x(Double(i) / Double(n) * shape.duration), frame.y(lo), frame.x(Double(i) / Double(n) * shape.duration), frame.y(hi),
                    stroke: "#ddd", width: 0.6)
            }
        }
        let step = max(1, n / 800)
        let vertices = stride(from: 0, through: n, by: step).map { i in (frame.x(Double(i) / Double(n) * shape.duration), frame.y(grid[i])) }
        svg.polyline(vertices, stroke: "#1976d2", width: 1.8)
        if n <= 64 { for (x, y) in vertices { svg.circle(x, y, r: 2.2, fill: "#1976d2") } }
        if shape.points.count <= 200 {
            for p in shape.points { svg.circle(frame.x(p.time), frame.y(p.frequency), r: 3.5, fill: "none", stroke: "#f57c00") }
        }
        svg.text(
            frame.x(shape.duration) - 4, y + 14, "line: the grid played (fidelity \(n)); circles: the drawn points", anchor: "end", size: 11,
            fill: "#555")
    }

    /// The gain over the cycle: scaling(u) × amplitude, and the echo voice's, offset.
    private func amplitudePanel(_ svg: inout SVGCanvas, y: Double) {
        let frame = PanelFrame(
            x: ShapePlot.left, y: y, width: plotWidth, height: ShapePlot.panelHeight,
            xRange: 0...shape.duration, yRange: 0...max(shape.amplitude, 1e-6))
        svg.axes(frame, title: "amplitude: \(shape.scale.rawValue) scaling × \(plain(shape.amplitude))", xUnit: "s")
        let count = 400
        func curve(offset: Double, gain: Double) -> [(Double, Double)] {
            (0...count).map { i in
                let t = Double(i) / Double(count) * shape.duration
                var u = (t + offset) / shape.duration
                u -= u.rounded(.down)
                return (frame.x(t), frame.y(shape.amplitude * gain * AmplitudeScaling.value(shape.scale, at: min(u, 0.999_999))))
            }
        }
        if shape.echoOffset > 0 && shape.echoVolume > 0 {
            svg.polyline(curve(offset: shape.echoOffset, gain: shape.echoVolume), stroke: "#9e9e9e", width: 1.2, dash: "4 3")
            svg.text(
                frame.x(shape.duration) - 4, y + 14, "dashed: the echo voice (\(plain(shape.echoOffset)) s ahead, × \(plain(shape.echoVolume)))",
                anchor: "end", size: 11, fill: "#555")
        }
        svg.polyline(curve(offset: 0, gain: 1), stroke: "#388e3c", width: 1.8)
    }

    /// A few waves of the output where the scaling is loudest, rendered by the engine.
    private func wavePanel(_ svg: inout SVGCanvas, y: Double) {
        // Where in the cycle the scaling peaks (not past ten million frames into it).
        let peakU =
            (0..<200).map { Double($0) / 200 }.max { AmplitudeScaling.value(shape.scale, at: $0) < AmplitudeScaling.value(shape.scale, at: $1) } ?? 0
        let at = min(peakU * shape.duration, 10_000_000 / sampleRate)
        let grid = FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity)
        let frequency = max(1, grid[min(shape.fidelity, Int(at / shape.duration * Double(shape.fidelity)))])
        let window = max(32, min(Int(sampleRate / 4), Int(4 * sampleRate / frequency)))
        let start = Int(at * sampleRate)
        let samples = Array(OfflineRenderer.render(shape, sampleRate: sampleRate, frames: start + window).suffix(window))
        let peak = max(Double(samples.map { abs($0) }.max() ?? 0), shape.amplitude, 1e-6)
        let frame = PanelFrame(
            x: ShapePlot.left, y: y, width: plotWidth, height: ShapePlot.panelHeight,
            xRange: 0...(Double(window) / sampleRate * 1000), yRange: -peak...peak)
        svg.axes(
            frame,
            title: "output: \(window) samples from t = \(plain(Double(start) / sampleRate)) s (about \(plain((frequency * 10).rounded() / 10)) Hz)",
            xUnit: "ms")
        let step = max(1, window / 800)
        let vertices = stride(from: 0, to: window, by: step).map { i in (frame.x(Double(i) / sampleRate * 1000), frame.y(Double(samples[i]))) }
        svg.polyline(vertices, stroke: "#6a1b9a", width: 1.4)
    }

    private func plain(_ d: Double) -> String { ParameterKind.plain((d * 1000).rounded() / 1000) }
}

/// A panel's placement and the values it maps to it.
struct PanelFrame {
    let x: Double, y: Double, width: Double, height: Double
    let xRange: ClosedRange<Double>, yRange: ClosedRange<Double>

    func x(_ v: Double) -> Double { x + (v - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound) * width }
    func y(_ v: Double) -> Double { y + height - (v - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound) * height }
}

/// Just enough SVG: lines, polylines, circles, text, and framed axes with ticks.
struct SVGCanvas {
    private var body: [String] = []
    let width: Double, height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1) {
        body.append("<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(f(width))\"/>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double, dash: String? = nil) {
        let list = points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
        body.append(
            "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(f(width))\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") points=\"\(list)\"/>"
        )
    }

    mutating func circle(_ x: Double, _ y: Double, r: Double, fill: String, stroke: String? = nil) {
        body.append(
            "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(r))\" fill=\"\(fill)\"\(stroke.map { " stroke=\"\($0)\" stroke-width=\"1.5\"" } ?? "")/>")
    }

    mutating func text(
        _ x: Double, _ y: Double, _ text: String, anchor: String = "start", size: Double = 11, weight: String = "normal", fill: String = "#222"
    ) {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
        body.append(
            "<text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\" font-size=\"\(f(size))\" font-weight=\"\(weight)\" fill=\"\(fill)\">\(escaped)</text>"
        )
    }

    /// A frame with ticks on both axes, the title above it and the x unit after the ticks.
    mutating func axes(_ frame: PanelFrame, title: String, xUnit: String) {
        body.append(
            "<rect x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(frame.width))\" height=\"\(f(frame.height))\" fill=\"#fafafa\" stroke=\"#999\"/>"
        )
        text(frame.x, frame.y - 8, title, size: 12, weight: "bold")
        for v in SVGCanvas.ticks(frame.yRange, count: 5) {
            line(frame.x - 4, frame.y(v), frame.x, frame.y(v), stroke: "#999")
            line(frame.x, frame.y(v), frame.x + frame.width, frame.y(v), stroke: "#eee", width: 0.6)
            text(frame.x - 7, frame.y(v) + 4, SVGCanvas.label(v), anchor: "end", size: 10, fill: "#555")
        }
        for v in SVGCanvas.ticks(frame.xRange, count: 8) {
            line(frame.x(v), frame.y + frame.height, frame.x(v), frame.y + frame.height + 4, stroke: "#999")
            text(frame.x(v), frame.y + frame.height + 16, SVGCanvas.label(v), anchor: "middle", size: 10, fill: "#555")
        }
        text(frame.x + frame.width, frame.y + frame.height + 30, xUnit, anchor: "end", size: 10, fill: "#555")
    }

    static func ticks(_ range: ClosedRange<Double>, count: Int) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let raw = span / Double(count)
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var ticks: [Double] = []
        var v = (range.lowerBound / step).rounded(.up) * step
        while v <= range.upperBound + step * 1e-9 {
            ticks.append(v)
            v += step
        }
        return ticks
    }

    static func label(_ v: Double) -> String {
        let rounded = (v * 1e6).rounded() / 1e6
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    private func f(_ v: Double) -> String { String((v * 100).rounded() / 100) }

    func finished() -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" font-family=\"sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + body.joined(separator: "\n") + "\n</svg>\n"
    }
}
