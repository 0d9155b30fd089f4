import Foundation
import Testing
import ToneShaperControl

@testable import ToneShaperOSC

/// `/tuning/scale`, `/tuning/map` and `/tuning/reset`: the core's tuning commands, by OSC.
/// A file's text travels in the message, or a path of a `.scl`/`.kbm` file the node reads
/// (told apart by line breaks); the document keeps the text either way.
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
        BadMessage("/toneshaper/tuning/scale", [.string("/nowhere/19edo.scl")], "does not exist (a path is read by the node"),
        BadMessage("/toneshaper/tuning/scale", [.string("/etc/passwd")], "is not a .scl file"),
        BadMessage("/toneshaper/tuning/map", [.string("/tmp")], "is not a .kbm file"),
        BadMessage("/toneshaper/tuning/scale", [.string("d\n2\n0/1\n2/1\n")], "scale, line 3: the ratio 0/1"),
        BadMessage("/toneshaper/tuning/scale", [.int32(19)], "the text of a .scl file (its lines) or its path"),
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

    /// A path (one line) is read by the node: the scale and the map from their files, the
    /// document keeps their texts; a directory named .scl and a bad file are refused.
    @Test func pathsAreReadAndTheTextsKept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("toneshaper-tuning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder.scl"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scale = directory.appendingPathComponent("19-EDO.SCL")
        let map = directory.appendingPathComponent("linear.kbm")
        let bad = directory.appendingPathComponent("bad.scl")
        try Self.nineteen.write(to: scale, atomically: true, encoding: .utf8)
        try Self.linear.write(to: map, atomically: true, encoding: .utf8)
        try "bad\n2\n0/1\n2/1\n".write(to: bad, atomically: true, encoding: .utf8)
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/tuning/scale", [.string(scale.path)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning?.scaleText == Self.nineteen)
        #expect(Self.sentPlan(fixture), "the file's tuning travels in a plan")
        #expect(try fixture.request("/toneshaper/tuning/map", [.string(map.path)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.tuning?.keyboardMapText == Self.linear)
        for (path, reason) in [
            (directory.appendingPathComponent("folder.scl").path, "is not a regular file"), (bad.path, "scale, line 3: the ratio 0/1"),
        ] {
            let reply = try #require(try fixture.request("/toneshaper/tuning/scale", [.string(path)]))
            #expect(reply.path == "/toneshaper/error" && reply.arguments.contains { "\($0)".contains(reason) }, "\(reply.arguments)")
        }
        #expect(fixture.controller.shape.tuning?.scaleText == Self.nineteen && fixture.controller.shape.tuning?.keyboardMapText == Self.linear)
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
