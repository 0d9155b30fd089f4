import Testing
import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters

@testable import ToneShaperWeb

/// The page's "edit" requests: computed by the shared editing model, set on the node as its
/// points, answered with the curve; refused ones change nothing.
@Suite struct CurveEditsTests {
    let context: WebContext = {
        let shape = ToneShape(points: [CurvePoint(time: 0, frequency: 440)], duration: 4, minFrequency: 100, maxFrequency: 2000)
        return WebContext(
            controller: EngineController(shape: shape, sampleRate: 48_000), namespace: OSCQueryNamespace(prefix: "/toneshaper"),
            services: WebHostServices(), name: "test", oscPort: nil, pages: EditorPages())
    }()

    func edit(_ operation: String, _ fields: [String: JSONValue] = [:], selection: [Double] = [1, 2, 3]) -> Result<[String: JSONValue], WebRefusal> {
        var message: [String: JSONValue] = [
            "edit": .string(operation), "points": .array([0, 600, 1.5, 800, 2, 1000, 2.5, 1200, 4, 700].map(JSONValue.number)),
            "curvatures": .array([0, 0.5, 0, 0].map(JSONValue.number)), "selection": .array(selection.map(JSONValue.number)),
        ]
        message.merge(fields) { $1 }
        return CurveEdits.perform(.object(message), context: context)
    }

    @Test func aStretchByTwoInTimeDoublesTheSelectionsSpanAboutItsCentre() throws {
        let reply = try edit("stretch", ["timeFactor": .number(2)]).get()
        #expect(context.controller.shape.points.map(\.time) == [0, 1, 2, 3, 4])
        #expect(context.controller.shape.curvatures == [0, 0.5, 0, 0])
        #expect(reply["selection"] == .array([1, 2, 3].map(JSONValue.number)))
    }

    @Test func typedNotesAndTheClipboardTextAreTheModels() throws {
        _ = try edit("enter", ["frequency": .string("A4+12"), "time": .string("1.75")], selection: [1]).get()
        #expect(context.controller.shape.points[1] == CurvePoint(time: 1.75, frequency: 440 * FastPower.exp2(12.0 / 1200)))
        let copied = try edit("copy", selection: [1, 2]).get()
        #expect(copied["text"]?.string == PointsText.heading + "\n1.5 800 0.5\n2 1000\n")
    }

    @Test func refusalsChangeNothing() {
        let before = context.controller.shape
        for (operation, fields) in [
            ("paste", ["text": JSONValue.string("1 2 3 4\n")]), ("enter", ["frequency": .string("H9")]), ("twist", [:]),
            ("enter", ["frequency": .string("440"), "time": .string("3")]), ("bend", ["segment": .number(1e300)]),
            ("bend", ["segment": .number(4)]),
        ] {
            if case .success = edit(operation, fields, selection: [1]) { Issue.record("\(operation) \(fields) was taken") }
        }
        #expect(context.controller.shape == before)
    }
}

/// The zoomed view's grid: the editing model's lines for the shape's frame.
@Suite struct CurveGridTests {
    func ask(_ shape: ToneShape) -> JSONValue {
        CurveGrid.reply(
            .object([
                "grid": .bool(true), "times": .array([.number(0), .number(4)]), "minimumStep": .number(0.4),
                "frequencies": .array([.number(400), .number(900)]), "minimumSemitones": .number(2),
            ]), shape: shape)
    }

    @Test func secondsAndSemitonesOrBeatsAndTheTuningsDegrees() throws {
        var shape = ToneShape(points: [CurvePoint(time: 0, frequency: 440)], duration: 4, minFrequency: 100, maxFrequency: 2000)
        let plain = ask(shape)
        #expect(plain["times"] == .array([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4].map(JSONValue.number)))
        #expect(plain["beat"] == .number(0) && plain["tuned"] == .bool(false))
        #expect(plain["frequencies"]?.arrayCount == 7, "every second semitone from A4 to A5")
        shape.performance.beats = 8
        shape.tuning = try Tuning(scale: "half octaves\n2\n600.0\n2/1\n")
        let synced = ask(shape)
        #expect(synced["beat"] == .number(0.5) && synced["tuned"] == .bool(true))
        #expect(synced["times"] == .array([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4].map(JSONValue.number)))
        #expect(synced["frequencies"]?.arrayCount == 3, "440, 622.25 and 880 Hz: the degrees of half octaves")
    }
}

extension JSONValue {
    fileprivate var arrayCount: Int? {
        if case .array(let items) = self { return items.count }
        return nil
    }
}
