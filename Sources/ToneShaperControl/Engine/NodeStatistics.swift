/// What `/toneshaper/stats` reports about the process callback.
public struct NodeStatistics: Equatable, Sendable {
    /// Callback time per period, in microseconds.
    public var p50: Double
    public var p99: Double
    public var p999: Double
    public var max: Double
    /// Xruns the server reported while the node ran.
    public var xruns: Int
    /// Process callbacks run.
    public var periods: Int
    /// The period size, in frames, and the sample rate, for judging the figures above.
    public var bufferSize: Int
    public var sampleRate: Double
    /// JACK's frame time at the start of the latest period, modulo 2^31 (so it is one OSC
    /// int and one JSON integer alike; it wraps every 12 hours at 48 kHz): a client places
    /// what it sent on the server's timeline with it, since every period started at or
    /// before this frame when the reply was made.
    public var frame: Int

    public init(
        p50: Double = 0, p99: Double = 0, p999: Double = 0, max: Double = 0, xruns: Int = 0,
        periods: Int = 0, bufferSize: Int = 0, sampleRate: Double = 0, frame: Int = 0
    ) {
        self.p50 = p50
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.xruns = xruns
        self.periods = periods
        self.bufferSize = bufferSize
        self.sampleRate = sampleRate
        self.frame = frame
    }
}
