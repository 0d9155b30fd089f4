/// One voice of instrument mode: a note playing the shape from the cycle's start,
/// transposed, with its own envelope. Plain data, kept in the performer's fixed pool.
struct InstrumentVoice {
    enum Stage: UInt8 {
        case free
        /// The key is down (or, mono, the note is held under legato).
        case held
        /// The key is up, the sustain pedal is down: sounds on like a held note.
        case sustained
        /// Fading out over the release time; free when silent.
        case released
        /// Stolen: fading out fast to make room; not counted among the sounding voices.
        case dying
    }

    var stage = Stage.free
    var note: UInt8 = 0
    var channel: UInt8 = 0
    /// When it started, for stealing the oldest.
    var serial: UInt64 = 0
    /// What it plays: the engine's plan, as the drone does.
    var voice = PlayingVoice.silent
    /// 2^((note - root)/12), moving to `ratioTarget` over `ratioLeft` samples (mono legato).
    var ratio = 1.0
    var ratioStep = 0.0
    var ratioLeft = 0
    /// The note's pitch in semitones from the root note (its key and its expression
    /// tuning): where the next note on its channel glides from, once this one has arrived.
    var semitones = 0.0
    /// Its key's share of `semitones` (the rest is its expression tuning): what a retuned
    /// key (the MIDI Tuning Standard, MTS-ESP) moves.
    var keySemitones = 0.0
    /// A portamento (the `glide` setting): the pitch slides from `glideFrom` semitones by
    /// `glideStep` a sample, linearly in semitones, `glideLeft` samples more (`glideDone`
    /// so far), and arrives exactly at `semitones`.
    var glideFrom = 0.0
    var glideStep = 0.0
    var glideDone = 0
    var glideLeft = 0

    /// The pitch now, in semitones from the root (a glide's point on its way).
    var currentSemitones: Double { glideLeft > 0 ? glideFrom + glideStep * Double(glideDone) : semitones }
    /// The velocity's gain (times the note's volume expression, `expressionVolume`).
    var velocityGain: Float = 1
    var expressionVolume: Float = 1
    /// The envelope: level 0...1 now, and its change per sample (attack up, release down).
    var level: Float = 0
    var levelStep: Float = 0
    /// Samples played, for one-shot voices.
    var played = 0

    var sounds: Bool { stage != .free }
    /// Counted against the `voices` limit.
    var counts: Bool { stage == .held || stage == .sustained || stage == .released }
}

/// The velocity curve: gain = (velocity / 127)^2, so velocity 127 is full level, 64 about
/// -12 dB and 1 about -84 dB: the square law most synthesizers use, which sounds even to
/// the ear across the keyboard's touch.
public enum VelocityCurve {
    @inline(__always)
    public static func gain(_ velocity: UInt8) -> Float {
        let x = Float(min(velocity, 127)) / 127
        return x * x
    }
}
