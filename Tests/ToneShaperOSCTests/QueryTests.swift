import Testing
import ToneShaperControl
import ToneShaperParameters
import ToneShaperWire

@testable import ToneShaperOSC

@Suite("/state and /stats")
struct QueryTests {
    @Test("/state carries every parameter of the table, then playing and points")
    func state() throws {
        let fixture = try OSCFixture()
        #expect(try fixture.request("/toneshaper/wave", [.string("Triangle Fourier")])?.path == "/toneshaper/ok")
        #expect(try fixture.request("/toneshaper/stop")?.path == "/toneshaper/ok")

        let reply = try #require(try fixture.request("/toneshaper/state"))
        #expect(reply.path == "/toneshaper/state")
        #expect(reply.arguments.count == 2 * (ParameterTable.all.count + 1) + 1 + 2 * fixture.controller.shape.points.count)
        let pairs = reply.pairs
        let shape = fixture.controller.shape
        for spec in ParameterTable.all {
            let sent = try #require(pairs[spec.oscPath], "/state lacks \(spec.oscPath)")
            switch shape.parameterValue(spec.id) {
            case .real(let d): #expect(sent == .float(Float(d)), "\(spec.oscPath)")
            case .integer(let i): #expect(sent == .int32(Int32(i)), "\(spec.oscPath)")
            case .text(let s): #expect(sent == .string(s), "\(spec.oscPath)")
            case .flag(let b): #expect(sent == .int32(b ? 1 : 0), "\(spec.oscPath)")
            }
        }
        #expect(pairs["wave"] == .string("Triangle Fourier"))
        #expect(pairs["playing"] == .int32(0))
        // "points", then the points themselves to the end.
        #expect(reply.arguments[2 * (ParameterTable.all.count + 1)] == .string("points"))
        #expect(reply.arguments.suffix(6) == [.float(0), .float(220), .float(1), .float(330), .float(2), .float(220)])
        // Keys come in the table's order.
        #expect(reply.arguments.first == .string(ParameterTable.all[0].oscPath))
        // A query changes nothing.
        #expect(fixture.takeCommands().count == 2)
    }

    @Test("/stats reports what the host's closure returns")
    func stats() throws {
        let figures = NodeStatistics(
            p50: 12.5, p99: 40, p999: 80.25, max: 120, xruns: 2, periods: 1_000_000,
            bufferSize: 256, sampleRate: 48_000, frame: 123_456)
        let fixture = try OSCFixture(services: OSCHostServices(statistics: { figures }))
        let reply = try #require(try fixture.request("/toneshaper/stats"))
        #expect(
            reply
                == OSCMessage(
                    path: "/toneshaper/stats",
                    arguments: [
                        .string("p50"), .float(12.5), .string("p99"), .float(40), .string("p999"), .float(80.25),
                        .string("max"), .float(120), .string("xruns"), .int32(2), .string("periods"), .int32(1_000_000),
                        .string("bufferSize"), .int32(256), .string("sampleRate"), .float(48_000),
                        .string("frame"), .int32(123_456),
                    ]))
    }

    @Test("/stats without an audio engine is an error, not silence")
    func statsWithoutEngine() throws {
        let fixture = try OSCFixture()
        let reply = try #require(try fixture.request("/toneshaper/stats"))
        #expect(reply.path == "/toneshaper/error")
        #expect(reply.arguments.first == .string("/toneshaper/stats"))
    }
}
