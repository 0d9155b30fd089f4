import Foundation
import Testing
import ToneShaperControl
import ToneShaperWire

@testable import ToneShaperOSC

@Suite("Command-line arguments and other OSC clients")
struct ClientAndToolTests {
    @Test(
        "command-line words are typed by their look",
        arguments: [
            ("440", OSCValue.int32(440)),
            ("-3", .int32(-3)),
            ("+7", .int32(7)),
            ("99999999999", .int64(99_999_999_999)),
            ("0.5", .float(0.5)),
            ("-12.5", .float(-12.5)),
            ("1e3", .float(1000)),
            ("inf", .float(.infinity)),
            ("-inf", .float(-.infinity)),
            ("Square", .string("Square")),
            ("Square Fourier", .string("Square Fourier")),
            ("0x10", .string("0x10")),
            ("", .string("")),
            ("3:f", .float(3)),
            ("3:d", .double(3)),
            ("3:i", .int32(3)),
            ("3:h", .int64(3)),
            ("7:s", .string("7")),
            ("a:f:s", .string("a:f")),
            ("a:b", .string("a:b")),
            ("nyquist", .string("nyquist")),
        ])
    func typing(_ word: String, _ expected: OSCValue) throws {
        #expect(try OSCValue(commandLine: word) == expected)
    }

    @Test("nan is a float NaN")
    func nan() throws {
        guard case .float(let f) = try OSCValue(commandLine: "nan") else {
            Issue.record("not a float")
            return
        }
        #expect(f.isNaN)
    }

    @Test("a forced type that does not fit is refused", arguments: ["1.5:i", "x:f", "99999999999:i", "abc:d"])
    func badForcedType(_ word: String) {
        #expect(throws: OSCArgumentError.self) { try OSCValue(commandLine: word) }
    }

    @Test("replies print as one line each, strings with spaces quoted")
    func printing() {
        let message = OSCMessage(
            path: "/toneshaper/state",
            arguments: [
                .string("frequency/min"), .float(110), .string("wave"), .string("Square Fourier"),
                .string("amplitude"), .float(0.25), .string("fidelity"), .int32(500),
            ])
        #expect(message.description == "/toneshaper/state frequency/min 110 wave \"Square Fourier\" amplitude 0.25 fidelity 500")
    }

    @Test(
        "oscsend (liblo-tools) can drive the node",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/oscsend"), "needs liblo-tools"))
    func oscsend() throws {
        let fixture = try OSCFixture()
        try run("/usr/bin/oscsend", ["127.0.0.1", String(fixture.server.port), "/toneshaper/amplitude", "f", "0.5"])
        #expect(eventually { fixture.controller.shape.amplitude == 0.5 })
        try run("/usr/bin/oscsend", ["localhost", String(fixture.server.port), "/toneshaper/wave", "s", "Sawtooth"])
        #expect(eventually { fixture.controller.shape.wave == .sawtooth })
        try run("/usr/bin/oscsend", ["127.0.0.1", String(fixture.server.port), "/toneshaper/frequency/range", "ii", "55", "110"])
        #expect(eventually { fixture.controller.shape.maxFrequency == 110 })
        try run("/usr/bin/oscsend", ["127.0.0.1", String(fixture.server.port), "/toneshaper/fidelity", "h", "42"])
        #expect(eventually { fixture.controller.shape.fidelity == 42 })
        try run("/usr/bin/oscsend", ["127.0.0.1", String(fixture.server.port), "/toneshaper/amplitude", "d", "0.75"])
        #expect(eventually { fixture.controller.shape.amplitude == 0.75 })
        // oscsend cannot read replies; the server counted one refusal for this one.
        try run("/usr/bin/oscsend", ["127.0.0.1", String(fixture.server.port), "/toneshaper/amplitude", "f", "nan"])
        #expect(eventually { fixture.server.counters.refused == 1 })
        #expect(fixture.controller.shape.amplitude == 0.75)
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
    }
}
