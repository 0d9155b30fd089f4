import Testing
import ToneShaperControl

@testable import ToneShaperOSC

/// `/tuning/scale`, `/tuning/map` and `/tuning/reset`: the core's tuning commands, by OSC.
/// The files' texts travel in the message (the node reads no file a sender names).
@Suite("Tuning addresses")
struct TuningAddressTests {
    static let nineteen = "! 19.scl\n19-EDO\n19\n" + (1...18).map { "\(Double($0) * 1200 / 19)" }.joined(separator: "\n") + "\n2/1\n"
    static let linear = "! linear\n0\n0\n127\n60\n69\n440.0\n0\n"

    static func sentPlan(_ fixture: OSCFixture) -> Bool {
        fixture.takeCommands().contains { $0.command.replacesPlan }
    }

    @Test func scaleMapAndResetChangeTheShapeAndSendAPlan() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/tuning/scale", [.string(Self.nineteen)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning?.scale.count == 19 && fixture.controller.shape.tuning?.mapping == nil)
        #expect(Self.sentPlan(fixture), "the new tuning travels in a plan")
        #expect(try fixture.request("/toneshaper/tuning/map", [.string(Self.linear)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning?.keyboardMapText == Self.linear && fixture.controller.shape.tuning?.scale.count == 19)
        // A new scale keeps the map; none drops it; reset drops both.
        #expect(try fixture.request("/toneshaper/tuning/scale", [.string("d\n1\n2/1\n")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning?.keyboardMapText == Self.linear && fixture.controller.shape.tuning?.scale.count == 1)
        #expect(try fixture.request("/toneshaper/tuning/map", [.string("none")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning?.keyboardMapText == nil && fixture.controller.shape.tuning != nil)
        _ = fixture.takeCommands()
        #expect(try fixture.request("/toneshaper/tuning/reset", [])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning == nil)
        #expect(Self.sentPlan(fixture))
    }

    @Test(arguments: [
        BadMessage("/toneshaper/tuning/scale", [.string("19edo.scl")], "send the file's contents"),
        BadMessage("/toneshaper/tuning/scale", [.string("d\n2\n0/1\n2/1\n")], "scale, line 3: the ratio 0/1"),
        BadMessage("/toneshaper/tuning/scale", [.int32(19)], "the text of a .scl file"),
        BadMessage("/toneshaper/tuning/scale", [], "expects 1 argument"),
        BadMessage("/toneshaper/tuning/map", [.string(TuningAddressTests.linear)], "send the scale first"),
        BadMessage("/toneshaper/tuning/reset", [.int32(1)], "expects no arguments"),
    ])
    func refusals(_ message: BadMessage) throws {
        let fixture = try OSCFixture()
        let reply = try #require(try fixture.request(message.path, message.arguments))
        #expect(reply.path == "/toneshaper/error")
        #expect(reply.arguments.contains { "\($0)".contains(message.reason) }, "\(reply.arguments)")
        #expect(fixture.controller.shape.tuning == nil)
    }

    @Test func aBadMapIsRefusedNamingTheLineAndTheTuningStays() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/tuning/scale", [.string(Self.nineteen)])?.path == "/toneshaper/ok")
        let reply = try #require(try fixture.request("/toneshaper/tuning/map", [.string("0\n0\n127\n60\n69\nA440\n0\n")]))
        #expect(reply.path == "/toneshaper/error")
        #expect(reply.arguments.contains { "\($0)".contains("keyboard map, line 6") }, "\(reply.arguments)")
        #expect(fixture.controller.shape.tuning?.scale.count == 19 && fixture.controller.shape.tuning?.mapping == nil)
    }
}
