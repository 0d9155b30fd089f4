import Testing
import ToneShaperModel
import ToneShaperParameters

/// The editing model both editors share: selection operations, the clipboard's text, exact
/// entry, the curvature handle's drag and the grid of a zoomed view, with exact numbers.
@Suite struct CurveEditing {
    static let range = 20.0...20_000.0

    /// Five points over a one-second cycle: 440, 220, 880, 440, 440 Hz at quarter seconds.
    static func curve(_ curvatures: [Double] = []) -> EditableCurve {
        EditableCurve(
            points: [0, 0.25, 0.5, 0.75, 1].enumerated().map { k, t in CurvePoint(time: t, frequency: [440.0, 220, 880, 440, 440][k]) },
            curvatures: curvatures)
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance * max(1, abs(b)) }

    @Test func selectsByRubberBandAndToggles() {
        let curve = CurveEditing.curve()
        #expect(curve.points(inTimes: 0.2...0.6, frequencies: 200...900).indices == [1, 2])
        #expect(curve.points(inTimes: 0.2...0.6, frequencies: 300...900).indices == [2])
        #expect(curve.all.indices == [0, 1, 2, 3, 4])
        var selection = CurveSelection([2, 1, 2])
        #expect(selection.indices == [1, 2])
        selection.toggle(4)
        selection.toggle(1)
        #expect(selection.indices == [2, 4])
        #expect(selection.union(CurveSelection([0])).indices == [0, 2, 4])
    }

    /// Stretched by two about the selection's centre: 0.25 and 0.5 s (centre 0.375) go to
    /// 0.125 and 0.625 s, the span between them doubled; 220 and 880 Hz (centre 440 Hz in log
    /// frequency) to 110 and 1760 Hz.
    @Test func stretchesAboutTheSelectionsCentre() {
        var curve = CurveEditing.curve()
        let selection = curve.stretch(CurveSelection([1, 2]), timeFactor: 2, pitchFactor: 2, duration: 1, range: CurveEditing.range)
        #expect(selection.indices == [1, 2])
        #expect(curve.points.map(\.time) == [0, 0.125, 0.625, 0.75, 1])
        #expect(CurveEditing.near(curve.points[1].frequency, 110) && CurveEditing.near(curve.points[2].frequency, 1760))
        // Clamped to the cycle and the range.
        var wide = CurveEditing.curve()
        _ = wide.stretch(wide.all, timeFactor: 3, pitchFactor: 20, duration: 1, range: 100...1000)
        #expect(wide.points.map(\.time) == [0, 0, 0.5, 1, 1])
        #expect(wide.points.map(\.frequency) == [440, 100, 1000, 440, 440])
    }

    /// A factor of exactly 1 leaves its axis alone, bit for bit: a stretch in time keeps
    /// the frequencies (no logarithm and back), one in pitch keeps the times (no trip through
    /// the centre: 0.4 + (0.1 - 0.4) is 0.09999999999999998).
    @Test func aFactorOfOneLeavesItsAxisBitForBit() {
        let times = [0.1, 0.3, 0.7]
        let frequencies = [261.625_565_300_598_6, 329.627_556_912_869_9, 391.995_435_981_749_3]
        let points = (0..<3).map { CurvePoint(time: times[$0], frequency: frequencies[$0]) }
        var inTime = EditableCurve(points: points, curvatures: [0.25, -0.5])
        _ = inTime.stretch(inTime.all, timeFactor: 1.5, pitchFactor: 1, duration: 1, range: CurveEditing.range)
        #expect(inTime.points.map(\.frequency) == frequencies)
        #expect(inTime.points.map(\.time) != times)
        var inPitch = EditableCurve(points: points, curvatures: [0.25, -0.5])
        _ = inPitch.stretch(inPitch.all, timeFactor: 1, pitchFactor: 0.5, duration: 1, range: CurveEditing.range)
        #expect(inPitch.points.map(\.time) == times)
        var still = EditableCurve(points: points, curvatures: [0.25, -0.5])
        _ = still.stretch(CurveSelection([0, 2]), timeFactor: 1, pitchFactor: 1, duration: 1, range: CurveEditing.range)
        #expect(still.points == points && still.curvatures == [0.25, -0.5])
    }

    @Test func movesWithinTheCycleAndReorders() {
        var curve = CurveEditing.curve()
        var selection = curve.move(CurveSelection([1]), bySeconds: 0.1, semitones: 12, duration: 1, range: CurveEditing.range)
        #expect(CurveEditing.near(curve.points[1].time, 0.35) && CurveEditing.near(curve.points[1].frequency, 440))
        // Past the next point: it is put back in time order and stays selected.
        selection = curve.move(selection, bySeconds: 0.3, semitones: 0, duration: 1, range: CurveEditing.range)
        #expect(selection.indices == [2])
        #expect(curve.points.map(\.time).map { ($0 * 100).rounded() / 100 } == [0, 0.5, 0.65, 0.75, 1])
        // The whole selection stops at the cycle's end, keeping its shape.
        var end = CurveEditing.curve()
        _ = end.move(CurveSelection([3, 4]), bySeconds: 0.5, semitones: 0, duration: 1, range: CurveEditing.range)
        #expect(end.points.map(\.time) == [0, 0.25, 0.5, 0.75, 1])
    }

    /// A time flip plays each segment inside the selection backwards: its curvature moves to
    /// the point that now starts it, negated; the segment out of the run keeps its own.
    @Test func flipsInTimeAndPitch() {
        var curve = CurveEditing.curve([0, 0.5, -0.25, 0.1])
        let selection = curve.flipHorizontally(CurveSelection([1, 2, 3]), duration: 1, range: CurveEditing.range)
        #expect(selection.indices == [1, 2, 3])
        #expect(curve.points.map(\.time) == [0, 0.25, 0.5, 0.75, 1])
        #expect(curve.points.map(\.frequency) == [440, 440, 880, 220, 440])
        #expect(curve.curvatures == [0, 0.25, -0.5, 0.1])
        var vertical = CurveEditing.curve()
        _ = vertical.flipVertically(CurveSelection([1, 2, 3]), duration: 1, range: CurveEditing.range)
        #expect(vertical.points.map(\.frequency).map { $0.rounded() } == [440, 880, 220, 440, 440])
    }

    @Test func deletesAndKeepsOnePoint() {
        var curve = CurveEditing.curve([0.5, 0, 0, -0.5])
        var removed = curve.delete(CurveSelection([1, 2]))
        #expect(removed)
        #expect(curve.points.map(\.time) == [0, 0.75, 1])
        #expect(curve.curvatures == [0.5, -0.5])
        removed = curve.delete(curve.all)
        #expect(removed)
        #expect(curve.points == [CurvePoint(time: 0, frequency: 440)] && curve.curvatures.isEmpty)
        removed = curve.delete(curve.all)
        #expect(!removed)
        #expect(curve.documentCurvatures.isEmpty)
    }

    /// A handle sits at the segment's middle in time, at the frequency played there: 220 to
    /// 880 Hz with c = 0.5 is a quarter of the way at the middle, 385 Hz.
    @Test func placesTheCurvatureHandle() {
        var curve = CurveEditing.curve()
        #expect(curve.handle(ofSegment: 1) == CurvePoint(time: 0.375, frequency: 550))
        curve.setCurvature(0.5, ofSegment: 1)
        #expect(CurveEditing.near(curve.handle(ofSegment: 1).frequency, 385))
        curve.setCurvature(7, ofSegment: 1)
        #expect(curve.curvatures[1] == 1)
    }

    /// 50 pixels up on a rising segment raises its middle: c = -0.5; on a falling one +0.5.
    @Test func dragsACurvature() {
        #expect(CurvatureDrag.curvature(start: 0, dragUp: 50, rises: true) == -0.5)
        #expect(CurvatureDrag.curvature(start: 0, dragUp: 50, rises: false) == 0.5)
        #expect(CurvatureDrag.curvature(start: 0.5, dragUp: -50, rises: false) == 0)
        #expect(CurvatureDrag.curvature(start: 0, dragUp: 50, rises: true, scale: 2) == -0.25)
        #expect(CurvatureDrag.curvature(start: 0, dragUp: 300, rises: true) == -1)
    }

    // MARK: Clipboard

    @Test func copiesAndPastesAsText() throws {
        let curve = CurveEditing.curve([0, 0.5, -0.25, 0])
        let text = curve.copy(CurveSelection([1, 2, 3]))
        #expect(text == PointsText.heading + "\n0.25 220 0.5\n0.5 880 -0.25\n0.75 440\n")
        let clip = try PointsText.curve(text)
        #expect(clip.points.map(\.time) == [0.25, 0.5, 0.75] && clip.curvatures == [0.5, -0.25])
        // Pasted at its own times over a flat curve: the points in its span give way.
        var flat = EditableCurve(points: [0, 0.3, 1].map { CurvePoint(time: $0, frequency: 300) })
        let pasted = flat.paste(clip, duration: 1, range: CurveEditing.range)
        #expect(pasted.indices == [1, 2, 3])
        #expect(flat.points.map(\.time) == [0, 0.25, 0.5, 0.75, 1])
        #expect(flat.curvatures == [0, 0.5, -0.25, 0])
        // The whole curve round-trips.
        let whole = CurveEditing.curve([0.1, 0.2, 0.3, 0.4])
        #expect(try PointsText.curve(whole.copy(whole.all)) == whole)
        // Moved by an offset, past the cycle's end: what does not fit is left out.
        var shifted = EditableCurve(points: [CurvePoint(time: 0, frequency: 300)])
        #expect(shifted.paste(clip, offset: 0.5, duration: 1, range: CurveEditing.range).indices == [1, 2])
        #expect(shifted.points.map(\.time) == [0, 0.75, 1])
    }

    /// Text from a text editor: comments, commas, tabs, note names, units; errors name the line.
    @Test func readsPointsTextAndNamesTheBadLine() throws {
        let curve = try PointsText.curve("# mine\n\n0, 220\n0.5\tA4+12 -0.5\n1s 1k\n")
        #expect(curve.points.map(\.time) == [0, 0.5, 1])
        #expect(CurveEditing.near(curve.points[1].frequency, 443.06044202495633) && curve.points[2].frequency == 1000)
        #expect(curve.curvatures == [0, -0.5])
        func problem(_ text: String) -> PointsText.Problem? {
            do {
                _ = try PointsText.curve(text)
                return nil
            } catch { return error }
        }
        #expect(
            problem("0 440\n0.5 x\n")?.description == "line 2: \"x\" is not a frequency (443.05, 443.05 Hz, 1.2 kHz) or a note (A4+12, C#3-5, Bb2)")
        #expect(problem("0 440\n1 440\n0.5 440\n")?.description == "line 3: time 0.5 s comes before the previous point's 1 s")
        #expect(problem("0 440 2\n")?.description == "line 1: curvature \"2\" is not a number in -1...1 (0 is straight)")
        #expect(problem("0 440 1 2\n")?.line == 1)
        #expect(problem("# nothing\n")?.line == 0)
    }

    /// Between a plugin and its window the curvatures follow the points after a NaN, only
    /// when a segment is curved; anything else is refused.
    @Test func carriesCurvaturesBetweenPluginAndWindow() {
        let points = [CurvePoint(time: 0, frequency: 220), CurvePoint(time: 1, frequency: 880)]
        #expect(PluginPoints.flat(points, curvatures: [0]) == [0, 220, 1, 880])
        let flat = PluginPoints.flat(points, curvatures: [0.5])
        #expect(flat.count == 6 && flat[4].isNaN && flat[5] == 0.5)
        let read = flat.withUnsafeBufferPointer { PluginPoints.curve(flat: $0, duration: 2) }
        #expect(read?.points == points && read?.curvatures == [0.5])
        for bad: [Double] in [[0, 220, 1, 880, .nan], [0, 220, 1, 880, .nan, 2], [0, 220, 1, 880, .nan, 0.5, 0.5]] {
            #expect(bad.withUnsafeBufferPointer { PluginPoints.curve(flat: $0, duration: 2) } == nil)
        }
    }

    // MARK: Exact entry

    @Test func readsFrequenciesAndNotes() throws {
        #expect(CurveEditing.near(try PitchText.frequency("A4+12"), 443.06044202495633))
        #expect(CurveEditing.near(try PitchText.frequency("C#3-5"), 138.19162552627827))
        #expect(CurveEditing.near(try PitchText.frequency("Bb2"), 116.54094037952248))
        #expect(CurveEditing.near(try PitchText.frequency(" A4 "), 440))
        #expect(CurveEditing.near(try PitchText.frequency("C-1"), 8.175798915643707))
        #expect(CurveEditing.near(try PitchText.frequency("A4+12c"), 443.06044202495633))
        #expect(try PitchText.frequency("443.05") == 443.05)
        #expect(try PitchText.frequency("443.05 Hz") == 443.05)
        #expect(try PitchText.frequency("1.2 kHz") == 1200)
        for bad in ["", "H4", "A", "A4+", "-440", "0", "inf", "440 s", "A4+12x"] {
            #expect(throws: PitchText.Problem.self) { try PitchText.frequency(bad) }
        }
        #expect(try PitchText.time("0.25") == 0.25)
        #expect(try PitchText.time("250 ms") == 0.25)
        #expect(try PitchText.time("2s") == 2)
        #expect(throws: PitchText.Problem.self) { try PitchText.time("-1") }
        #expect(PitchText.noteName(443.06044202495633) == "A4+12")
        #expect(PitchText.noteName(138.19162552627827) == "C#3-5")
        #expect(PitchText.noteName(440) == "A4")
    }

    // MARK: Grid

    @Test func drawsAGridThatFollowsTheZoom() {
        #expect(GridLines.times(visible: 0...1, minimumStep: 0.15).map { ($0 * 1000).rounded() } == [0, 200, 400, 600, 800, 1000])
        #expect(GridLines.times(visible: 0.31...0.36, minimumStep: 0.015).map { ($0 * 1000).rounded() } == [320, 340, 360])
        #expect(GridLines.beats(visible: 0...1, beat: 0.5, minimumStep: 0.2) == [0, 0.25, 0.5, 0.75, 1])
        #expect(GridLines.beats(visible: 0...4, beat: 0.5, minimumStep: 1.5) == [0, 2, 4])
        let semitones = GridLines.semitones(visible: 440...880, minimumSemitones: 2.5)
        #expect(semitones.count == 5)
        for (line, expected) in zip(semitones, [440, 523.2511306011972, 622.2539674441618, 739.9888454232688, 880]) {
            #expect(CurveEditing.near(line, expected))
        }
        let degrees = GridLines.degrees(visible: 400...1000, root: 440, degrees: [0, 7.02])
        #expect(degrees.count == 3)
        for (line, expected) in zip(degrees, [440, 660.0171552857599, 880]) { #expect(CurveEditing.near(line, expected)) }
        #expect(GridLines.degrees(visible: 400...1000, root: 440, degrees: [0, 0.5, 7.02], minimumSemitones: 1).count == 2)
    }
}
