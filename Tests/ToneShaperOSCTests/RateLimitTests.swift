import Testing

@testable import ToneShaperOSC

@Suite("Rate limits")
struct RateLimitTests {
    @Test("a token bucket gives its burst, then its rate")
    func tokenBucket() {
        var bucket = TokenBucket(rate: 10, burst: 3, now: 100)
        // (#expect cannot call mutating methods: results are taken first.)
        let burst = (0..<5).filter { _ in bucket.take(now: 100) }.count
        // (Binary fractions of a second, so the refill sums are exact.)
        let tooSoon = bucket.take(now: 100.0625)  // 0.625 tokens
        let refilled = bucket.take(now: 100.125)  // 1.25 tokens
        let again = bucket.take(now: 100.125)  // 0.25 tokens
        // A long pause refills to the burst, not beyond.
        let afterPause = (0..<10).filter { _ in bucket.take(now: 200) }.count
        #expect(burst == 3)
        #expect(!tooSoon && refilled && !again)
        #expect(afterPause == 3)
    }

    @Test("error replies are limited per sender, and the table of senders stays bounded")
    func perSender() {
        var limiter = ReplyLimiter(rate: 1, burst: 2, maximumSenders: 2, now: 0)
        let a = (0..<3).map { _ in limiter.allow(sender: "a", now: 0) }
        let b = limiter.allow(sender: "b", now: 0)  // another sender has its own bucket
        // The table is full of senders that have not refilled: newcomers share one bucket.
        let newcomers = ["c", "d", "e"].map { limiter.allow(sender: $0, now: 0) }
        // Once the old buckets have refilled they are forgotten and newcomers get their own.
        let later = (0..<2).map { _ in limiter.allow(sender: "f", now: 10) }
        #expect(a == [true, true, false])
        #expect(b)
        #expect(newcomers == [true, true, false])
        #expect(later == [true, true])
        #expect(limiter.suppressed == 2)
    }

    @Test("log lines are capped per second, and the next window reports how many were dropped")
    func logThrottle() {
        var throttle = LogThrottle(linesPerSecond: 5)
        let first = (0..<20).map { _ in throttle.decide(now: 1) }
        let nextWindow = throttle.decide(now: 2.5)
        let following = throttle.decide(now: 2.6)
        _ = (0..<10).map { _ in throttle.decide(now: 2.7) }
        let pending = throttle.drainSuppressed()
        #expect(first.filter { $0 != .suppress }.count == 5)
        #expect(nextWindow == .log(suppressedBefore: 15))
        #expect(following == .log(suppressedBefore: 0))
        #expect(pending == 7)
    }

    @Test("a flood of 5000 bad messages gets at most the limiter's share of replies")
    func flood() throws {
        let fixture = try OSCFixture()
        let start = monotonicSeconds()
        for i in 0..<5_000 {
            try fixture.client.send("/toneshaper/flood", [.int32(Int32(i))])
        }
        // Collect replies until the node has had everything and nothing more arrives.
        var replies = fixture.client.receive(timeout: 1)
        while true {
            let more = fixture.client.receive(timeout: 0.3)
            if more.isEmpty { break }
            replies += more
        }
        let elapsed = monotonicSeconds() - start
        let counters = fixture.server.counters
        let configuration = fixture.server.configuration
        let allowance = configuration.errorReplyBurst + configuration.errorRepliesPerSecond * elapsed + 1

        #expect(replies.allSatisfy { $0.path == "/toneshaper/error" })
        #expect(!replies.isEmpty)
        // What the node sent (the client may miss some under load, so count on both sides).
        let sent = counters.refused - counters.suppressedReplies
        #expect(Double(sent) <= allowance, "\(sent) replies sent in \(elapsed) s")
        #expect(replies.count <= sent)
        // The node saw (nearly) the whole flood and held most replies back.
        #expect(counters.refused > 2_000, "only \(counters.refused) of the flood arrived")
        #expect(sent < 5_000 / 4)

        // Errors are limited, acknowledgements are not: a good message still gets through.
        #expect(try fixture.request("/toneshaper/amplitude", [.float(0.5)])?.path == "/toneshaper/ok")
    }
}
