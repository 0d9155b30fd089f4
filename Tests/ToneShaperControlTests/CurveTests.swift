import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

@Suite struct CurveInterpolation {
    /// SPEC 7: points (1, 6.3), (3, 11.1), (7, 2.1) over 15 samples.
    let expected = [6.3, 6.3, 6.3, 7.5, 8.7, 9.9, 11.1, 9.975, 8.85, 7.725, 6.6, 5.475, 4.35, 3.225, 2.1]
    let points: [(x: Double, y: Double)] = [(1, 6.3), (3, 11.1), (7, 2.1)]
    func position(_ n: Int) -> Double { Double(n) * 7 / 14 }

    @Test func inOnePiece() {
        var cursor = PiecewiseLinearCursor(points: points)
        let values = (0..<15).map { cursor.value(at: position($0)) }
        for (a, b) in zip(values, expected) { #expect(abs(a - b) < 1e-12) }
    }

    @Test func inThreeRangesOfFive() {
        var values: [Double] = []
        for range in [0..<5, 5..<10, 10..<15] {
            var cursor = PiecewiseLinearCursor(points: points)
            values += range.map { cursor.value(at: position($0)) }
        }
        for (a, b) in zip(values, expected) { #expect(abs(a - b) < 1e-12) }
    }

    /// The same example on the engine's fidelity grid: with the points' own indices as
    /// the grid (N = 14 when times are doubled), the grid holds exactly these values.
    @Test func onTheFidelityGrid() {
        let grid = FrequencyCurve.grid(
            points: [
                CurvePoint(time: 2, frequency: 6.3), CurvePoint(time: 6, frequency: 11.1),
                CurvePoint(time: 14, frequency: 2.1),
            ], fidelity: 12)
        // Times 2...14 stretch over 0...12: indices 0, 4, 12.
        let want = [6.3, 7.5, 8.7, 9.9, 11.1, 9.975, 8.85, 7.725, 6.6, 5.475, 4.35, 3.225, 2.1]
        for (a, b) in zip(grid, want) { #expect(abs(a - b) < 1e-12) }
        #expect(grid.count == 14 && grid[13] == grid[12])
    }
}

@Suite struct FidelityGrid {
    @Test func firstAndLastPointsStretchOverTheCycle() {
        let grid = FrequencyCurve.grid(points: [CurvePoint(time: 0.2, frequency: 100), CurvePoint(time: 0.4, frequency: 300)], fidelity: 4)
        #expect(grid == [100, 150, 200, 250, 300, 300])
    }

    @Test func pointsOnOneIndexLastWins() {
        // N = 2 over times 0...1: 0.1 and 0.3 both floor to index 0; the later (50) wins.
        let grid = FrequencyCurve.grid(
            points: [
                CurvePoint(time: 0, frequency: 10), CurvePoint(time: 0.3, frequency: 50),
                CurvePoint(time: 1, frequency: 90),
            ], fidelity: 2)
        #expect(grid == [50, 70, 90, 90])
    }

    @Test func singlePointIsConstant() {
        #expect(FrequencyCurve.grid(points: [CurvePoint(time: 0.5, frequency: 440)], fidelity: 3) == [440, 440, 440, 440, 440])
    }

    @Test func lowFidelityCoarsensTheCurve() {
        // Fidelity 1: indices 0 and 1 only. The middle point floors to 0, after the first,
        // so it wins there (SPEC 3 step 1): the curve becomes a line from 900 to 200.
        let grid = FrequencyCurve.grid(
            points: [
                CurvePoint(time: 0, frequency: 100), CurvePoint(time: 0.5, frequency: 900),
                CurvePoint(time: 1, frequency: 200),
            ], fidelity: 1)
        #expect(grid == [900, 200, 200])
    }

    /// v[n] = u at n * N / (S - 1), checked against the formula, straight from SPEC 3.
    @Test func planSamplesTheGridAcrossTheCycle() {
        let shape = ToneShape(
            points: [
                CurvePoint(time: 0, frequency: 200), CurvePoint(time: 0.3, frequency: 800),
                CurvePoint(time: 1, frequency: 300),
            ], duration: 1, minFrequency: 200, maxFrequency: 800, fidelity: 7)
        let storage = CurveStorage(shape: shape, sampleRate: 1000, id: 1)
        let plan = storage.plan
        let u = FrequencyCurve.grid(points: shape.points, fidelity: 7)
        #expect(plan.cycleLength == 1000)
        for n in [0, 1, 2, 100, 333, 500, 998, 999] {
            let pos = Double(n) * 7 / 999
            let i = min(6, Int(pos))
            let want = u[i] + (u[i + 1] - u[i]) * (pos - Double(i))
            #expect(abs(plan.curveValue(at: n) - want) < 1e-9, "n = \(n)")
        }
        #expect(abs(plan.curveValue(at: 999) - 300) < 1e-9)
    }
}
