/// Bounds that keep a shape's memory use sane (the curve grid holds fidelity + 2 doubles).
public enum ToneShapeLimits {
    public static let maximumFidelity = 2_000_000
    public static let maximumPoints = 1_000_000
    public static let minimumDuration = 1e-6
    public static let maximumDuration = 24.0 * 3600
}
