import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperWire

@testable import ToneShaperOSC

@Suite("Bundle time tags")
struct TimeTagTests {
    @Test("NTP time tags convert to Unix seconds and back")
    func conversion() {
        // 2024-01-01T00:00:00Z is 1704067200 Unix, 3913056000 NTP.
        #expect(OSCTimeTag(seconds: 3_913_056_000, fraction: 0).unixSeconds == 1_704_067_200)
        #expect(OSCTimeTag(seconds: 3_913_056_000, fraction: 1 << 31).unixSeconds == 1_704_067_200.5)
        #expect(OSCTimeTag(unixSeconds: 1_704_067_200.25) == OSCTimeTag(seconds: 3_913_056_000, fraction: 1 << 30))
        #expect(OSCTimeTag.immediate.isImmediate)
    }

    @Test("a future bundle is handled at once and its command carries the due time")
    func futureBundle() throws {
        let fixture = try OSCFixture()
        let due = OSCTimeTag.wallClock() + 5
        let tag = OSCTimeTag(unixSeconds: due)
        let sent = monotonicSeconds()
        let reply = try #require(try fixture.request("/toneshaper/amplitude", [.float(0.5)], at: tag))
        // liblo's own queue would have held it for 5 s.
        #expect(monotonicSeconds() - sent < 2)
        #expect(reply.path == "/toneshaper/ok")
        let commands = fixture.takeCommands()
        #expect(commands.count == 1)
        let command = try #require(commands.first)
        guard case .ramp(.amplitude, 0.5) = command.command else {
            Issue.record("got \(command.command)")
            return
        }
        let carried = try #require(command.dueSeconds)
        #expect(abs(carried - tag.unixSeconds) < 1e-6)
        #expect(abs(carried - due) < 1e-6)
    }

    @Test("a bundle whose time has passed applies at once (due nil)")
    func pastBundle() throws {
        let fixture = try OSCFixture()
        let tag = OSCTimeTag(unixSeconds: OSCTimeTag.wallClock() - 1)
        #expect(try fixture.request("/toneshaper/stop", at: tag)?.path == "/toneshaper/ok")
        let commands = fixture.takeCommands()
        #expect(commands.count == 1 && commands[0].dueSeconds == nil)
    }

    @Test("a bundle too far ahead is refused rather than left to clog the audio queue")
    func farFutureBundle() throws {
        let fixture = try OSCFixture()
        let tag = OSCTimeTag(unixSeconds: OSCTimeTag.wallClock() + 3600)
        let reply = try #require(try fixture.request("/toneshaper/amplitude", [.float(0.5)], at: tag))
        #expect(reply.path == "/toneshaper/error")
        #expect(reply.arguments.last?.string?.contains("too far") == true)
        #expect(fixture.takeCommands().isEmpty)
        #expect(fixture.controller.shape.amplitude == ToneShape.defaultShape.amplitude)
    }

    @Test("a future /points keeps its due time on the new plan")
    func futurePlan() throws {
        let fixture = try OSCFixture()
        let tag = OSCTimeTag(unixSeconds: OSCTimeTag.wallClock() + 1)
        #expect(try fixture.request("/toneshaper/wave", [.string("Square")], at: tag)?.path == "/toneshaper/ok")
        let command = try #require(fixture.takeCommands().first)
        #expect(command.command.replacesPlan)
        #expect(abs((command.dueSeconds ?? 0) - tag.unixSeconds) < 1e-6)
    }
}
