import ToneShaperDSP
import ToneShaperParameters

/// What one MIDI message asks the renderer to do beyond the performer's own state.
enum MIDIAction: Equatable {
    case none
    /// Set the engine's transposition (drone: note and bend; instrument: bend).
    case transpose(Double)
    /// A mapped controller moved.
    case controller(ParameterID, UInt8)
    case program(UInt8)
    /// MIDI learn mapped the controller; its value applies too.
    case learned(UInt8, ParameterID, UInt8)
}

/// MIDI on the audio thread: the notes held, the sustain pedal, pitch bend, the controller
/// map and MIDI learn, and instrument mode's pool of voices. Everything it needs is
/// allocated when it is made (off the audio thread) and freed in `deinit`; its methods
/// allocate nothing, take no lock and call no C.
public struct MIDIPerformer: ~Copyable {
    /// Voices beyond `PerformanceSettings.maximumVoices`: room for stolen voices to fade out.
    static let spareVoices = 8
    static let poolSize = PerformanceSettings.maximumVoices + spareVoices
    /// A stolen voice and a one-shot's end fade over 5 ms; a note starts over 2 ms; a
    /// retune (drone note, legato) moves within 1 ms.
    static let stealSeconds = 0.005
    static let attackSeconds = 0.002
    static let retuneSeconds = 0.001

    public private(set) var settings: PerformanceSettings
    /// Only this channel (0...15) is heard; -1: every channel.
    public var channelFilter = -1
    private var parser = MIDIParser()
    var sampleRate: Double

    // Drone: the keys down, oldest first (last-note priority), and those the pedal holds.
    private(set) var held = HeldKeys()
    private var sustainedKeys: (UInt64, UInt64) = (0, 0)
    var sustain = false
    /// Pitch bend in semitones.
    private var bendSemitones = 0.0
    /// The keys' tuning of the plan playing (nil: 12-TET), set by the renderer whenever it
    /// takes a plan; its memory lives as long as that plan.
    var keyTuning: KeyTuningPlan?
    /// The keys the MIDI Tuning Standard retuned, per channel (16 × 128, index
    /// `channel << 7 | key`): each key's pitch in semitones above key 0 (key 69 at 440 Hz),
    /// NaN where no message set one (`MIDIPerformer+Tuning`).
    let tunedKeys: UnsafeMutablePointer<Double>
    /// Whether any key of `tunedKeys` is set (most performers: none, one test per note).
    var anyTunedKey = false
    /// An MTS-ESP master's 128 keys, semitones above key 0, when one is connected
    /// (`externalTuning`); it overrides every other tuning while it is. Then (128 more) the
    /// frequencies they were read from.
    let externalKeys: UnsafeMutablePointer<Double>
    var externalTuning = false
    /// Tuning messages refused (truncated, a wrong checksum): counted, never applied.
    public internal(set) var refusedTuningMessages = 0
    /// The drone's channel: that of its last key (the MIDI Tuning Standard's scale/octave
    /// tunings are per channel).
    var droneChannel: UInt8 = 0

    /// Per controller, the parameter it moves (nil: none).
    private let controllerMap: UnsafeMutablePointer<ParameterID?>
    /// MIDI learn: the parameter the next controller gets, if any.
    private var learning: ParameterID?

    // Instrument mode: mono's keys held (oldest first), and the pool.
    var monoKeys = HeldKeys()
    let pool: UnsafeMutablePointer<InstrumentVoice>
    var serial: UInt64 = 0
    /// Voices of the pool not free: kept as voices start and end, so that a block asks one
    /// number rather than scanning the pool (`isPlainDrone`, every block of a drone).
    var busyVoices = 0
    /// 1 while the drone is heard, 0 in instrument mode; fades between them when switched.
    var droneLevel: Ramp
    /// Per channel, the voice of the last note played there (slot, serial; slot -1: none
    /// yet) and the pitch it went to: where a glide starts (`glide`).
    var followed: InlineArray<16, (slot: Int, serial: UInt64)> = InlineArray(repeating: (-1, 0))
    var lastArrival: InlineArray<16, Double> = InlineArray(repeating: 0)

    public init(settings: PerformanceSettings, controllers: MIDIControllerMap, sampleRate: Double) {
        self.settings = settings
        self.sampleRate = sampleRate
        controllerMap = .allocate(capacity: 128)
        controllerMap.initialize(repeating: nil, count: 128)
        pool = .allocate(capacity: MIDIPerformer.poolSize)
        pool.initialize(repeating: InstrumentVoice(), count: MIDIPerformer.poolSize)
        tunedKeys = .allocate(capacity: 16 * 128)
        tunedKeys.initialize(repeating: .nan, count: 16 * 128)
        externalKeys = .allocate(capacity: 256)
        externalKeys.initialize(repeating: .nan, count: 256)
        droneLevel = Ramp(settings.instrument ? 0 : 1)
        for (controller, id) in controllers.entries { controllerMap[controller] = id }
    }

    deinit {
        controllerMap.deallocate()
        pool.deallocate()
        tunedKeys.deallocate()
        externalKeys.deallocate()
    }

    /// Whether the output is the drone alone: the renderer then leaves everything to the engine.
    var isPlainDrone: Bool { !settings.instrument && !droneLevel.isMoving && droneLevel.value == 1 && busyVoices == 0 }

    /// Instrument mode with the drone faded out: the engine need not render.
    var droneIsSilent: Bool { droneLevel.value == 0 && !droneLevel.isMoving }

    /// Voices sounding (any stage but free).
    public var soundingCount: Int {
        var n = 0
        for i in 0..<MIDIPerformer.poolSize where pool[i].sounds { n += 1 }
        return n
    }

    /// The notes of the voices sounding, for tests and diagnostics.
    public func soundingNotes() -> [UInt8] {
        (0..<MIDIPerformer.poolSize).filter { pool[$0].sounds }.map { pool[$0].note }
    }

    /// The factor the engine's frequencies get: in drone mode the last key held and the
    /// bend, in instrument mode the bend alone (each voice adds its note).
    var engineRatio: Double {
        var semitones = bendSemitones
        if !settings.instrument, let latest = held.latest { semitones += keySemitones(latest, channel: droneChannel) ?? 0 }
        return FastPower.exp2(semitones / 12)
    }

    /// The pitch of `note` on `channel` in semitones from the root note: note - root in
    /// 12-TET, or, with a tuning, the key's pitch less the root key's (f(note)/f(root) of
    /// the tuning, in semitones); nil for a key the tuning leaves unmapped, which plays
    /// nothing. A key an MTS-ESP master or the MIDI Tuning Standard tuned overrides both:
    /// its absolute pitch less the root key's in 12-TET (f_MTS(note)/f_12TET(root): the root
    /// key left at 12-TET plays the shape as drawn). Bend, glide, `tune` and expressions add
    /// to it in semitones, as they add to note - root.
    @inline(__always)
    func keySemitones(_ note: UInt8, channel: UInt8) -> Double? {
        if let absolute = overriddenPitch(note, channel: channel) { return absolute - Double(settings.rootNote) }
        guard let keyTuning else { return Double(Int(note) - settings.rootNote) }
        guard keyTuning.isMapped(note) else { return nil }
        return keyTuning.semitones(Int(note & 0x7F)) - keyTuning.semitones(settings.rootNote)
    }

    var retuneSamples: Int { max(1, Int(MIDIPerformer.retuneSeconds * sampleRate)) }

    // MARK: Settings

    /// A performance parameter changed (from the controller, or a mapped controller).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func set(_ id: ParameterID, _ value: Double) {
        let wasInstrument = settings.instrument
        settings.set(id, value)
        if settings.instrument != wasInstrument {
            let fade = max(1, Int(MIDIPerformer.stealSeconds * sampleRate))
            droneLevel.move(to: settings.instrument ? 0 : 1, over: fade)
            // Keys held in one mode do not carry into the other.
            held.removeAll()
            sustainedKeys = (0, 0)
            releaseAll(fast: true)
        }
    }

    /// The drone's level takes its target at once (before the first sample; see
    /// `ToneEngine.settleRamps`).
    mutating func settleRamps() { droneLevel.settle() }

    mutating func setSampleRate(_ rate: Double) { if rate > 0 { sampleRate = rate } }

    /// Controller `controller` moves `id` from now on (nil: nothing).
    mutating func map(controller: UInt8, to id: ParameterID?) {
        guard MIDIControllerMap.isMappable(Int(controller)) else { return }
        controllerMap[Int(controller)] = id
    }

    mutating func learn(_ id: ParameterID) { learning = id }

    // MARK: Messages

    /// One event, at the current frame.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func handle(_ event: MIDIEvent, engine: inout ToneEngine) -> MIDIAction {
        if let sysex = event.sysexBytes {
            _ = parser.parse(event)  // cancels the running status
            return tune(sysex)
        }
        guard let message = parser.parse(event) else { return .none }
        if channelFilter >= 0 && Int(message.channel) != channelFilter { return .none }
        switch message {
        case .noteOn(let channel, let note, let velocity):
            if settings.instrument {
                noteOn(note, channel: channel, velocity: velocity, engine: &engine)
                return .none
            }
            guard keySemitones(note, channel: channel) != nil else { return .none }  // an unmapped key: nothing
            droneChannel = channel
            pushHeld(note)
            return .transpose(engineRatio)
        case .noteOff(let channel, let note):
            if settings.instrument {
                noteOff(note, channel: channel, engine: &engine)
                return .none
            }
            if sustain {
                setSustained(note, true)
                return .none
            }
            held.release(note)
            return .transpose(engineRatio)
        case .controlChange(_, let controller, let value):
            return controlChange(controller, value, engine: &engine)
        case .programChange(_, let program):
            return .program(program)
        case .pitchBend(_, let value):
            let amount = value < 0 ? Double(value) / 8192 : Double(value) / 8191
            bendSemitones = amount * settings.bendRange
            return .transpose(engineRatio)
        }
    }

    private mutating func controlChange(_ controller: UInt8, _ value: UInt8, engine: inout ToneEngine) -> MIDIAction {
        switch Int(controller) {
        case MIDIControllerMap.sustainController:
            let down = value >= 64
            if sustain && !down { pedalUp(engine: &engine) }
            sustain = down
            return sustain || settings.instrument ? .none : .transpose(engineRatio)
        case 120:  // all sound off
            held.removeAll()
            releaseAll(fast: true)
            return .transpose(engineRatio)
        case 123:  // all notes off
            held.removeAll()
            sustainedKeys = (0, 0)
            releaseAll(fast: false)
            return .transpose(engineRatio)
        default:
            guard MIDIControllerMap.isMappable(Int(controller)) else { return .none }
            if let id = learning {
                controllerMap[Int(controller)] = id
                learning = nil
                return .learned(controller, id, value)
            }
            return controllerMap[Int(controller)].map { .controller($0, value) } ?? .none
        }
    }

    /// Ends notes as a host's note-off or note choke with wildcards asks (CLAP's NOTE_OFF and
    /// NOTE_CHOKE whose key or channel is -1; what DAWs send to end every note): the notes
    /// of `key` on `channel`, nil meaning every key or every channel. An ended note is let
    /// go as a note-off lets it go (the sustain pedal holds it); a choked one fades at once,
    /// as a stolen voice does, pedal or not. In drone mode the keys are let go either way
    /// (the drone is no voice of a note) and the transposition follows.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func endNotes(key: UInt8?, channel: UInt8?, choke: Bool, engine: inout ToneEngine) -> MIDIAction {
        if let channel, channelFilter >= 0, Int(channel) != channelFilter { return .none }
        if settings.instrument {
            endVoices(key: key.map { $0 & 0x7F }, channel: channel, choke: choke, engine: &engine)
            return .none
        }
        // Drone keys are not kept by channel.
        if let key {
            if sustain && !choke {
                setSustained(key, true)
                return .none
            }
            held.release(key & 0x7F)
            setSustained(key, false)
        } else if sustain && !choke {
            for index in 0..<held.count { setSustained(held[index], true) }
            return .none
        } else {
            held.removeAll()
            sustainedKeys = (0, 0)
        }
        return .transpose(engineRatio)
    }

    private mutating func pedalUp(engine: inout ToneEngine) {
        if settings.instrument {
            for i in 0..<MIDIPerformer.poolSize where pool[i].stage == .sustained { release(i) }
        } else {
            for note in 0..<128 where isSustained(UInt8(note)) { held.release(UInt8(note)) }
            sustainedKeys = (0, 0)
        }
    }

    // MARK: Drone keys

    private mutating func pushHeld(_ note: UInt8) {
        held.press(note)
        setSustained(note, false)
    }

    private func isSustained(_ note: UInt8) -> Bool {
        note < 64 ? sustainedKeys.0 & (1 << UInt64(note)) != 0 : sustainedKeys.1 & (1 << UInt64(note - 64)) != 0
    }

    private mutating func setSustained(_ note: UInt8, _ on: Bool) {
        let note = note & 0x7F
        if note < 64 {
            if on { sustainedKeys.0 |= 1 << UInt64(note) } else { sustainedKeys.0 &= ~(1 << UInt64(note)) }
        } else {
            if on { sustainedKeys.1 |= 1 << UInt64(note - 64) } else { sustainedKeys.1 &= ~(1 << UInt64(note - 64)) }
        }
    }
}
