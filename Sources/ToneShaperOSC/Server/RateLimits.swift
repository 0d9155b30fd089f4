#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on a monotonic clock, for rate limits (the wall clock may jump).
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
struct TokenBucket: Sendable {
    let rate: Double
    let burst: Double
    private(set) var tokens: Double
    private var last: Double

    init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        last = now
    }

    /// Takes one token if there is one.
    mutating func take(now: Double) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Whether the bucket has refilled completely, i.e. forgetting it changes nothing.
    mutating func isFull(now: Double) -> Bool {
        refill(now: now)
        return tokens >= burst
    }

    private mutating func refill(now: Double) {
        if now > last { tokens = min(burst, tokens + (now - last) * rate) }
        last = max(last, now)
    }
}

/// Error replies allowed per sender. The table of senders is bounded: a flood with forged
/// sources must not grow memory, so when it is full, senders whose buckets have refilled
/// are forgotten, and if none has, new senders share one overflow bucket.
struct ReplyLimiter: Sendable {
    let rate: Double
    let burst: Double
    let maximumSenders: Int
    private var buckets: [String: TokenBucket] = [:]
    private var overflow: TokenBucket
    /// Replies not sent because of the limit, since the start.
    private(set) var suppressed = 0

    init(rate: Double, burst: Double, maximumSenders: Int = 1024, now: Double = monotonicSeconds()) {
        self.rate = rate
        self.burst = burst
        self.maximumSenders = maximumSenders
        overflow = TokenBucket(rate: rate, burst: burst, now: now)
    }

    mutating func allow(sender: String, now: Double = monotonicSeconds()) -> Bool {
        let allowed: Bool
        if buckets[sender] != nil {
            allowed = buckets[sender]!.take(now: now)
        } else {
            if buckets.count >= maximumSenders {
                buckets = buckets.filter { _, bucket in
                    var b = bucket
                    return !b.isFull(now: now)
                }
            }
            if buckets.count < maximumSenders {
                var bucket = TokenBucket(rate: rate, burst: burst, now: now)
                allowed = bucket.take(now: now)
                buckets[sender] = bucket
            } else {
                allowed = overflow.take(now: now)
            }
        }
        if !allowed { suppressed += 1 }
        return allowed
    }
}

/// At most `linesPerSecond` log lines in each one-second window; the rest are counted
/// and reported in one summary line when the next window opens.
struct LogThrottle: Sendable {
    let linesPerSecond: Int
    private var windowStart = -Double.infinity
    private var linesInWindow = 0
    private var suppressedInWindow = 0

    init(linesPerSecond: Int) {
        self.linesPerSecond = linesPerSecond
    }

    enum Decision: Equatable {
        /// Log the line; if `suppressedBefore` > 0, first say that many lines were suppressed.
        case log(suppressedBefore: Int)
        case suppress
    }

    mutating func decide(now: Double = monotonicSeconds()) -> Decision {
        var suppressedBefore = 0
        if now - windowStart >= 1 {
            suppressedBefore = suppressedInWindow
            windowStart = now
            linesInWindow = 0
            suppressedInWindow = 0
        }
        guard linesInWindow < linesPerSecond else {
            suppressedInWindow += 1
            return .suppress
        }
        linesInWindow += 1
        return .log(suppressedBefore: suppressedBefore)
    }

    /// Lines suppressed in the current window and not yet reported (for a last summary
    /// when the server stops).
    mutating func drainSuppressed() -> Int {
        defer { suppressedInWindow = 0 }
        return suppressedInWindow
    }
}
