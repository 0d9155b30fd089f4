import ToneShaperJSON
import ToneShaperParameters

/// What a user types for a point's frequency and time (the editors' exact entry): a
/// frequency in Hz (`443.05`, `443.05 Hz`, `1.2k`, `1.2 kHz`) or a note name with an
/// optional octave offset in cents (`A4`, `A4+12`, `C#3-5`, `Bb2`, `C-1`; A4 is the
/// reference, 440 Hz unless told), and a time in seconds (`0.25`, `0.25 s`, `250 ms`).
/// Read in bytes with the standard library alone (Embedded Swift reads it too).
public enum PitchText {
    /// Why a text is not a frequency or a time: the text and what was expected.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var text: String
        public var expected: String
        public var description: String { "\"" + text + "\" is not " + expected }
    }

    /// The frequency `text` names, in Hz (finite and above 0).
    public static func frequency(_ text: String, reference: Double = 440) throws(Problem) -> Double {
        let trimmed = trimmedBytes(text)
        let problem = Problem(
            text: String(decoding: trimmed, as: UTF8.self), expected: "a frequency (443.05, 443.05 Hz, 1.2 kHz) or a note (A4+12, C#3-5, Bb2)")
        guard let first = trimmed.first else { throw problem }
        if let value = note(trimmed, reference: reference) { return value }
        guard first != UInt8(ascii: "-"), first != UInt8(ascii: "+") else { throw problem }
        let (number, unit) = splitUnit(trimmed)
        var scale = 1.0
        if unit == "khz" || unit == "k" {
            scale = 1000
        } else if !(unit.isEmpty || unit == "hz") {
            throw problem
        }
        guard let value = NumberText.double(String(decoding: number, as: UTF8.self)), value.isFinite, value > 0 else { throw problem }
        return value * scale
    }

    /// The time `text` names, in seconds (finite, 0 or more).
    public static func time(_ text: String) throws(Problem) -> Double {
        let trimmed = trimmedBytes(text)
        let problem = Problem(text: String(decoding: trimmed, as: UTF8.self), expected: "a time (0.25, 0.25 s, 250 ms)")
        let (number, unit) = splitUnit(trimmed)
        let scale: Double
        switch unit {
        case "", "s": scale = 1
        case "ms": scale = 0.001
        default: throw problem
        }
        guard let value = NumberText.double(String(decoding: number, as: UTF8.self)), value.isFinite, value >= 0 else { throw problem }
        return value * scale
    }

    /// 2^(semitones / 12).
    public static func ratio(semitones: Double) -> Double { FastPower.exp2(semitones / 12) }

    /// The note name nearest `frequency` with its offset in cents (`A4`, `A4+12`, `C#3-5`),
    /// rounded to whole cents: what the editors show beside a point's frequency.
    public static func noteName(_ frequency: Double, reference: Double = 440) -> String {
        guard frequency.isFinite, frequency > 0 else { return "" }
        let cents = (1200 * ParameterSpec.log2(frequency / reference) + 6900).rounded()
        var note = Int((cents / 100).rounded())
        var offset = Int(cents) - note * 100
        if offset == -50 {
            note -= 1
            offset = 50
        }
        let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        let pitchClass = ((note % 12) + 12) % 12
        let octave = (note - pitchClass) / 12 - 1
        var text = names[pitchClass] + String(octave)
        if offset != 0 { text += (offset > 0 ? "+" : "") + String(offset) }
        return text
    }

    // MARK: - Reading

    /// A note name (letter, accidentals, octave, optional cents) or nil when `bytes` is not one.
    static func note(_ bytes: [UInt8], reference: Double) -> Double? {
        var i = 0
        func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }
        guard let letter = peek() else { return nil }
        let semitoneOf: [UInt8: Int] = [
            UInt8(ascii: "C"): 0, UInt8(ascii: "D"): 2, UInt8(ascii: "E"): 4, UInt8(ascii: "F"): 5, UInt8(ascii: "G"): 7, UInt8(ascii: "A"): 9,
            UInt8(ascii: "B"): 11,
        ]
        // Upper case, as note names are written (a lower-case "b" is a flat).
        guard var semitone = semitoneOf[letter] else { return nil }
        i += 1
        while let c = peek(), c == UInt8(ascii: "#") || c == UInt8(ascii: "b") {
            semitone += c == UInt8(ascii: "#") ? 1 : -1
            i += 1
        }
        guard let octave = integer(bytes, &i, signed: true) else { return nil }
        var cents = 0.0
        if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            i += 1
            var end = i
            while end < bytes.count, bytes[end] == UInt8(ascii: ".") || (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9")) {
                end += 1
            }
            guard end > i, let value = NumberText.double(String(decoding: bytes[i..<end], as: UTF8.self)) else { return nil }
            cents = sign == UInt8(ascii: "+") ? value : -value
            i = end
            // An optional unit: "c", "ct", "cents".
            let unit = String(decoding: bytes[i...].filter { $0 != UInt8(ascii: " ") }, as: UTF8.self)
            guard unit.isEmpty || unit == "c" || unit == "ct" || unit == "cents" else { return nil }
            i = bytes.count
        }
        guard i == bytes.count, abs(octave) <= 20 else { return nil }
        let midi = Double(12 * (octave + 1) + semitone)
        return reference * FastPower.exp2((midi - 69) / 12 + cents / 1200)
    }

    /// Digits at `i` (after a `-` when `signed`), or nil when there are none.
    static func integer(_ bytes: [UInt8], _ i: inout Int, signed: Bool) -> Int? {
        var j = i
        var negative = false
        if signed, j < bytes.count, bytes[j] == UInt8(ascii: "-") {
            negative = true
            j += 1
        }
        var value = 0
        let start = j
        while j < bytes.count, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9"), value < 1000 {
            value = value * 10 + Int(bytes[j] - UInt8(ascii: "0"))
            j += 1
        }
        guard j > start else { return nil }
        i = j
        return negative ? -value : value
    }

    /// The text without the spaces at either end.
    static func trimmedBytes(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        var start = 0
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        return Array(bytes[start...])
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }

    /// The number and its unit (letters at the end, lower case, spaces before them dropped).
    static func splitUnit(_ bytes: [UInt8]) -> (number: [UInt8], unit: String) {
        var end = bytes.count
        while end > 0, isLetter(bytes[end - 1]) { end -= 1 }
        var unit = Array(bytes[end...])
        for k in unit.indices where unit[k] >= UInt8(ascii: "A") && unit[k] <= UInt8(ascii: "Z") { unit[k] += 32 }
        var number = Array(bytes[..<end])
        while let last = number.last, isSpace(last) { number.removeLast() }
        // "1e3" and "inf" are numbers, not units: only a known unit is split off.
        let known = ["hz", "khz", "k", "s", "ms"]
        let text = String(decoding: unit, as: UTF8.self)
        guard known.contains(text), !number.isEmpty else { return (bytes, "") }
        return (number, text)
    }

    static func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
}
