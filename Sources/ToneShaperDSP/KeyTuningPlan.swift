import ToneShaperParameters

/// A plan's tuning of the MIDI keys, as the audio thread reads it (`KeyTuning`, built off
/// the audio thread): 128 pitches in semitones in memory the plan's storage owns, and a bit
/// per unmapped key. Plain data: it crosses with its plan and is freed with it, once the
/// audio side hands the plan back, so reading it allocates nothing and takes no lock.
@frozen
public struct KeyTuningPlan: Sendable, BitwiseCopyable {
    @usableFromInline let semitonesMemory: ReadOnlyMemory<Double>
    /// Bit `key` (keys 0...63 in the first word, 64...127 in the second) set: unmapped.
    @usableFromInline let unmapped: (UInt64, UInt64)
    /// A hash of the pitches and the unmapped keys (FNV-1a over their bits): two plans of
    /// the same tuning have the same, so the audio side tells a new tuning from a new plan
    /// of the same one (a new tuning drops the keys the MIDI Tuning Standard set).
    public let fingerprint: UInt64

    /// `semitones` points to 128 values, written before the plan is handed over.
    public init(semitones: UnsafePointer<Double>, mapped: [Bool]) {
        precondition(mapped.count == KeyTuning.keyCount)
        semitonesMemory = ReadOnlyMemory(semitones)
        var low: UInt64 = 0
        var high: UInt64 = 0
        for key in 0..<KeyTuning.keyCount where !mapped[key] {
            if key < 64 { low |= 1 << UInt64(key) } else { high |= 1 << UInt64(key - 64) }
        }
        unmapped = (low, high)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for word in [low, high] + (0..<KeyTuning.keyCount).map({ semitones[$0].bitPattern }) {
            hash = (hash ^ word) &* 0x100_0000_01b3
        }
        fingerprint = hash
    }

    /// Whether `a` and `b` tune the keys alike (nil: 12-TET).
    @inlinable
    public static func same(_ a: KeyTuningPlan?, _ b: KeyTuningPlan?) -> Bool { a?.fingerprint == b?.fingerprint }

    /// Whether `key` (0...127) plays.
    @inlinable @inline(__always)
    public func isMapped(_ key: UInt8) -> Bool {
        let key = key & 0x7F
        return key < 64 ? unmapped.0 & (1 << UInt64(key)) == 0 : unmapped.1 & (1 << UInt64(key - 64)) == 0
    }

    /// The pitch of `key` (0...127) in semitones from the tuning's own origin.
    @inlinable @inline(__always)
    public func semitones(_ key: Int) -> Double { semitonesMemory.address[max(0, min(127, key))] }
}
