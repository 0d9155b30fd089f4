/// Where one JACK period sits in wall-clock time, so that a command's due time (Unix
/// seconds, from an OSC time tag) becomes a sample offset inside the period (SPEC 12):
/// offset = rint((due - start) * nframes / (next_usecs - current_usecs)).
///
/// Plain arithmetic only: it is used on the audio thread.
public struct PeriodClock: Sendable {
    /// Wall-clock microseconds since 1970 of the period's first frame: JACK's
    /// `current_usecs` plus the published wall-minus-JACK offset.
    public var startMicros: Double
    /// Microseconds per frame in this period ((next_usecs - current_usecs) / nframes).
    public var microsPerFrame: Double

    public init(startMicros: Double, microsPerFrame: Double) {
        self.startMicros = startMicros
        self.microsPerFrame = microsPerFrame
    }

    /// The frame offset from the period's start at which wall-clock time `micros` falls,
    /// rounded to the nearest frame (as `rint` does). Negative for the past; kept a Double
    /// so that a time tag far away never overflows an Int.
    @inline(__always)
    public func frameOffset(ofMicros micros: Double) -> Double {
        let x = (micros - startMicros) / microsPerFrame
        // Round half to even by adding and taking away 1.5 * 2^52 (exact below 2^51); a
        // value that large is many periods away and needs no rounding.
        guard abs(x) < 0x1p51 else { return x }
        return (x + 0x1.8p52) - 0x1.8p52
    }
}
