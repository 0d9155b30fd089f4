import ToneShaperDSP
import ToneShaperParameters

/// The keys tuned from outside the shape: the MIDI Tuning Standard's messages as they
/// arrive, and an MTS-ESP master's table. Both give each key an absolute pitch (MTS's
/// semitones above key 0, key 69 at 440 Hz), which overrides the shape's tuning (Scala or
/// 12-TET) for that key: the key plays the shape transposed by f(key)/f_12TET(root note),
/// so the root key left at 12-TET plays the shape as drawn.
///
/// When they apply:
/// - A real-time message (F0 7F ...) retunes the voices sounding on its keys, within the
///   retune time (1 ms), as the MMA's MTS asks; a non-real-time one (F0 7E ...: a bulk dump,
///   a non-real-time change) tunes the notes that start after it, and leaves sounding ones.
/// - An MTS-ESP master's table retunes sounding voices as it changes (the host reads it
///   once a block), and, while a master is connected, overrides MTS messages too.
/// - MTS overrides last, as Surge XT's do, until a reset: a GM System On or GS Reset
///   message, a new tuning of the shape (a plan whose tuning differs), or
///   ``resetTunedKeys()`` (OSC's `tuning/reset`). They are a live source, never saved.
extension MIDIPerformer {
    /// The key's pitch in semitones above key 0 set from outside (an MTS-ESP master, else
    /// an MTS message on `channel`), nil where none is.
    @inline(__always)
    func overriddenPitch(_ note: UInt8, channel: UInt8) -> Double? {
        let key = Int(note & 0x7F)
        if externalTuning { return externalKeys[key] }
        guard anyTunedKey else { return nil }
        let pitch = tunedKeys[Int(channel & 0x0F) << 7 | key]
        return pitch.isNaN ? nil : pitch
    }

    /// A system exclusive message: a tuning message of the MIDI Tuning Standard is applied
    /// (``MIDITuningMessage``), a GM System On or GS Reset drops the keys MTS tuned; a
    /// malformed tuning message or a bulk dump with a wrong checksum is counted
    /// (``refusedTuningMessages``) and changes nothing; any other message is ignored.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func tune(_ message: UnsafeRawBufferPointer) -> MIDIAction {
        if MIDITuningMessage.isReset(message) {
            guard anyTunedKey else { return .none }
            resetTunedKeys()
            return retuneSounding()
        }
        switch MIDITuningMessage.read(message) {
        case .failure(.malformed), .failure(.checksum):
            refusedTuningMessages &+= 1
            return .none
        case .failure:
            return .none  // not tuning, or a form not taken (a dump request): not a fault
        case .success(.keys):
            let keys = tunedKeys
            var touched = TunedKeySet.none
            MIDITuningMessage.retunings(message) { key, semitones in
                for channel in 0..<16 { keys[channel << 7 | key] = semitones }
                touched.insert(key: key)
            }
            anyTunedKey = true
            // The real-time forms retune what sounds on their keys; the others the notes to come.
            return message[1] == 0x7F ? retuneSounding(touched) : .none
        case .success(.scaleOctave(let channels, let cents)):
            // Each key of a chosen channel: its 12-TET pitch moved by its pitch class's cents.
            for channel in 0..<16 where channels & (1 << UInt16(channel)) != 0 {
                for key in 0..<128 { tunedKeys[channel << 7 | key] = Double(key) + cents[key % 12] / 100 }
            }
            anyTunedKey = true
            return message[1] == 0x7F ? retuneSounding(TunedKeySet(channels: channels)) : .none
        }
    }

    /// Drops every key MTS tuned: each plays the shape's tuning again (from the next note;
    /// the caller retunes sounding ones if it wants).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func resetTunedKeys() {
        guard anyTunedKey else { return }
        tunedKeys.update(repeating: .nan, count: 16 * 128)
        anyTunedKey = false
    }

    /// An MTS-ESP master's table (128 frequencies in Hz, key 0 first), or nil when none is
    /// connected: taken when it differs from the one in force, and the sounding voices
    /// moved to it. A frequency that is not a positive finite number leaves its key at
    /// 12-TET (a master gives every key a frequency; 12-TET is what it gives by default).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func takeExternalTuning(_ frequencies: UnsafePointer<Double>?) -> MIDIAction {
        guard let frequencies else {
            guard externalTuning else { return .none }
            externalTuning = false
            return retuneSounding()
        }
        var changed = !externalTuning
        for key in 0..<128 {
            // The frequencies as last read (after the pitches): a table that did not move
            // costs a comparison a key.
            let f = frequencies[key]
            guard changed || f != externalKeys[128 + key] else { continue }
            externalKeys[128 + key] = f
            let pitch = f > 0 && f < 1e9 ? 69 + 12 * ParameterSpec.log2(f / 440) : Double(key)
            if pitch != externalKeys[key] {
                externalKeys[key] = pitch
                changed = true
            }
        }
        externalTuning = true
        return changed ? retuneSounding() : .none
    }

    /// Moves every sounding voice (and the drone's key) to its key's pitch now, within the
    /// retune time, keeping its expression tuning on top; a voice gliding keeps gliding, to
    /// the new pitch. A key that is now unmapped keeps its pitch.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func retuneSounding(_ touched: TunedKeySet = .all) -> MIDIAction {
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds && pool[i].stage != .dying {
            guard touched.contains(key: pool[i].note, channel: pool[i].channel) else { continue }
            guard let key = keySemitones(pool[i].note, channel: pool[i].channel) else { continue }
            let delta = key - pool[i].keySemitones
            guard delta != 0 else { continue }
            pool[i].keySemitones = key
            pool[i].semitones += delta
            if pool[i].glideLeft > 0 {
                // On its way: the rest of the glide goes to the new pitch from where it is.
                let now = pool[i].currentSemitones
                pool[i].glideFrom = now
                pool[i].glideDone = 0
                pool[i].glideStep = (pool[i].semitones - now) / Double(pool[i].glideLeft)
            } else {
                let n = retuneSamples
                pool[i].ratioLeft = n
                pool[i].ratioStep = (FastPower.exp2(pool[i].semitones / 12) - pool[i].ratio) / Double(n)
            }
        }
        guard !settings.instrument, let latest = held.latest, touched.contains(key: latest, channel: droneChannel) else { return .none }
        return .transpose(engineRatio)
    }
}

/// The keys a tuning message changed (its keys on every channel, or every key of its
/// channels): a real-time message moves the voices of those alone, so that a voice a
/// non-real-time message left at its pitch keeps it.
struct TunedKeySet {
    var keys: (UInt64, UInt64)
    var channels: UInt16

    // Computed, not stored: a global's lazy initialization has no place on the audio thread.
    static var none: TunedKeySet { TunedKeySet(keys: (0, 0), channels: 0xFFFF) }
    static var all: TunedKeySet { TunedKeySet(keys: (~0, ~0), channels: 0xFFFF) }

    init(keys: (UInt64, UInt64), channels: UInt16) {
        self.keys = keys
        self.channels = channels
    }

    init(channels: UInt16) { self.init(keys: (~0, ~0), channels: channels) }

    mutating func insert(key: Int) {
        if key < 64 { keys.0 |= 1 << UInt64(key) } else { keys.1 |= 1 << UInt64(key - 64) }
    }

    func contains(key: UInt8, channel: UInt8) -> Bool {
        let key = key & 0x7F
        guard channels & (1 << UInt16(channel & 0x0F)) != 0 else { return false }
        return key < 64 ? keys.0 & (1 << UInt64(key)) != 0 : keys.1 & (1 << UInt64(key - 64)) != 0
    }
}
