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

    public init(
        p50: Double = 0, p99: Double = 0, p999: Double = 0, max: Double = 0, xruns: Int = 0,
        periods: Int = 0, bufferSize: Int = 0, sampleRate: Double = 0
    ) {
        self.p50 = p50
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.xruns = xruns
        self.periods = periods
        self.bufferSize = bufferSize
        self.sampleRate = sampleRate
    }
}
