import ToneShaperAudio
import ToneShaperParameters

/// Per-note expressions through the plugin core: a format that carries them (CLAP's
/// note expressions) reaches the voices of instrument mode here.
extension PluginEngine {
    /// On the audio thread, between renders (the shell renders up to the expression's frame
    /// first): the voices of `key` on `channel` (nil: any) take `tuning` in semitones and
    /// `volume` as a linear gain (``MIDIPerformer/express(key:channel:tuning:volume:)``).
    /// Generic, it is proved real-time safe where a shell specializes it, as the rest of
    /// the engine's audio-thread methods.
    public func express(key: UInt8?, channel: UInt8?, tuning: Double?, volume: Double?) {
        player.pointee.renderer.performer.express(key: key, channel: channel, tuning: tuning, volume: volume)
    }
}

extension PluginEngine {
    /// Whether notes start voices of their own (instrument mode), as the audio side plays now.
    public var playsVoices: Bool { player.pointee.renderer.performer.settings.instrument }

    /// On the audio thread, after a render: marks the keys whose voices still sound
    /// (``MIDIPerformer/markSoundingNotes(_:)``).
    public func markSoundingNotes(_ notes: UnsafeMutablePointer<UInt64>) {
        player.pointee.renderer.performer.markSoundingNotes(notes)
    }
}
