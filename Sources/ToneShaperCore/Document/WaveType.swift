import ToneShaperDSP

// WaveType and ScaleType are declared with the render kernel's plain data (ToneShaperDSP);
// users type them by name.
extension WaveType: NamedChoice {}
extension ScaleType: NamedChoice {}

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

    public init?(text: String) {
        if text.lowercased() == "nyquist" {
            self = .nyquist
            return
        }
        guard let n = Int(text), n >= 1 else { return nil }
        self = .count(n)
    }

    public var description: String {
        switch self {
        case .count(let n): return String(n)
        case .nyquist: return "nyquist"
        }
    }
}

/// A choice among named cases (wave types, scale types) that users type.
public protocol NamedChoice: CaseIterable, Equatable, RawRepresentable where RawValue == String {}

extension NamedChoice {
    /// Matches a name case-insensitively, also accepting `-`/`_` for the space
    /// ("square-fourier" is easier to type on a command line than "Square Fourier").
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { nameKey($0.rawValue) == nameKey(name) }) else { return nil }
        self = match
    }

}

func nameKey(_ s: String) -> String {
    String(s.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 })
        .split(separator: " ").joined(separator: " ")
}

// Documents store waves and scalings by name; the DSP module, which Embedded Swift compiles
// too, has no Codable.
extension WaveType: Codable {}
extension ScaleType: Codable {}
