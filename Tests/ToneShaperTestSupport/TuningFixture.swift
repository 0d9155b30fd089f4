import Foundation

/// A tuning the plugins' and the node's front-end tests load: 19-EDO as a Scala file, and
/// what it makes key root + 12 play (2^(12/19) of the root's pitch, where 12-TET plays an
/// octave).
public enum TuningFixture {
    /// 19 equal steps to the octave, in cents, the period as a ratio.
    public static let nineteenEDO =
        "! 19-edo.scl\n19 equal divisions of the octave\n19\n"
        + (1...18).map { String(format: "%.5f", Double($0) * 1200 / 19) }.joined(separator: "\n")
        + "\n2/1\n"
    /// A keyboard map of twelve keys whose formal octave is degree 19, degree 0 on key 69.
    public static let twelveKeyMap =
        "! twelve.kbm\n12\n0\n127\n69\n69\n440.0\n19\n" + [0, 2, 3, 5, 6, 8, 10, 11, 13, 14, 16, 17].map(String.init).joined(separator: "\n") + "\n"

    /// The pitch a steady 440 Hz shape rooted at 69 plays on `key` under 19-EDO.
    public static func nineteenEDOPitch(key: Int) -> Double { 440 * pow(2, Double(key - 69) / 19) }

    /// How far `measured` is from `expected`, in cents.
    public static func cents(_ measured: Double, from expected: Double) -> Double { 1200 * log2(measured / expected) }

    /// The pitch of `samples` (48 kHz) over their last `seconds`, by zero crossings, and its
    /// error from `expected` in cents (printed, for the report).
    public static func pitchError(_ label: String, _ samples: [Float], expected: Double, seconds: Double = 0.25) -> Double? {
        let length = Int(seconds * 48_000)
        guard samples.count > length,
            let f = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48_000, range: (samples.count - length)..<samples.count)
        else { return nil }
        let error = cents(f, from: expected)
        print(
            "tuning pitch: \(label): \(String(format: "%.3f", f)) Hz, expected \(String(format: "%.3f", expected)) Hz, \(String(format: "%+.4f", error)) cents"
        )
        return error
    }
}
