import Foundation
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// Curved segments (issue 43): each segment's progress bends by its curvature, the grid the
/// engine integrates follows it, documents carry it only when a segment bends, and OSC's
/// `/points` sets and reports it.
@Suite struct CurvatureTests {
    /// The progress at the segment's middle, as the issue states it: 0.5 straight, 0.25 at
    /// c = 0.5, 0.75 at c = -0.5, 1/16 and 15/16 at the ends of the range; 0 and 1 at the
    /// segment's ends, rising all along.
    @Test func progressAtTheMiddle() {
        #expect(SegmentCurvature.progress(0.5, 0) == 0.5)
        #expect(abs(SegmentCurvature.progress(0.5, 0.5) - 0.25) < 1e-13)
        #expect(abs(SegmentCurvature.progress(0.5, -0.5) - 0.75) < 1e-13)
        #expect(abs(SegmentCurvature.progress(0.5, 1) - 1.0 / 16) < 1e-13)
        #expect(abs(SegmentCurvature.progress(0.5, -1) - 15.0 / 16) < 1e-13)
        for c in stride(from: -1.0, through: 1.0, by: 0.25) {
            #expect(SegmentCurvature.progress(0, c) == 0 && SegmentCurvature.progress(1, c) == 1, "c \(c)")
            var previous = -1.0
            for i in 0...100 {
                let p = SegmentCurvature.progress(Double(i) / 100, c)
                #expect(p >= previous, "c \(c) falls at \(i)")
                previous = p
            }
        }
    }

    /// Without libm, as the plugins compute it: within 1e-12 of the C library's u^(4^c).
    @Test func progressAgreesWithLibm() {
        var random = SplitMix64(seed: 43)
        for _ in 0..<2000 {
            let u = Double(random.next() % 1_000_000) / 1_000_000
            let c = Double(random.next() % 2001) / 1000 - 1
            let want = c >= 0 ? pow(u, pow(4, c)) : 1 - pow(1 - u, pow(4, -c))
            #expect(abs(SegmentCurvature.progress(u, c) - want) < 1e-12, "u \(u) c \(c)")
        }
    }

    /// On the grid: 100 -> 300 Hz over 4 cells bent by 0.5 passes 150 Hz at its middle (a
    /// quarter of the way); curvatures of 0, or of the wrong count, leave the grid exactly
    /// as it was.
    @Test func theGridFollowsTheBend() {
        let points = [CurvePoint(time: 0, frequency: 100), CurvePoint(time: 1, frequency: 300)]
        let bent = FrequencyCurve.grid(points: points, fidelity: 4, curvatures: [0.5])
        #expect(abs(bent[2] - 150) < 1e-9 && bent[0] == 100 && bent[4] == 300)
        let straight = FrequencyCurve.grid(points: points, fidelity: 4)
        #expect(FrequencyCurve.grid(points: points, fidelity: 4, curvatures: [0]) == straight)
        #expect(FrequencyCurve.grid(points: points, fidelity: 4, curvatures: [0.5, 0.5]) == straight)
        // Three points, the second segment bent down: the first stays straight.
        let three = points + [CurvePoint(time: 2, frequency: 100)]
        let grid = FrequencyCurve.grid(points: three, fidelity: 8, curvatures: [0, -0.5])
        #expect(grid[2] == 200 && abs(grid[6] - (300 - 200 * 0.75)) < 1e-9)
    }

    /// What is heard: a rise from 100 to 400 Hz bent by 0.5 is at 175 Hz a quarter of the
    /// way... at the segment's middle, where the straight one is at 250 Hz.
    @Test func theBendIsHeardAtTheSegmentsMiddle() throws {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 100), CurvePoint(time: 2, frequency: 400)], duration: 2, minFrequency: 100,
            maxFrequency: 400)
        shape.fidelity = 1000
        let rate = 48_000.0
        func heard(_ shape: ToneShape) throws -> Double {
            let out = OfflineRenderer.render(shape, sampleRate: rate, frames: 96_000)
            return try #require(SignalAnalysis.zeroCrossingFrequency(out, sampleRate: rate, range: 46_800..<49_200))
        }
        let straight = try heard(shape)
        shape = try shape.settingCurvatures([0.5])
        let bent = try heard(shape)
        #expect(abs(straight - 250) < 3, "straight: \(straight) Hz at the middle")
        #expect(abs(bent - 175) < 3, "bent by 0.5: \(bent) Hz at the middle")
    }

    /// A document carries `curvatures` only when a segment bends, and reads back the same;
    /// the original app's keys are untouched, and a straight document has no such key.
    @Test func documentsCarryCurvaturesOnlyWhenBent() throws {
        var shape = ToneShape.defaultShape
        let straightBytes = ToneShapeDocument.encode(shape)
        #expect(!String(decoding: straightBytes, as: UTF8.self).contains("curvatures"))
        shape = try shape.settingCurvatures([0, 0])
        #expect(ToneShapeDocument.encode(shape) == straightBytes)
        shape = try shape.settingCurvatures([0.5, -0.25])
        let bytes = ToneShapeDocument.encode(shape)
        let read = try ToneShapeDocument.decode(bytes, source: "test")
        #expect(read.curvatures == [0.5, -0.25])
        #expect(ToneShapeDocument.encode(read) == bytes)
    }

    @Test(arguments: [
        ("[0.5]", "holds 1 number for 2 segments"), ("[0.5, 2]", "curvatures[1]"), ("[0.5, \"x\"]", "curvatures[1]"), ("0.5", "must be an array"),
    ])
    func badCurvaturesAreRefusedByName(value: String, expected: String) {
        let text = """
            {"points": [[0, 220], [1, 330], [2, 220]], "duration": 2, "minFrequency": 110, "maxFrequency": 440, "curvatures": \(value)}
            """
        #expect {
            _ = try ToneShapeDocument.decode(text, source: "bent.toneshaper")
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    /// OSC's `/points`: pairs then "curvatures" and one number a segment; the query answers
    /// the same way. Moving a point keeps the bends; another number of points starts straight.
    @Test func oscPointsSetAndReportCurvatures() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let surface = ControlSurface(controller: controller)
        let points = try #require(ControlAddress.all.first { $0.path == "points" })
        _ = try surface.perform(
            points, [.real(0), .real(220), .real(1), .real(330), .real(2), .real(220), .text("curvatures"), .real(0.5), .real(-0.5)])
        #expect(controller.shape.curvatures == [0.5, -0.5])
        guard case .points(_, let reported) = try surface.perform(points, []) else { throw TestToolError("no points reply") }
        #expect(reported == [0.5, -0.5])
        _ = try surface.perform(points, [.real(0), .real(220), .real(1), .real(300), .real(2), .real(220)])
        #expect(controller.shape.curvatures == [0.5, -0.5], "a moved point keeps its segments' bends")
        _ = try surface.perform(points, [.real(0), .real(220), .real(2), .real(220)])
        #expect(controller.shape.curvatures.isEmpty, "two points: straight")
        #expect(throws: ControlError.self) {
            _ = try surface.perform(points, [.real(0), .real(220), .real(2), .real(220), .text("curvatures"), .real(3)])
        }
    }

    /// A plugin plays and saves the bend: the plan's curve carries it, and the document a
    /// plugin saves holds it.
    @Test func pluginsKeepTheBend() throws {
        var shape = ToneShape.defaultShape
        shape = try shape.settingCurvatures([0.25, 0])
        let instrument = InstrumentShape(shape)
        #expect(instrument.curve.curvatures == [0.25, 0])
        let saved = ToneShape(played: instrument, document: shape)
        #expect(saved.curvatures == [0.25, 0])
    }
}
