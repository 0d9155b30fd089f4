import Testing
import ToneShaperModel
import ToneShaperParameters

@Suite struct ShapeThumbnailTests {
    let rising = ToneShape(
        points: [CurvePoint(time: 1, frequency: 200), CurvePoint(time: 3, frequency: 800)], duration: 4, minFrequency: 200,
        maxFrequency: 800)

    @Test func theOutlineIsTheCurveAsPlayedInAUnitSquare() {
        let outline = ShapeThumbnail.outline(rising, columns: 8)
        #expect(outline.count == 9, "8 columns, the points' times among them")
        #expect(outline.first! == (0, 0) && outline.last! == (1, 1), "held before the first point and after the last")
        // Halfway in time, 500 Hz: on the logarithmic scale of 200...800 Hz, log2(2.5) / 2.
        let middle = outline[4]
        #expect(middle.x == 0.5 && abs(middle.y - ParameterSpec.log2(2.5) / 2) < 1e-12)
        #expect(zip(outline, outline.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    @Test func aBentSegmentIsDrawnBent() {
        var bent = rising
        bent.curvatures = [0.5]
        // Progress 1/4 at the segment's middle: 200 + 600 / 4 = 350 Hz.
        #expect(abs(ShapeThumbnail.frequency(of: bent, at: 2) - 350) < 1e-9)
        #expect(ShapeThumbnail.frequency(of: rising, at: 2) == 500)
        #expect(ShapeThumbnail.outline(bent, columns: 8)[4].y < ShapeThumbnail.outline(rising, columns: 8)[4].y)
    }

    @Test func cornersBetweenColumnsAreKept() {
        let peak = ToneShape(
            points: [CurvePoint(time: 0, frequency: 100), CurvePoint(time: 0.3, frequency: 400), CurvePoint(time: 1, frequency: 100)],
            duration: 1, minFrequency: 100, maxFrequency: 400)
        #expect(ShapeThumbnail.outline(peak, columns: 4).contains { abs($0.x - 0.3) < 1e-12 && $0.y == 1 })
    }
}
