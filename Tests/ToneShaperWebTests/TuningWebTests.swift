import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperTestSupport

@testable import ToneShaperWeb

/// The tuning on the web side: OSCQuery lists the tuning's nodes with the files' texts as
/// their values, and a page that sends a scale's text over the WebSocket is told what tuning
/// plays (its description and degrees) in the state.
@Suite struct TuningWebTests {
    @Test func oscQueryListsTheTuningNodesWithTheTextPlaying() throws {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let namespace = OSCQueryNamespace(prefix: "/toneshaper")
        let untuned = try #require(namespace.node(at: "/toneshaper/tuning", state: controller.state))
        for name in ["scale", "map", "reset"] { #expect(untuned["CONTENTS"]?[name] != nil, "\(name)") }
        let scale = try #require(namespace.node(at: "/toneshaper/tuning/scale", state: controller.state))
        #expect(scale["ACCESS"] == .number(3) && scale["TYPE"] == .string("s") && scale["VALUE"] == .array([.string("")]))
        #expect(scale["DESCRIPTION"]?.string?.contains("or the path of a .scl file") == true)
        #expect(namespace.node(at: "/toneshaper/tuning/reset", state: controller.state)?["ACCESS"] == .number(2))

        try controller.perform(.setTuningScale(TuningFixture.nineteenEDO))
        try controller.perform(.setTuningMap(TuningFixture.twelveKeyMap))
        let state = controller.state
        #expect(namespace.node(at: "/toneshaper/tuning/scale", state: state)?["VALUE"] == .array([.string(TuningFixture.nineteenEDO)]))
        #expect(namespace.node(at: "/toneshaper/tuning/map", state: state)?["VALUE"] == .array([.string(TuningFixture.twelveKeyMap)]))
    }

    @Test func aPageThatSendsAScaleIsToldItsNameAndDegrees() async throws {
        let web = NetworkJSONTests()
        let request = JSONValue.object(["address": .string("tuning/scale"), "args": .array([.string(TuningFixture.nineteenEDO)]), "id": .number(1)])
        let replies = try await web.webSocket([request.text, #"{"watch": "state"}"#])
        #expect(replies.first?["ok"] == .bool(true), "\(replies)")
        let tunings = replies.compactMap { $0["state"]?["tuning"] }
        let tuning = try #require(tunings.last, "\(replies)")
        #expect(tuning["description"] == .string("19 equal divisions of the octave"))
        guard case .array(let cents)? = tuning["cents"] else {
            Issue.record("no degrees: \(tuning)")
            return
        }
        #expect(
            cents.count == 19 && cents.last?.number.map { abs($0 - 1200) < 1e-6 } == true
                && cents.first?.number.map { abs($0 - 1200.0 / 19) < 1e-4 } == true)
        #expect(tuning["keyboardMap"] == nil)
    }
}
