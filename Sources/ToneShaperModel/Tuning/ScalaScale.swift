import ToneShaperJSON
import ToneShaperParameters

/// A Scala scale (`.scl`): a description and the pitches of its degrees above the unison,
/// the last of which is the period (the formal octave) the scale repeats at.
///
/// The format, as Scala describes it: lines starting with `!` are comments, anywhere; the
/// first other line is the description (it may be empty); the next the number of pitches;
/// then that many pitch lines. A pitch with a `.` is in cents (negative ones too); otherwise
/// it is a ratio `a/b`, or a whole number `a` (= a/1), both parts positive. Whatever follows
/// the value on its line is ignored. The unison 1/1 is not listed. Where the format leaves
/// a corner open, this reads as Surge XT's tuning library does: blank lines among the
/// pitches are skipped, lines after the last pitch are ignored, and a scale needs at least
/// one pitch.
public struct ScalaScale: Equatable, Sendable {
    /// The description line, as written.
    public var description: String
    /// The degrees 1...count in cents above the unison; the last is the period.
    public var cents: [Double]

    /// The pitches above the unison, the period last.
    public var count: Int { cents.count }
    /// The period in cents (the last degree).
    public var period: Double { cents[cents.count - 1] }

    /// The most pitches a scale may list (Scala's own limit is lower).
    public static let maximumCount = 4096

    public init(description: String, cents: [Double]) {
        precondition(!cents.isEmpty, "a scale has at least one pitch, its period")
        self.description = description
        self.cents = cents
    }

    /// Reads a `.scl` file's text.
    public init(parsing text: String) throws(TuningError) {
        let lines = TuningLines(text).lines.filter { !$0.isComment }
        guard let descriptionLine = lines.first else {
            throw TuningError(.scale, line: 0, "no description line: a scale file has a description, the number of pitches and the pitches")
        }
        description = TuningLines.text(descriptionLine.bytes)
        guard lines.count > 1 else {
            throw TuningError(
                .scale, line: descriptionLine.number + 1, "expected the number of pitches after the description, found the end of the file")
        }
        let countLine = lines[1]
        guard let word = countLine.firstWord, let count = TuningLines.integer(word) else {
            throw TuningError(.scale, line: countLine.number, "expected the number of pitches (a whole number), found \(countLine.quoted)")
        }
        guard count >= 1 && count <= ScalaScale.maximumCount else {
            throw TuningError(
                .scale, line: countLine.number,
                "the number of pitches is \(count); a scale needs 1...\(ScalaScale.maximumCount) (its period at least)")
        }
        var cents: [Double] = []
        for line in lines.dropFirst(2) where cents.count < count {
            guard let word = line.firstWord else { continue }  // a blank line among the pitches
            cents.append(try ScalaScale.pitch(word, line: line))
        }
        guard cents.count == count else {
            throw TuningError(.scale, line: 0, "the file lists \(cents.count) of the \(count) pitches it announces (line \(countLine.number))")
        }
        self.cents = cents
    }

    /// One pitch line's value in cents.
    static func pitch(_ word: [UInt8], line: TuningLines.Line) throws(TuningError) -> Double {
        if word.contains(UInt8(ascii: ".")) {
            guard let value = NumberText.double(TuningLines.text(word)), value.isFinite,
                word.allSatisfy({
                    ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: "+")
                })
            else {
                throw TuningError(.scale, line: line.number, "expected a pitch in cents such as 701.955, found \(line.quoted)")
            }
            return value
        }
        let parts = word.split(separator: UInt8(ascii: "/"), maxSplits: 1, omittingEmptySubsequences: false)
        let numerator = TuningLines.integer(Array(parts[0]))
        let denominator = parts.count > 1 ? TuningLines.integer(Array(parts[1])) : 1
        guard let numerator, let denominator else {
            throw TuningError(
                .scale, line: line.number, "expected a pitch: cents with a '.' (700.0), a ratio (3/2) or a whole number (2), found \(line.quoted)")
        }
        guard numerator > 0 && denominator > 0 else {
            throw TuningError(.scale, line: line.number, "the ratio \(TuningLines.text(word)) is not above 0: both of its numbers must be positive")
        }
        return 1200 * ParameterSpec.log2(Double(numerator) / Double(denominator))
    }

    /// The pitch of degree `degree` (any whole number: 0 is the unison, `count` the period,
    /// beyond and below it repeats by the period) in cents above the unison.
    public func cents(ofDegree degree: Int) -> Double {
        let n = cents.count
        var periods = degree / n
        var step = degree % n
        if step < 0 {
            step += n
            periods -= 1
        }
        let within = step == 0 ? 0 : cents[step - 1]
        return periods == 0 ? within : Double(periods) * period + within
    }
}
