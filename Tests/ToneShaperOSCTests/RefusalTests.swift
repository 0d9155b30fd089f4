import Testing
import ToneShaperControl
import ToneShaperWire

@testable import ToneShaperOSC

/// A message that must be refused: the address, its arguments, and words the reason must
/// contain (so a refusal for the wrong reason fails too).
struct BadMessage: Sendable, CustomTestStringConvertible {
    var path: String
    var arguments: [OSCValue]
    var reason: String

    init(_ path: String, _ arguments: [OSCValue] = [], _ reason: String) {
        self.path = path
        self.arguments = arguments
        self.reason = reason
    }

    var testDescription: String {
        let text = "\(path) \(arguments.map(\.description).joined(separator: " "))"
        return text.count > 80 ? String(text.prefix(80)) + "… (\(text.count) characters)" : text
    }
}

private let longString = String(repeating: "x", count: 10_000)

private let badMessages: [BadMessage] = [
    // unknown addresses
    BadMessage("/toneshaper/nope", [], "unknown address"),
    BadMessage("/other/amplitude", [.float(0.5)], "start with /toneshaper/"),
    BadMessage("/toneshaper/*", [], "patterns are not supported"),
    BadMessage("/toneshaper/amplitude/", [.float(0.5)], "unknown address"),
    // wrong arity
    BadMessage("/toneshaper/frequency/min", [], "expects 1 argument"),
    BadMessage("/toneshaper/frequency/min", [.int32(100), .int32(200)], "expects 1 argument"),
    BadMessage("/toneshaper/frequency/range", [.int32(100)], "expects 2 arguments"),
    BadMessage("/toneshaper/echo", [.float(0.5)], "expects 2 arguments"),
    BadMessage("/toneshaper/points", [.int32(0), .int32(220), .int32(1)], "pairs"),
    BadMessage("/toneshaper/state", [.int32(1)], "no arguments"),
    BadMessage("/toneshaper/play", [.int32(1), .int32(2)], "no arguments"),
    BadMessage("/toneshaper/load", [], "expects 1 argument"),
    // wrong type
    BadMessage("/toneshaper/frequency/min", [.string("low")], "expects a number"),
    BadMessage("/toneshaper/amplitude", [.bool(true)], "expects a number"),
    BadMessage("/toneshaper/amplitude", [.null], "got nil"),
    BadMessage("/toneshaper/frequency/range", [.string("a"), .int32(100)], "expects two numbers"),
    BadMessage("/toneshaper/points", [.int32(0), .string("high")], "must be a number"),
    BadMessage("/toneshaper/fidelity", [.float(10.5)], "whole number"),
    BadMessage("/toneshaper/load", [.int32(3)], "expects a document name"),
    BadMessage("/toneshaper/play", [.string("go")], "button"),
    // NaN and infinity
    BadMessage("/toneshaper/amplitude", [.float(.nan)], "finite"),
    BadMessage("/toneshaper/amplitude", [.double(.infinity)], "finite"),
    BadMessage("/toneshaper/frequency/max", [.float(-.infinity)], "finite"),
    BadMessage("/toneshaper/frequency/range", [.float(.nan), .float(440)], "finite"),
    BadMessage("/toneshaper/points", [.int32(0), .float(.infinity)], "finite"),
    BadMessage("/toneshaper/amplitude/db", [.float(.nan)], "finite"),
    BadMessage("/toneshaper/amplitude/db", [.float(-.infinity)], "finite"),
    BadMessage("/toneshaper/wave", [.float(.nan)], "finite"),
    // out of range
    BadMessage("/toneshaper/amplitude", [.float(1.5)], "out of range"),
    BadMessage("/toneshaper/amplitude", [.int32(-1)], "out of range"),
    BadMessage("/toneshaper/frequency/min", [.int32(100_000)], "out of range"),
    BadMessage("/toneshaper/frequency/min", [.int32(500)], "above the maximum"),
    BadMessage("/toneshaper/frequency/range", [.int32(880), .int32(220)], "above maximum"),
    BadMessage("/toneshaper/echo/volume", [.float(1.01)], "out of range"),
    BadMessage("/toneshaper/echo/offset", [.int32(3)], "beyond the cycle"),
    BadMessage("/toneshaper/duration", [.int32(0)], "out of range"),
    BadMessage("/toneshaper/fidelity", [.int32(0)], "out of range"),
    BadMessage("/toneshaper/fourier-terms", [.int32(0)], "at least 1"),
    BadMessage("/toneshaper/anti-alias", [.int32(2)], "0 or 1"),
    BadMessage("/toneshaper/wave", [.int32(7)], "index 0...6"),
    BadMessage("/toneshaper/wave", [.int32(-1)], "index 0...6"),
    BadMessage("/toneshaper/points", [.int32(1), .int32(220), .int32(0), .int32(440)], "sort the points by time"),
    BadMessage("/toneshaper/points", [.int32(0), .int32(220), .int32(5), .int32(440)], "outside"),
    BadMessage("/toneshaper/amplitude/db", [.float(6)], "above full scale"),
    // unknown names
    BadMessage("/toneshaper/wave", [.string("Sinus")], "unknown name"),
    BadMessage("/toneshaper/scale", [.string("Cosine")], "unknown name"),
    BadMessage("/toneshaper/fourier-terms", [.string("many")], "nyquist"),
    // hostile sizes and names
    BadMessage("/toneshaper/wave", [.string(longString)], "10000 bytes"),
    BadMessage("/toneshaper/load", [.string(longString)], "10000 bytes"),
    BadMessage("/toneshaper/load", [.string("../../etc/passwd")], "not a document name"),
    BadMessage("/toneshaper/save", [.string(".hidden")], "not a document name"),
    // services the host did not provide
    BadMessage("/toneshaper/load", [.string("siren")], "not available"),
    BadMessage("/toneshaper/save", [.string("mine")], "not available"),
]

@Suite("Refusals")
struct RefusalTests {
    @Test("a bad message is answered with /error <address> <reason> and changes nothing", arguments: badMessages)
    func refused(_ bad: BadMessage) throws {
        let fixture = try OSCFixture()
        let before = fixture.controller.shape
        let reply = try #require(try fixture.request(bad.path, bad.arguments), "no reply")
        #expect(reply.path == "/toneshaper/error")
        #expect(reply.arguments.count == 2)
        #expect(reply.arguments.first == .string(bad.path))
        let reason = reply.arguments.last?.string ?? ""
        #expect(reason.contains(bad.reason), "reason was: \(reason)")
        #expect(!reason.contains(longString), "the reply must not echo a huge argument")
        #expect(fixture.controller.shape == before)
        #expect(fixture.takeCommands().isEmpty)
        #expect(fixture.controller.isPlaying)
        #expect(fixture.server.counters.refused == 1)
    }

    @Test("a huge address is echoed clipped, not whole")
    func hugeAddress() throws {
        let fixture = try OSCFixture()
        let path = "/toneshaper/" + String(repeating: "a", count: 8_000)
        let reply = try #require(try fixture.request(path, [.int32(1)]))
        #expect(reply.path == "/toneshaper/error")
        let echoed = try #require(reply.arguments.first?.string)
        #expect(echoed.utf8.count < 300 && path.hasPrefix(String(echoed.dropLast())))
    }

    @Test("the node keeps working after every kind of bad message")
    func survivesAll() throws {
        let fixture = try OSCFixture()
        for bad in badMessages { try fixture.client.send(bad.path, bad.arguments) }
        // Replies to the burst are drained; then a good message still works.
        _ = fixture.client.receive(timeout: 0.2)
        #expect(try fixture.request("/toneshaper/amplitude", [.float(0.5)])?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.amplitude == 0.5)
    }

    @Test("malformed and truncated packets are dropped without disturbing the node")
    func garbage() throws {
        let fixture = try OSCFixture()
        let port = fixture.server.port
        var packets: [[UInt8]] = [
            [],
            [0],
            Array("hello".utf8),
            oscString("/toneshaper/amplitude"),  // no type tags
            oscString("/toneshaper/amplitude") + oscString(",f"),  // float missing
            oscString("/toneshaper/amplitude") + oscString(",s") + [0x41, 0x42],  // unterminated string
            oscString("/toneshaper/amplitude") + oscString(",b") + [0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4],  // huge blob size
            oscString("/toneshaper/amplitude") + oscString(",h") + [0, 0, 0, 1],  // short int64
            oscString("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + [0x7F, 0xFF, 0xFF, 0xFF],  // element longer than the packet
            oscString("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 8] + oscString("/x"),
            oscString("#bundle"),
        ]
        var generator = SystemRandomNumberGenerator()
        for length in [1, 3, 4, 8, 17, 64, 333, 1500] {
            packets.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            // Random bytes after a valid-looking address and type tags.
            packets.append(
                oscString("/toneshaper/points") + oscString(",ffffsib")
                    + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for packet in packets { #expect(sendRawDatagram(packet, toPort: port)) }

        // The node is still there, answers, and nothing was applied.
        let reply = try #require(try fixture.request("/toneshaper/state"))
        #expect(reply.path == "/toneshaper/state")
        #expect(fixture.controller.shape == .defaultShape)
        #expect(fixture.takeCommands().isEmpty)
    }
}
