import ToneShaperDSP
import ToneShaperParameters

/// Instrument mode: a fixed pool of voices, each playing the engine's plan from the
/// cycle's start, transposed by its note, with its own envelope. Each renders and mixes as
/// the drone does (`ToneEngine.renderVoice`, `VoiceMix`).
extension MIDIPerformer {
    private func samples(_ seconds: Double) -> Int { max(1, Int(seconds * sampleRate)) }

    /// Starts a voice for the note, stealing one if `voices` are sounding already.
    /// A key the tuning leaves unmapped starts nothing.
    mutating func noteOn(_ note: UInt8, channel: UInt8, velocity: UInt8, engine: inout ToneEngine) {
        guard let semitones = keySemitones(note, channel: channel) else { return }
        let ratio = FastPower.exp2(semitones / 12)
        // Portamento: from the pitch of the last note played on this channel.
        let portamento = glideSamples
        let from = portamento > 0 ? pitchFollowed(on: channel) : nil
        if settings.voices == 1 {
            // Mono: legato. A key while another is held retunes the sounding voice.
            for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .held || pool[i].stage == .sustained {
                if portamento > 0 {
                    slide(i, from: pool[i].currentSemitones, to: semitones, over: portamento)
                } else {
                    glide(i, to: ratio)
                }
                pool[i].semitones = semitones
                pool[i].keySemitones = semitones
                lastArrival[Int(channel & 0x0F)] = semitones
                pool[i].note = note
                pool[i].channel = channel
                pool[i].stage = .held
                monoKeys.press(note)
                return
            }
        }
        // One pass over the pool: how many sound, which to steal, where the new one goes.
        var sounding = 0
        var victim = -1
        var victimReleased = false
        var free = -1
        var quietest = -1
        for i in 0..<MIDIPerformer.poolSize {
            switch pool[i].stage {
            case .free:
                if free < 0 { free = i }
            case .dying:
                if quietest < 0 || pool[i].level < pool[quietest].level { quietest = i }
            default:
                sounding += 1
                let released = pool[i].stage == .released
                if victim < 0 || (released && !victimReleased) || (released == victimReleased && pool[i].serial < pool[victim].serial) {
                    victim = i
                    victimReleased = released
                }
            }
        }
        if sounding >= settings.voices && victim >= 0 {
            fadeOutFast(victim)
            sounding -= 1
            // More than one over (the limit was lowered while notes sounded): the rest too.
            while sounding >= settings.voices, let next = stealCandidate() {
                fadeOutFast(next)
                sounding -= 1
            }
        }
        // No free slot (a flood of notes): the quietest dying voice is cut.
        let slot = free >= 0 ? free : (quietest >= 0 ? quietest : (victim >= 0 ? victim : 0))
        start(slot, note: note, channel: channel, ratio: from.map { FastPower.exp2($0 / 12) } ?? ratio, velocity: velocity, engine: &engine)
        pool[slot].semitones = semitones
        pool[slot].keySemitones = semitones
        if let from { slide(slot, from: from, to: semitones, over: portamento) }
        followed[Int(channel & 0x0F)] = (slot, pool[slot].serial)
        lastArrival[Int(channel & 0x0F)] = semitones
        if settings.voices == 1 { monoKeys.press(note) }
    }

    /// The glide's length in samples (0: none).
    private var glideSamples: Int {
        let seconds = settings[.glide]
        return seconds > 0 ? Int(seconds * sampleRate + 0.5) : 0
    }

    /// The pitch (semitones from the root) a new note on `channel` glides from: the last
    /// note played there, where it is now if it still sounds (it may itself be gliding),
    /// else where it arrived; nil before the first note on the channel.
    private func pitchFollowed(on channel: UInt8) -> Double? {
        let (slot, serial) = followed[Int(channel & 0x0F)]
        guard slot >= 0 else { return nil }
        if pool[slot].sounds && pool[slot].serial == serial { return pool[slot].currentSemitones }
        return lastArrival[Int(channel & 0x0F)]
    }

    /// Voice `i` slides from `from` to `to` semitones over `samples`, linearly in semitones.
    private mutating func slide(_ i: Int, from: Double, to: Double, over samples: Int) {
        pool[i].ratioLeft = 0
        pool[i].glideFrom = from
        pool[i].glideStep = (to - from) / Double(samples)
        pool[i].glideDone = 0
        pool[i].glideLeft = samples
        pool[i].semitones = to
        pool[i].ratio = FastPower.exp2(from / 12)
    }

    mutating func noteOff(_ note: UInt8, channel: UInt8, engine: inout ToneEngine) {
        if settings.voices == 1 {
            monoKeys.release(note)
            for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .held && pool[i].note == note {
                if let previous = monoKeys.latest {
                    // Back to the key still held, legato.
                    let semitones = keySemitones(previous, channel: pool[i].channel) ?? pool[i].semitones
                    let portamento = glideSamples
                    if portamento > 0 {
                        slide(i, from: pool[i].currentSemitones, to: semitones, over: portamento)
                    } else {
                        glide(i, to: FastPower.exp2(semitones / 12))
                    }
                    pool[i].semitones = semitones
                    pool[i].keySemitones = semitones
                    lastArrival[Int(pool[i].channel & 0x0F)] = semitones
                    pool[i].note = previous
                } else if sustain {
                    pool[i].stage = .sustained
                } else {
                    release(i)
                }
            }
            return
        }
        for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .held && pool[i].note == note && pool[i].channel == channel {
            if sustain { pool[i].stage = .sustained } else { release(i) }
        }
    }

    /// The voices of `key` on `channel` (nil: any) end: released as by their note-off
    /// (held by the pedal), or, `choke`, faded at once whatever their stage.
    mutating func endVoices(key: UInt8?, channel: UInt8?, choke: Bool, engine: inout ToneEngine) {
        if settings.voices == 1 && !choke {
            // One voice: its keys are not kept by channel; a key let go may hand the voice
            // back to another held one, as a note-off does.
            if let key {
                noteOff(key, channel: channel ?? 0, engine: &engine)
                return
            }
            monoKeys.removeAll()
        } else if settings.voices == 1 {
            if let key { monoKeys.release(key) } else { monoKeys.removeAll() }
        }
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds && pool[i].stage != .dying {
            if let key, pool[i].note != key { continue }
            if let channel, pool[i].channel != channel { continue }
            if choke {
                fadeOutFast(i)
            } else if pool[i].stage == .held {
                if sustain { pool[i].stage = .sustained } else { release(i) }
            }
        }
    }

    /// Fades voice `i` out over the release time (at least 1 ms: never a click).
    mutating func release(_ i: Int) {
        let fade = max(samples(settings.release / 1000), samples(0.001))
        pool[i].stage = .released
        pool[i].levelStep = -max(pool[i].level, 1e-6) / Float(fade)
    }

    /// Releases every voice (fast: a stolen voice's fade, for all-sound-off and mode switches).
    mutating func releaseAll(fast: Bool) {
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds && pool[i].stage != .dying {
            if fast {
                fadeOutFast(i)
            } else {
                release(i)
            }
        }
        monoKeys.removeAll()
    }

    /// The oldest released voice, else the oldest sounding one.
    private func stealCandidate() -> Int? {
        var best = -1
        var bestReleased = false
        for i in 0..<MIDIPerformer.poolSize where pool[i].counts {
            let released = pool[i].stage == .released
            if best < 0 || (released && !bestReleased) || (released == bestReleased && pool[i].serial < pool[best].serial) {
                best = i
                bestReleased = released
            }
        }
        return best >= 0 ? best : nil
    }

    /// Stolen: out in 5 ms, no longer counted.
    private mutating func fadeOutFast(_ i: Int) {
        pool[i].stage = .dying
        pool[i].levelStep = -max(pool[i].level, 1e-6) / Float(samples(MIDIPerformer.stealSeconds))
    }

    private mutating func start(_ i: Int, note: UInt8, channel: UInt8, ratio: Double, velocity: UInt8, engine: inout ToneEngine) {
        let plan = engine.plan
        serial &+= 1
        var voice = InstrumentVoice()
        voice.stage = .held
        voice.note = note
        voice.channel = channel
        voice.serial = serial
        voice.voice = PlayingVoice.starting(plan: plan, map: engine.liveMap(for: plan, ratio: ratio))
        voice.ratio = ratio
        voice.velocityGain = VelocityCurve.gain(velocity)
        voice.level = 0
        voice.levelStep = 1 / Float(samples(MIDIPerformer.attackSeconds))
        if !pool[i].sounds { busyVoices += 1 }
        pool[i] = voice
    }

    private mutating func glide(_ i: Int, to ratio: Double) {
        pool[i].glideLeft = 0
        let n = retuneSamples
        pool[i].ratioLeft = n
        pool[i].ratioStep = (ratio - pool[i].ratio) / Double(n)
    }

    // MARK: Rendering

    /// Renders one pass of `count` samples (at most `ToneEngine.maximumBlock`, inside which
    /// the engine's ramps are linear) of every sounding voice into `sum`: replacing what it
    /// holds, or, when no voice sounds, leaving it as it is (false).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func renderVoices(into sum: UnsafeMutablePointer<Float>, count: Int, engine: inout ToneEngine) -> Bool {
        let echoGain = PassGain.over(engine.echoVolume, count: count)
        var rendered = false
        for v in 0..<MIDIPerformer.poolSize where pool[v].sounds {
            let r0 = pool[v].ratio
            let r1: Double
            if pool[v].glideLeft > 0 {
                // Exact at the pass's ends; linear in the ratio between them.
                let n = min(count, pool[v].glideLeft)
                r1 = FastPower.exp2(
                    (n == pool[v].glideLeft ? pool[v].semitones : pool[v].glideFrom + pool[v].glideStep * Double(pool[v].glideDone + n)) / 12)
            } else {
                r1 = pool[v].ratioLeft > 0 ? r0 + pool[v].ratioStep * Double(min(count, pool[v].ratioLeft)) : r0
            }
            let signal = engine.renderVoice(&pool[v].voice, ratio: (r0, r1), count: count)
            // The voice's gain: velocity times the envelope, linear inside the pass.
            let gain = PassGain(start: pool[v].level, step: pool[v].levelStep, scale: pool[v].velocityGain)
            VoiceMix.accumulate(
                signal, gain: gain, echoGain: echoGain, ramp: engine.passRamp, count: count, into: sum, rendered ? .add : .replace)
            rendered = true
            advance(v, by: count, cycleLength: engine.plan.cycleLength)
        }
        return rendered
    }

    /// The drone's share over the next `count` samples (1 while it is heard alone, 0 in
    /// instrument mode; moving while the mode switches).
    func droneWeight(count: Int) -> PassGain { PassGain.over(droneLevel, count: count) }

    private mutating func advance(_ v: Int, by count: Int, cycleLength: Int) {
        if pool[v].glideLeft > 0 {
            let n = min(count, pool[v].glideLeft)
            pool[v].glideDone += n
            pool[v].glideLeft -= n
            pool[v].ratio = FastPower.exp2(pool[v].currentSemitones / 12)
        } else if pool[v].ratioLeft > 0 {
            let n = min(count, pool[v].ratioLeft)
            pool[v].ratio += pool[v].ratioStep * Double(n)
            pool[v].ratioLeft -= n
        }
        var level = pool[v].level + pool[v].levelStep * Float(count)
        if pool[v].levelStep > 0 && level >= 1 {
            level = 1
            pool[v].levelStep = 0
        }
        pool[v].level = level
        if pool[v].levelStep < 0 && level <= 0 {
            pool[v].stage = .free
            pool[v].level = 0
            busyVoices -= 1
            return
        }
        pool[v].played += count
        if settings.oneShot && pool[v].played >= cycleLength && (pool[v].stage == .held || pool[v].stage == .sustained) {
            // One cycle played: a short fade, whatever the key does.
            pool[v].stage = .dying
            pool[v].levelStep = -max(level, 1e-6) / Float(samples(MIDIPerformer.stealSeconds))
        }
    }
}
