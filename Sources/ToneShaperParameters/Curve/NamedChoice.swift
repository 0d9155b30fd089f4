// WaveType and ScaleType are declared beside this (WaveAndScaleTypes.swift);
// users type them by name.
extension WaveType: NamedChoice {}
extension ScaleType: NamedChoice {}

extension FourierTerms {
    /// A count of at least 1, or "nyquist" in any case.
    public init?(text: String) {
        if text.lowercased() == "nyquist" {
            self = .nyquist
            return
        }
        guard let n = Int(text), n >= 1 else { return nil }
        self = .count(n)
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
