import Synchronization
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperWire

@testable import ToneShaperOSC

/// Two valid values per parameter, both different from the default shape's: one sent as an
/// int32, one as a float, with the value the shape must then hold. A parameter added to
/// the table without an entry here fails `everyParameterIsSettable`.
private let samples: [ParameterID: (int: Int32, intResult: ParameterValue, float: Float, floatResult: ParameterValue)] = [
    .minFrequency: (100, .real(100), 105.5, .real(105.5)),
    .maxFrequency: (500, .real(500), 600.5, .real(600.5)),
    .wave: (3, .text("Triangle"), 1, .text("Square")),
    .scale: (0, .text("None"), 1, .text("Linear")),
    .echoOffset: (1, .real(1), 0.5, .real(0.5)),
    .echoVolume: (0, .real(0), 0.5, .real(0.5)),
    .amplitude: (1, .real(1), 0.5, .real(0.5)),
    .tune: (-50, .real(-50), 12.5, .real(12.5)),
    .duration: (3, .real(3), 2.5, .real(2.5)),
    .fidelity: (100, .integer(100), 200, .integer(200)),
    .fourierTerms: (5, .integer(5), 7, .integer(7)),
    .antiAlias: (0, .flag(false), 1, .flag(true)),
    .instrument: (1, .flag(true), 0, .flag(false)),
    .rootNote: (60, .integer(60), 72, .integer(72)),
    .bendRange: (12, .real(12), 0.5, .real(0.5)),
    .voices: (8, .integer(8), 4, .integer(4)),
    .release: (100, .real(100), 250.5, .real(250.5)),
    .oneShot: (1, .flag(true), 0, .flag(false)),
    .transport: (1, .flag(true), 0, .flag(false)),
    .beats: (8, .real(8), 4.5, .real(4.5)),
    .glide: (1, .real(1), 0.25, .real(0.25)),
]

@Suite("Every parameter of the table, by its OSC address")
struct ParameterAddressTests {
    @Test(
        "settable with an int and with a float; the right command kind is queued",
        arguments: ParameterTable.all.map(\.id))
    func everyParameterIsSettable(_ id: ParameterID) throws {
        let spec = ParameterTable.spec(id)
        let sample = try #require(samples[id], "no sample values for \(spec.oscPath): add them to `samples`")
        let fixture = try OSCFixture()
        let address = "/toneshaper/" + spec.oscPath

        for (argument, expected) in [(OSCValue.int32(sample.int), sample.intResult), (.float(sample.float), sample.floatResult)] {
            #expect(fixture.controller.shape.parameterValue(id) != expected, "sample for \(address) equals the current value")
            let reply = try #require(try fixture.request(address, [argument]), "no reply to \(address) \(argument)")
            #expect(reply == OSCMessage(path: "/toneshaper/ok", arguments: [.string(address)]), "\(address) \(argument)")
            #expect(fixture.controller.shape.parameterValue(id) == expected, "\(address) \(argument)")

            let commands = fixture.takeCommands()
            #expect(!commands.isEmpty, "\(address) queued nothing")
            #expect(commands.allSatisfy { $0.dueSeconds == nil })
            switch spec.change {
            case .newPlan:
                #expect(commands.contains { $0.command.replacesPlan }, "\(address) should cross-fade to a new plan")
            case .ramp:
                #expect(!commands.contains { $0.command.replacesPlan }, "\(address) should ramp, not replace the plan")
            }
        }
    }

    @Test("names are accepted for choices, case-insensitively and with - for space")
    func choicesByName() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/wave", [.string("Square Fourier")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.wave == .squareFourier)
        #expect(try fixture.request("/toneshaper/scale", [.string("wide-two-step")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.scale == .wideTwoStep)
        #expect(try fixture.request("/toneshaper/fourier-terms", [.string("nyquist")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.fourierTerms == .nyquist)
        #expect(try fixture.request("/toneshaper/anti-alias", [.bool(false)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.antiAliased == false)
    }

    @Test("doubles and int64 are numbers too")
    func doublesAndInt64() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/amplitude", [.double(0.125)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.amplitude == 0.125)
        #expect(try fixture.request("/toneshaper/fidelity", [.int64(64)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.fidelity == 64)
    }

    @Test("a settable prefix moves the whole address space and its replies")
    func customPrefix() throws {
        let fixture = try OSCFixture { $0.prefix = "synth/2/" }
        let reply = try #require(try fixture.request("/synth/2/amplitude", [.float(0.5)]))
        #expect(reply == OSCMessage(path: "/synth/2/ok", arguments: [.string("/synth/2/amplitude")]))
        #expect(fixture.controller.shape.amplitude == 0.5)
        #expect(try fixture.request("/toneshaper/amplitude", [.float(0.25)])?.path == "/synth/2/error")
    }

    @Test("acknowledgements can be turned off; errors are still answered")
    func acknowledgementsOff() throws {
        let fixture = try OSCFixture { $0.acknowledge = false }
        #expect(try fixture.request("/toneshaper/amplitude", [.float(0.5)], timeout: 0.3) == nil)
        #expect(eventually { fixture.controller.shape.amplitude == 0.5 })
        #expect(try fixture.request("/toneshaper/amplitude", [.float(5)])?.path == "/toneshaper/error")
    }
}

@Suite("Composite commands")
struct CompositeCommandTests {
    @Test("/frequency/range remaps the curve onto the new range")
    func frequencyRange() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/frequency/range", [.int32(220), .float(880)])?.path == "/toneshaper/ok")
        let shape = fixture.controller.shape
        #expect(shape.minFrequency == 220 && shape.maxFrequency == 880)
        // 220 Hz sat at 1/3 of 110...440, so it lands at 1/3 of 220...880.
        #expect(abs(shape.points[0].frequency - 440) < 1e-9)
        let commands = fixture.takeCommands().map(\.command)
        #expect(commands.count == 2)
        #expect(commands.contains { if case .ramp(.minFrequency, 220) = $0 { return true } else { return false } })
        #expect(commands.contains { if case .ramp(.maxFrequency, 880) = $0 { return true } else { return false } })
    }

    @Test("/echo sets both values in one change, or neither")
    func echo() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/echo", [.float(0.5), .float(0.25)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.echoOffset == 0.5 && fixture.controller.shape.echoVolume == 0.25)
        let commands = fixture.takeCommands()
        #expect(commands.contains { $0.command.replacesPlan })
        #expect(commands.contains { if case .ramp(.echoVolume, 0.25) = $0.command { return true } else { return false } })

        // The offset is beyond the 2 s cycle: the valid volume must not be applied either.
        let reply = try #require(try fixture.request("/toneshaper/echo", [.float(3), .float(0.75)]))
        #expect(reply.path == "/toneshaper/error")
        #expect(fixture.controller.shape.echoVolume == 0.25)
        #expect(fixture.takeCommands().isEmpty)
    }

    @Test("/amplitude/db converts dBFS to linear gain")
    func decibels() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/amplitude/db", [.float(-6)])?.path == "/toneshaper/ok")
        #expect(abs(fixture.controller.shape.amplitude - 0.501187) < 1e-5)
        #expect(try fixture.request("/toneshaper/amplitude/db", [.int32(0)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.amplitude == 1)
        #expect(try fixture.request("/toneshaper/amplitude/db", [.float(-1000)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.amplitude < 1e-45)
    }

    @Test("/points replaces the curve with a new plan")
    func points() throws {
        let fixture = try OSCFixture()
        let args: [OSCValue] = [.int32(0), .int32(300), .float(0.5), .float(350.5), .int32(2), .int32(300)]
        #expect(try fixture.request("/toneshaper/points", args)?.path == "/toneshaper/ok")
        #expect(
            fixture.controller.shape.points == [
                CurvePoint(time: 0, frequency: 300), CurvePoint(time: 0.5, frequency: 350.5),
                CurvePoint(time: 2, frequency: 300),
            ])
        #expect(fixture.takeCommands().contains { $0.command.replacesPlan })
    }

    @Test("/play and /stop queue their commands; a button release (0) does nothing")
    func playStop() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/stop")?.path == "/toneshaper/ok")
        #expect(!fixture.controller.isPlaying)
        #expect(fixture.takeCommands().map { "\($0.command)" } == ["stop"])
        #expect(try fixture.request("/toneshaper/play", [.float(0)])?.path == "/toneshaper/ok")
        #expect(!fixture.controller.isPlaying)
        #expect(fixture.takeCommands().isEmpty)
        #expect(try fixture.request("/toneshaper/play", [.float(1)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.isPlaying)
        #expect(fixture.takeCommands().map { "\($0.command)" } == ["play"])
    }

    @Test("/load and /save go through the host's library")
    func loadAndSave() throws {
        let saved = SavedShapes()
        var siren = ToneShape.defaultShape
        siren.wave = .sawtooth
        siren.name = "siren"
        let fixture = try OSCFixture(documents: TestDocuments(siren: siren, saved: saved))

        #expect(try fixture.request("/toneshaper/load", [.string("siren")])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.wave == .sawtooth)
        #expect(fixture.takeCommands().contains { $0.command.replacesPlan })

        let missing = try #require(try fixture.request("/toneshaper/load", [.string("nothing")]))
        #expect(missing.arguments == [.string("/toneshaper/load"), .string("/toneshaper/load: no document named nothing")])

        #expect(try fixture.request("/toneshaper/save", [.string("mine")])?.path == "/toneshaper/ok")
        #expect(saved.names == ["mine"])
    }
}

private struct TestDocuments: DocumentStore {
    let siren: ToneShape
    let saved: SavedShapes
    func loadDocument(named name: String) throws -> ToneShape {
        guard name == "siren" else { throw LibraryError(name: name) }
        return siren
    }
    func saveDocument(_ shape: ToneShape, named name: String) throws -> String {
        saved.add(name, shape)
        return name
    }
}

private struct LibraryError: Error, CustomStringConvertible {
    var name: String
    var description: String { "no document named \(name)" }
}

private final class SavedShapes: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ name: String, _ shape: ToneShape) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}

@Suite("Receipts")
struct ReceiptTests {
    @Test("a change that takes the curve above Nyquist says so in its /ok")
    func clampIsSaid() throws {
        let fixture = try OSCFixture()
        let reply = try #require(try fixture.request("/toneshaper/frequency/max", [.float(60_000)]))
        #expect(reply.path == "/toneshaper/ok")
        #expect(reply.arguments.count == 2)
        #expect(reply.arguments.last?.string?.contains("above 24000 Hz (Nyquist at 48000 Hz) are clamped") == true)
        let plain = try #require(try fixture.request("/toneshaper/amplitude", [.float(0.2)]))
        #expect(plain.arguments == [.string("/toneshaper/amplitude")])
    }
}
