/// A tuning as the audio side plays it: for every MIDI key 0...127, its pitch in semitones
/// (from the key where the tuning's degree 0 sits, or any fixed key: only differences are
/// read) and whether the key is mapped at all. A note's transposition from the root note is
/// `semitones[note] - semitones[root]`, in place of `note - root` in 12-TET; an unmapped key
/// plays nothing. An unmapped key still has a pitch (between its mapped neighbours), which
/// is read only when the root note itself is unmapped.
///
/// Made off the audio thread from a Scala scale and keyboard mapping (ToneShaperModel's
/// `Tuning`), carried in a `CurveDescription` into the plan the audio thread plays.
public struct KeyTuning: Sendable, Equatable {
    public static let keyCount = 128
    /// 128 pitches in semitones, finite.
    public var semitones: [Double]
    /// 128 flags: true where the key plays.
    public var mapped: [Bool]

    public init(semitones: [Double], mapped: [Bool]) {
        precondition(
            semitones.count == KeyTuning.keyCount && mapped.count == KeyTuning.keyCount && semitones.allSatisfy { $0.isFinite },
            "a key tuning has a finite pitch and a flag for each of the 128 keys")
        self.semitones = semitones
        self.mapped = mapped
    }

    /// The transposition of `key` from `root` in semitones, nil when `key` is unmapped.
    public func semitones(of key: Int, from root: Int) -> Double? {
        guard key >= 0 && key < KeyTuning.keyCount, mapped[key] else { return nil }
        let root = max(0, min(KeyTuning.keyCount - 1, root))
        return semitones[key] - semitones[root]
    }
}
