import ToneShaperParameters

/// Per-note expressions (what MPE controllers and CLAP hosts send): a voice's own tuning
/// and volume, on top of its note and velocity, in instrument mode.
extension MIDIPerformer {
    /// The voices of `key` on `channel` (nil: any) that sound take `tuning` (semitones
    /// added to their note, reached over the retune time as a legato glide does) and
    /// `volume` (a linear gain, from the next pass; 0 silences the voice). Nil leaves either
    /// as it is. The pool is changed through its pointer: no other state moves.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func express(key: UInt8?, channel: UInt8?, tuning: Double?, volume: Double?) {
        let retune = retuneSamples
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds && pool[i].stage != .dying {
            if let key, pool[i].note != key { continue }
            if let channel, pool[i].channel != channel { continue }
            if let tuning, tuning.isFinite, let key = keySemitones(pool[i].note, channel: pool[i].channel) {
                let semitones = key + tuning
                let target = FastPower.exp2(semitones / 12)
                if pool[i].glideLeft > 0 {
                    // A glide on its way ends here: the expression retunes from where it is.
                    pool[i].ratio = FastPower.exp2(pool[i].currentSemitones / 12)
                    pool[i].glideLeft = 0
                }
                pool[i].semitones = semitones
                pool[i].keySemitones = key
                pool[i].ratioLeft = retune
                pool[i].ratioStep = (target - pool[i].ratio) / Double(retune)
            }
            if let volume, volume.isFinite {
                // The velocity's own gain is the product over the last volume (kept above 0
                // so it can be read back out).
                let next = Float(max(1e-6, min(4, volume)))
                pool[i].velocityGain = pool[i].velocityGain / pool[i].expressionVolume * next
                pool[i].expressionVolume = next
            }
        }
    }
}

extension MIDIPerformer {
    /// Marks in `notes` (a bit set of 16 × 128 bits, as 32 words: bit `channel * 128 + key`)
    /// the keys whose voices still sound, a stolen voice fading included: what a host that
    /// follows notes (CLAP's note end) needs to know once a block is rendered.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func markSoundingNotes(_ notes: UnsafeMutablePointer<UInt64>) {
        guard busyVoices > 0 else { return }
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds {
            let bit = Int(pool[i].channel & 0x0F) << 7 | Int(pool[i].note & 0x7F)
            notes[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }
}
