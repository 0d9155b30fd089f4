import Testing
import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters

@testable import ToneShaperWeb

/// What the page reads of the state: the segments' curvatures, left out while every
/// segment is straight (as the document leaves them out).
@Suite struct StateJSONTests {
    func state(_ curvatures: [Double]) -> ControlState {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 200), CurvePoint(time: 1, frequency: 800), CurvePoint(time: 2, frequency: 400)],
            duration: 2, minFrequency: 100, maxFrequency: 1000)
        shape.curvatures = curvatures
        return EngineController(shape: shape, sampleRate: 48_000).state
    }

    @Test func curvaturesAreSentOnlyWhenASegmentBends() {
        #expect(StateJSON.object(state([]))["curvatures"] == nil)
        #expect(StateJSON.object(state([0.5, -0.25]))["curvatures"] == .array([.number(0.5), .number(-0.25)]))
        #expect(StateJSON.object(state([]))["pitchGrid"] == nil, "no tuning, no grid of its degrees")
    }

    @Test func aTuningSendsItsKeysFrequenciesForThePitchSnap() throws {
        let controller = EngineController(shape: state([]).shape, sampleRate: 48_000)
        var shape = controller.shape
        // Half-octave steps from A4 = 440 Hz (the reference of the linear mapping).
        shape.tuning = try Tuning(scale: "half octaves\n2\n600.0\n2/1\n")
        let grid = EngineController(shape: shape, sampleRate: 48_000).state
        guard case .array(let values)? = StateJSON.object(grid)["pitchGrid"] else {
            Issue.record("a tuning gives the state a pitchGrid")
            return
        }
        let hertz = values.compactMap(\.number)
        #expect(hertz.contains(440) && hertz.contains(880))
        #expect(hertz.contains { abs($0 - 440 * 2.0.squareRoot()) < 1e-9 })
        #expect(!hertz.contains { abs($0 - 466.16) < 1 }, "no semitone the tuning does not have")
        #expect(hertz == hertz.sorted())
    }
}
