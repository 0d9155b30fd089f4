import ToneShaperParameters

/// A shape's tuning of the MIDI keys: a Scala scale and, optionally, a keyboard mapping,
/// kept as the texts they were read from (a document carries them as they are) and as read.
///
/// Key n plays the shape transposed by f(n)/f(root): the frequency the tuning gives key n
/// over the one it gives the root note (in place of 12-TET's 2^((n - root)/12)). Without a
/// keyboard mapping the scale is laid out linearly from the root note: degree 0 on the root,
/// every key one degree higher, so key root + k plays degree k (19-EDO: root + 12 plays
/// 2^(12/19)). With one, key n plays the map's entry for it, repeating every `size` keys
/// by the formal octave (degree `octaveDegree`, or the scale's period for 0), and keys
/// mapped `x` are silent.
public struct Tuning: Sendable, Equatable {
    /// The `.scl` text.
    public let scaleText: String
    /// The `.kbm` text, if one was given.
    public let keyboardMapText: String?
    public let scale: ScalaScale
    /// Nil: the linear mapping from the root note.
    public let mapping: KeyboardMapping?

    /// Reads both files' texts; a refusal names the file and the line.
    public init(scale scaleText: String, keyboardMap keyboardMapText: String? = nil) throws(TuningError) {
        self.scaleText = scaleText
        self.keyboardMapText = keyboardMapText
        scale = try ScalaScale(parsing: scaleText)
        if let keyboardMapText {
            let mapping = try KeyboardMapping(parsing: keyboardMapText)
            if mapping.entry(ofKey: mapping.referenceNote) == nil {
                throw TuningError(
                    .keyboardMap, line: 0,
                    "the reference note \(mapping.referenceNote) is a key the map leaves unmapped (x); give a mapped key its frequency")
            }
            self.mapping = mapping
        } else {
            mapping = nil
        }
    }

    public static func == (a: Tuning, b: Tuning) -> Bool { a.scaleText == b.scaleText && a.keyboardMapText == b.keyboardMapText }

    /// The mapping in force for `rootNote`: the file's, else the linear one from the root.
    public func effectiveMapping(rootNote: Int) -> KeyboardMapping { mapping ?? .linear(middleNote: rootNote) }

    /// The pitch of `key` in cents above the middle note's degree 0, nil when unmapped.
    public func cents(ofKey key: Int, rootNote: Int) -> Double? {
        let mapping = effectiveMapping(rootNote: rootNote)
        guard let entry = mapping.entry(ofKey: key) else { return nil }
        let within = scale.cents(ofDegree: entry.degree)
        guard entry.repetitions != 0 else { return within }
        let octave = mapping.octaveDegree == 0 ? scale.period : scale.cents(ofDegree: mapping.octaveDegree)
        return within + Double(entry.repetitions) * octave
    }

    /// Every key's pitch in semitones and whether it plays, for the audio side (computed
    /// once, off the audio thread). An unmapped key's pitch is the mean of its nearest
    /// mapped neighbours' (Surge XT's tuning library centres a tuning on an unmapped key
    /// so): only the root note's is ever read, when the root is unmapped.
    public func keyTuning(rootNote: Int) -> KeyTuning {
        let count = KeyTuning.keyCount
        var pitches: [Double?] = (0..<count).map { key in cents(ofKey: key, rootNote: rootNote).map { $0 / 100 } }
        let mapped = pitches.map { $0 != nil }
        for key in 0..<count where pitches[key] == nil {
            var below: Double?
            var above: Double?
            var k = key - 1
            while k >= 0 && below == nil {
                below = mapped[k] ? pitches[k] : nil
                k -= 1
            }
            k = key + 1
            while k < count && above == nil {
                above = mapped[k] ? pitches[k] : nil
                k += 1
            }
            switch (below, above) {
            case (let b?, let a?): pitches[key] = (a + b) / 2
            case (let b?, nil): pitches[key] = b
            case (nil, let a?): pitches[key] = a
            case (nil, nil): pitches[key] = 0
            }
        }
        return KeyTuning(semitones: pitches.map { $0 ?? 0 }, mapped: mapped)
    }

    /// Every key's frequency in Hz (nil: unmapped): the reference note at the reference
    /// frequency (the keyboard mapping's, else A4 = 440 Hz), the rest by the scale.
    public func frequencies(rootNote: Int) -> [Double?] {
        let mapping = effectiveMapping(rootNote: rootNote)
        let table = keyTuning(rootNote: rootNote)
        let reference = table.semitones[mapping.referenceNote]
        return (0..<KeyTuning.keyCount).map { key in
            table.mapped[key] ? mapping.referenceFrequency * FastPower.exp2((table.semitones[key] - reference) / 12) : nil
        }
    }
}
