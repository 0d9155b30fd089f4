/// The affine frequency map f' = offset + slope * f that a range change applies.
public struct FrequencyMap: Equatable, Sendable, BitwiseCopyable {
    public var offset: Double
    public var slope: Double

    public static let identity = FrequencyMap(offset: 0, slope: 1)

    @inlinable
    public init(offset: Double, slope: Double) {
        self.offset = offset
        self.slope = slope
    }

    @inlinable
    public init(fromMin: Double, fromMax: Double, toMin: Double, toMax: Double) {
        if fromMax > fromMin {
            slope = (toMax - toMin) / (fromMax - fromMin)
            offset = toMin - fromMin * slope
        } else {
            slope = 1
            offset = toMin - fromMin
        }
    }

    @inlinable @inline(__always) public func apply(_ f: Double) -> Double { offset + slope * f }
}
