import ToneShaperJSON

/// A Scala keyboard mapping (`.kbm`): which scale degree each MIDI key plays.
///
/// The format: lines starting with `!` are comments; then, one value a line, the map's
/// size, the first and last MIDI note to retune, the middle note (where degree 0 is
/// mapped), the reference note, its frequency, the formal octave's degree (the scale degree
/// one repetition of the map spans; 0: the scale's own period), and `size` entries, each a
/// degree or `x` (the key is unmapped). Size 0 is the linear mapping: every key one degree
/// above the one below. What follows a value on its line is ignored. Where the format
/// leaves a corner open this follows Surge XT's tuning library: the first and last notes
/// are read and checked but retune nothing by themselves (every key is mapped by the map),
/// entries past the size are ignored, and the reference note must be a mapped key.
public struct KeyboardMapping: Equatable, Sendable {
    public var size: Int
    public var firstNote: Int
    public var lastNote: Int
    public var middleNote: Int
    public var referenceNote: Int
    public var referenceFrequency: Double
    /// The scale degree one repetition of the map spans (0: the scale's period).
    public var octaveDegree: Int
    /// `size` entries: a degree, or nil for a key left unmapped (`x`).
    public var entries: [Int?]

    /// The mapping used without a `.kbm`: linear, degree 0 on `middleNote`, A4 (69) at 440 Hz.
    public static func linear(middleNote: Int = 60) -> KeyboardMapping {
        KeyboardMapping(
            size: 0, firstNote: 0, lastNote: 127, middleNote: middleNote, referenceNote: 69, referenceFrequency: 440, octaveDegree: 0,
            entries: [])
    }

    public init(
        size: Int, firstNote: Int, lastNote: Int, middleNote: Int, referenceNote: Int, referenceFrequency: Double, octaveDegree: Int,
        entries: [Int?]
    ) {
        self.size = size
        self.firstNote = firstNote
        self.lastNote = lastNote
        self.middleNote = middleNote
        self.referenceNote = referenceNote
        self.referenceFrequency = referenceFrequency
        self.octaveDegree = octaveDegree
        self.entries = entries
    }

    /// The largest map a file may give (Scala's keyboard has 128 keys; a map repeats).
    public static let maximumSize = 1024

    /// Reads a `.kbm` file's text.
    public init(parsing text: String) throws(TuningError) {
        let lines = TuningLines(text).lines.filter { !$0.isComment }
        var index = 0
        var lastLine = 0
        func next(_ expected: String) throws(TuningError) -> TuningLines.Line {
            guard index < lines.count else {
                throw TuningError(.keyboardMap, line: lastLine + 1, "expected \(expected), found the end of the file")
            }
            let line = lines[index]
            index += 1
            lastLine = line.number
            return line
        }
        func integer(_ expected: String, _ range: ClosedRange<Int>) throws(TuningError) -> Int {
            let line = try next(expected)
            guard let word = line.firstWord, let value = TuningLines.integer(word) else {
                throw TuningError(.keyboardMap, line: line.number, "expected \(expected), found \(line.quoted)")
            }
            guard range.contains(value) else {
                throw TuningError(
                    .keyboardMap, line: line.number, "expected \(expected) in \(range.lowerBound)...\(range.upperBound), found \(value)")
            }
            return value
        }
        size = try integer("the map's size (a whole number; 0 for the linear mapping)", 0...KeyboardMapping.maximumSize)
        firstNote = try integer("the first MIDI note to retune", 0...127)
        lastNote = try integer("the last MIDI note to retune", 0...127)
        middleNote = try integer("the middle note, where degree 0 is mapped (a MIDI note)", 0...127)
        referenceNote = try integer("the reference note, whose frequency is given (a MIDI note)", 0...127)
        let frequencyLine = try next("the reference frequency in Hz")
        guard let word = frequencyLine.firstWord, let frequency = NumberText.double(TuningLines.text(word)), frequency.isFinite,
            frequency > 0
        else {
            throw TuningError(
                .keyboardMap, line: frequencyLine.number,
                "expected the reference frequency in Hz (a number above 0, such as 440.0), found \(frequencyLine.quoted)")
        }
        referenceFrequency = frequency
        octaveDegree = try integer("the formal octave's scale degree (a whole number; 0 for the scale's period)", 0...65_536)
        var entries: [Int?] = []
        while entries.count < size {
            let line = try next("entry \(entries.count + 1) of the \(size) the map announces (a scale degree, or x for an unmapped key)")
            guard let word = line.firstWord else {
                throw TuningError(
                    .keyboardMap, line: line.number, "expected entry \(entries.count + 1) of the map (a scale degree, or x), found an empty line")
            }
            if word == [UInt8(ascii: "x")] || word == [UInt8(ascii: "X")] {
                entries.append(nil)
            } else if let degree = TuningLines.integer(word), degree >= 0, degree <= 65_536 {
                entries.append(degree)
            } else {
                throw TuningError(
                    .keyboardMap, line: line.number,
                    "expected entry \(entries.count + 1) of the map: a scale degree 0 or above, or x, found \(line.quoted)")
            }
        }
        self.entries = entries
        if size > 0 && entries.allSatisfy({ $0 == nil }) {
            throw TuningError(.keyboardMap, line: 0, "every key of the map is x: nothing would play")
        }
    }

    /// What key `key` plays: the map's entry for it and how many repetitions of the map it
    /// lies from the middle note's (negative below); nil when the key is unmapped. The
    /// linear mapping gives the key's distance from the middle note as the degree.
    public func entry(ofKey key: Int) -> (degree: Int, repetitions: Int)? {
        let distance = key - middleNote
        guard size > 0 else { return (distance, 0) }
        var repetitions = distance / size
        var index = distance % size
        if index < 0 {
            index += size
            repetitions -= 1
        }
        guard let degree = entries[index] else { return nil }
        return (degree, repetitions)
    }
}
