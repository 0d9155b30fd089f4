/// One point of a drawn frequency curve: time in seconds, frequency in Hz.
public struct CurvePoint: Equatable, Hashable, Sendable {
    public var time: Double
    public var frequency: Double
    public init(time: Double, frequency: Double) {
        self.time = time
        self.frequency = frequency
    }
}
