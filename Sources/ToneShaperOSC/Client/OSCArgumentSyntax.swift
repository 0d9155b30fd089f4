import ToneShaperWire

/// A command-line word that cannot be turned into an OSC argument.
public struct OSCArgumentError: Error, Equatable, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension OSCValue {
    /// Reads a command-line word as an OSC argument, typed by its look:
    ///
    /// - an integer literal (`440`, `-3`) is an int32 (an int64 beyond int32's range);
    /// - a number with a point or an exponent, or `inf`/`nan` (`0.5`, `1e3`, `-inf`), is a float;
    /// - anything else is a string (`Square`, `siren`).
    ///
    /// A suffix forces the type: `3:f` (float), `3:d` (double), `3:i` (int32), `3:h` (int64),
    /// `7:s` (the string "7"). To send a string that itself ends in such a suffix, add
    /// `:s` (`a:f:s` is the string "a:f").
    public init(commandLine word: String) throws(OSCArgumentError) {
        if let colon = word.lastIndex(of: ":"), word.index(after: colon) != word.endIndex,
            word[word.index(after: colon)...].count == 1, let tag = word.last, "ifdhs".contains(tag)
        {
            let body = String(word[..<colon])
            func fail(_ what: String) -> OSCArgumentError {
                OSCArgumentError("\"\(word)\": \"\(body)\" is not \(what) (write \(word):s to send it as a string)")
            }
            switch tag {
            case "s": self = .string(body)
            case "i":
                guard let n = Int32(body) else { throw fail("a whole number in the int32 range") }
                self = .int32(n)
            case "h":
                guard let n = Int64(body) else { throw fail("a whole number in the int64 range") }
                self = .int64(n)
            case "f":
                guard let d = OSCValue.decimal(body) else { throw fail("a number") }
                self = .float(Float(d))
            default:
                guard let d = OSCValue.decimal(body) else { throw fail("a number") }
                self = .double(d)
            }
            return
        }
        if word.allSatisfy({ $0.isASCIIDigit || $0 == "-" || $0 == "+" }), let n = Int64(word) {
            self = Int32(exactly: n).map(OSCValue.int32) ?? .int64(n)
        } else if let d = OSCValue.decimal(word) {
            self = .float(Float(d))
        } else {
            self = .string(word)
        }
    }

    /// A decimal number (not hex, which Double(_:) would also take).
    private static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, !text.contains(where: { $0 == "x" || $0 == "X" || $0 == "p" || $0 == "P" }) else { return nil }
        return Double(text)
    }
}
