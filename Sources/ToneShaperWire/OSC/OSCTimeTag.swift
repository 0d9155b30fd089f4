#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An OSC time tag: NTP seconds since 1900 and a binary fraction of a second.
public struct OSCTimeTag: Equatable, Sendable {
    public var seconds: UInt32
    public var fraction: UInt32

    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    /// {0, 1}: "at once", what plain messages carry.
    public static let immediate = OSCTimeTag(seconds: 0, fraction: 1)

    /// Seconds between 1900-01-01 (NTP) and 1970-01-01 (Unix).
    public static let unixEpochOffset: Double = 2_208_988_800

    public var isImmediate: Bool { self == .immediate }

    /// Wall-clock seconds since 1970, as `TimedCommand.due` wants them.
    public var unixSeconds: Double {
        Double(seconds) - OSCTimeTag.unixEpochOffset + Double(fraction) / 4_294_967_296
    }

    /// The tag for a wall-clock time in seconds since 1970.
    public init(unixSeconds: Double) {
        let ntp = max(0, unixSeconds + OSCTimeTag.unixEpochOffset)
        let whole = ntp.rounded(.down)
        seconds = UInt32(clamping: Int64(whole))
        fraction = UInt32(clamping: Int64(((ntp - whole) * 4_294_967_296).rounded(.down)))
    }

    /// Now, by the wall clock (CLOCK_REALTIME, the clock OSC time tags are read against).
    public static var now: OSCTimeTag { OSCTimeTag(unixSeconds: wallClock()) }

    /// Wall-clock seconds since 1970.
    public static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
