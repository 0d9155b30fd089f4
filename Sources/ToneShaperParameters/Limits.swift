/// Bounds that keep a shape's memory use sane (the curve grid holds fidelity + 2 doubles).
public enum ToneShapeLimits {
    public static let maximumFidelity = 2_000_000
    public static let maximumPoints = 1_000_000
    public static let minimumDuration = 1e-6
    public static let maximumDuration = 24.0 * 3600
    /// The most Fourier partials the kernel sums (its tables' size): a plugin's terms control
    /// spans 0 (every partial below Nyquist) to this.
    public static let maximumPartials = 2048
}

/// The one limit on every frequency a document or a controller may give: the Nyquist
/// frequency of the highest sample rate the node runs at (192 kHz). Frequencies above the
/// running rate's Nyquist are clamped by the kernel, with a warning.
public enum FrequencyLimit {
    public static let maximum = 96_000.0
    public static let range: ClosedRange<Double> = 0...maximum
}
