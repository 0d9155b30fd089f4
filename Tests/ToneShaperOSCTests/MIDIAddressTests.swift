import Testing
import ToneShaperControl

@testable import ToneShaperOSC

/// `/midi/map` and `/midi/learn`: the core's addresses, by OSC.
@Suite("MIDI addresses")
struct MIDIAddressTests {
    @Test func mapAndUnmapAController() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/midi/map", [.int32(74), .string("frequency/max")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.midiMap[74] == .maxFrequency)
        #expect(
            fixture.takeCommands().contains {
                if case .mapController(74, .maxFrequency) = $0.command { return true }
                return false
            },
            "the audio side is told")
        #expect(try fixture.request("/toneshaper/midi/map", [.float(74), .string("none")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.midiMap[74] == nil)
    }

    @Test(arguments: [
        BadMessage("/toneshaper/midi/map", [.int32(64), .string("amplitude")], "sustain pedal"),
        BadMessage("/toneshaper/midi/map", [.int32(120), .string("amplitude")], "0...119"),
        BadMessage("/toneshaper/midi/map", [.int32(7), .string("loudness")], "a parameter a controller can move"),
        BadMessage("/toneshaper/midi/map", [.int32(7)], "expects 2 arguments"),
        BadMessage("/toneshaper/midi/learn", [.string("points")], "a parameter a controller can move"),
        BadMessage("/toneshaper/midi/learn", [.string("fourier-terms")], "a parameter a controller can move"),
    ])
    func refusals(_ message: BadMessage) throws {
        let fixture = try OSCFixture()
        let reply = try #require(try fixture.request(message.path, message.arguments))
        #expect(reply.path == "/toneshaper/error")
        #expect(reply.arguments.contains { "\($0)".contains(message.reason) }, "\(reply.arguments)")
    }

    @Test func learnIsSentToTheAudioSide() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/midi/learn", [.string("echo/volume")])?.path == "/toneshaper/ok")
        #expect(
            fixture.takeCommands().contains {
                if case .learnController(.echoVolume) = $0.command { return true }
                return false
            })
    }
}
