import Testing
import ToneShaperControl
import ToneShaperModel

@testable import ToneShaperOSC

/// Controllers that listen on another port than they send from: `/subscribe` pushes every
/// change that lands, from anyone, coalesced, until `/unsubscribe`.
@Suite("Subscriptions")
struct SubscriptionTests {
    @Test("a subscriber gets the whole state, then every change anyone makes, at the parameter's address")
    func pushes() throws {
        let fixture = try OSCFixture()
        let listener = try Self.listener(fixture)
        let ok = try #require(try fixture.request("/toneshaper/subscribe", [.int32(Int32(listener.localPort))]))
        #expect(ok.path == "/toneshaper/ok", "\(ok.arguments)")
        let first = listener.receive(timeout: 30) { $0.contains { $0.path == "/toneshaper/state" } }
        let state = try #require(first.first { $0.path == "/toneshaper/state" })
        #expect(state.pairs["amplitude"] == .float(Float(ToneShape.defaultShape.amplitude)))

        // A change made by another front end (the controller directly, as MIDI or the web would).
        try fixture.controller.perform(.set(.amplitude, .real(0.2)))
        try fixture.controller.perform(.setPoints([0, 300, 2, 400]))
        let pushed = listener.receive(timeout: 30) { messages in
            messages.contains { $0.path == "/toneshaper/amplitude" } && messages.contains { $0.path == "/toneshaper/points" }
        }
        #expect(pushed.first { $0.path == "/toneshaper/amplitude" }?.arguments == [.float(0.2)])
        #expect(pushed.first { $0.path == "/toneshaper/points" }?.arguments == [.float(0), .float(300), .float(2), .float(400)])

        // Unsubscribed: nothing more arrives.
        #expect(try fixture.request("/toneshaper/unsubscribe", [.int32(Int32(listener.localPort))])?.path == "/toneshaper/ok")
        try fixture.controller.perform(.set(.amplitude, .real(0.1)))
        #expect(listener.receive(timeout: 0.3).isEmpty)
    }

    @Test("a burst of changes is coalesced to about 30 a second, and the last value arrives")
    func coalesced() throws {
        let fixture = try OSCFixture()
        let listener = try Self.listener(fixture)
        _ = try fixture.request("/toneshaper/subscribe", [.int32(Int32(listener.localPort))])
        _ = listener.receive(timeout: 30) { $0.contains { $0.path == "/toneshaper/state" } }
        let started = monotonicSeconds()
        for i in 1...300 { try fixture.controller.perform(.set(.amplitude, .real(Double(i) / 1000))) }
        let elapsed = monotonicSeconds() - started
        let pushed = listener.receive(timeout: 1).filter { $0.path == "/toneshaper/amplitude" }
        #expect(pushed.last?.arguments == [.float(0.3)])
        #expect(Double(pushed.count) <= (elapsed + 1) * 30 + 2, "\(pushed.count) pushes in \(elapsed) s")
    }

    @Test("the table of subscribers is bounded, and a host outside the policy cannot subscribe")
    func bounded() throws {
        let fixture = try OSCFixture()
        // Ports below Linux's ephemeral range (32768 and up): a subscriber port that happened
        // to be this client's own would get the state pushes, and a request's first reply
        // would be one of them instead of /ok.
        for port in 0..<OSCSubscriptions.maximum {
            #expect(try fixture.request("/toneshaper/subscribe", [.int32(Int32(20_000 + port))])?.path == "/toneshaper/ok")
        }
        let full = try #require(try fixture.request("/toneshaper/subscribe", [.int32(19_999)]))
        #expect(full.path == "/toneshaper/error")
        #expect(full.arguments.last?.string?.contains("subscribed already") == true)
        // Subscribing again is harmless, even when full.
        #expect(try fixture.request("/toneshaper/subscribe", [.int32(20_000)])?.path == "/toneshaper/ok")
        let stranger = try #require(try fixture.request("/toneshaper/subscribe", [.int32(9999), .string("192.0.2.7")]))
        #expect(stranger.path == "/toneshaper/error")
        let bad = try #require(try fixture.request("/toneshaper/subscribe", [.string("x")]))
        #expect(bad.path == "/toneshaper/error")
    }

    /// A client that only listens (its socket is bound once it has sent something).
    static func listener(_ fixture: OSCFixture) throws -> OSCClient {
        let client = try OSCClient(host: "127.0.0.1", port: fixture.server.port)
        _ = try client.request("/toneshaper/stats")
        #expect(client.localPort != 0)
        return client
    }

    @Test("/state carries the points, and /points alone replies them")
    func pointsReadBack() throws {
        let fixture = try OSCFixture()
        let state = try #require(try fixture.request("/toneshaper/state"))
        let index = try #require(state.arguments.firstIndex(of: .string("points")))
        #expect(Array(state.arguments[(index + 1)...]) == [.float(0), .float(220), .float(1), .float(330), .float(2), .float(220)])
        let points = try #require(try fixture.request("/toneshaper/points"))
        #expect(points.path == "/toneshaper/points")
        #expect(points.arguments.count == 6)
    }
}
