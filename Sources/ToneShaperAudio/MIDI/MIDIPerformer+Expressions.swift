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
            if let tuning, tuning.isFinite {
                let target = FastPower.exp2((Double(Int(pool[i].note) - settings.rootNote) + tuning) / 12)
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
