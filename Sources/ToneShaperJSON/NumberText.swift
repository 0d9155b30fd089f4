import CNumberText

/// Numbers typed as text (a command line, a web form), read as Swift's `Double(_: String)`
/// reads them, which Embedded Swift lacks: all of the text is one number in the "C" locale
/// (decimal, hexadecimal, "inf", "nan"), with nothing before or after it.
public enum NumberText {
    /// The number `text` is, or nil.
    public static func double(_ text: String) -> Double? {
        var value = 0.0
        var copy = text
        let read = copy.withUTF8 { bytes -> Int32 in
            // A NUL inside the text would end it early for strtod: not a number.
            guard !bytes.contains(0) else { return 0 }
            var terminated = Array(bytes)
            terminated.append(0)
            return terminated.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { toneshaper_read_whole_number($0.baseAddress!, &value) }
            }
        }
        return read == 1 ? value : nil
    }
}
