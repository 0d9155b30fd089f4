/// How many Fourier partials a Fourier wave sums (SPEC 4).
public enum FourierTerms: Equatable, Sendable, CustomStringConvertible {
    case count(Int)
    /// As many as fit below the Nyquist frequency at the instantaneous frequency.
    case nyquist

    public static let `default` = FourierTerms.count(3)
    /// A count large enough to mean "all of them": partials at or above Nyquist are dropped
    /// sample by sample anyway, so `.nyquist` is `.count(unbounded)`.
    static let unbounded = Int(Int32.max)

    public var limit: Int {
        switch self {
        case .count(let n): return n
        case .nyquist: return FourierTerms.unbounded
        }
    }

    public var description: String {
        switch self {
        case .count(let n): return String(n)
        case .nyquist: return "nyquist"
        }
    }
}
