import ToneShaperDSP
import ToneShaperParameters

/// JACK transport as the process callback sees it (`jack_transport_query`), for one period.
public struct TransportState: Sendable, BitwiseCopyable, Equatable {
    public var rolling: Bool
    /// The transport's position in frames.
    public var frame: Int
    /// Bars and beats from a timebase master, if one runs.
    public var bbt: BarsBeats?

    public init(rolling: Bool, frame: Int, bbt: BarsBeats? = nil) {
        self.rolling = rolling
        self.frame = frame
        self.bbt = bbt
    }
}

/// A timebase master's position and tempo (bar and beat count from 1, as JACK's do).
public struct BarsBeats: Sendable, BitwiseCopyable, Equatable {
    public var bar: Int
    public var beat: Int
    public var tick: Int
    public var ticksPerBeat: Double
    public var beatsPerBar: Double
    public var beatsPerMinute: Double

    public init(bar: Int, beat: Int, tick: Int, ticksPerBeat: Double, beatsPerBar: Double, beatsPerMinute: Double) {
        self.bar = bar
        self.beat = beat
        self.tick = tick
        self.ticksPerBeat = ticksPerBeat
        self.beatsPerBar = beatsPerBar
        self.beatsPerMinute = beatsPerMinute
    }

    /// Beats since the start of bar 1.
    var beatsFromStart: Double {
        Double(max(0, bar - 1)) * beatsPerBar + Double(max(0, beat - 1)) + (ticksPerBeat > 0 ? Double(tick) / ticksPerBeat : 0)
    }
}

/// MIDI and transport on the audio thread: every path here is free of allocation and locks.
extension RealtimeRenderer {
    /// Whether MIDI instrument mode is on (silent until a note).
    public var isInstrument: Bool { performer.settings.instrument }

    /// Only this MIDI channel (0...15) is heard; nil: all. Set it before the first period.
    public mutating func setMIDIChannel(_ channel: Int?) { performer.channelFilter = channel.map { max(0, min(15, $0)) } ?? -1 }

    /// Renders `count` samples: the engine alone in drone mode, else the notes' voices and,
    /// while the mode switch fades, the drone, summed and through the output stage in passes
    /// inside which every ramp is linear.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func renderSegment(into out: UnsafeMutablePointer<Float>, count: Int) {
        if performer.isPlainDrone {
            engine.render(into: out, count: count)
            return
        }
        var done = 0
        while done < count {
            var n = engine.passLength(upTo: min(count - done, ToneEngine.maximumBlock))
            if performer.droneLevel.isMoving { n = min(n, performer.droneLevel.remaining) }
            if engine.isStopped {
                engine.silence(out + done, count: n)  // every voice holds its place
            } else {
                let sum = engine.passSum  // not `out`: it only receives finished samples
                let voices = performer.renderVoices(into: sum, count: n, engine: &engine)
                if !performer.droneIsSilent {
                    engine.mixDrone(into: sum, count: n, weight: performer.droneWeight(count: n), voices ? .blend : .replace)
                } else {
                    if !voices { for k in 0..<n { sum[k] = 0 } }
                    engine.skipDrone(n)  // not heard: its ramps and fades run on, its kernel does not
                }
                engine.finishPass(into: out + done, count: n)
            }
            performer.droneLevel.advance(by: n)
            done += n
        }
    }

    /// One MIDI event, now.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func handle(_ event: MIDIEvent) {
        // A key an MTS-ESP master leaves unmapped starts nothing.
        if event.byte0 & 0xF0 == 0x90 && event.byte2 > 0 && event.size >= 3
            && mtsESP.shouldFilter(note: event.byte1, channel: event.byte0 & 0x0F)
        {
            return
        }
        apply(performer.handle(event, engine: &engine))
    }

    /// An MTS-ESP master's tuning table (128 frequencies in Hz; nil: no master connected),
    /// read by the host once a block: sounding voices move to it when it changed
    /// (``MIDIPerformer/takeExternalTuning(_:)``).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func takeExternalTuning(_ frequencies: UnsafePointer<Double>?) {
        apply(performer.takeExternalTuning(frequencies))
    }

    /// Tuning messages (MIDI Tuning Standard) refused so far: truncated, malformed, or a
    /// bulk dump whose checksum is wrong. The host reports them.
    public var refusedTuningMessages: Int { performer.refusedTuningMessages }

    /// Ends notes now, as a host's note-off or note choke with wildcards asks: the notes of
    /// `key` on `channel` (nil: every key, every channel)
    /// (``MIDIPerformer/endNotes(key:channel:choke:engine:)``). A host renders up to the
    /// event's frame first.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func endNotes(key: UInt8?, channel: UInt8?, choke: Bool) {
        apply(performer.endNotes(key: key, channel: channel, choke: choke, engine: &engine))
    }

    /// What the performer asked beyond its own state.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func apply(_ action: MIDIAction) {
        switch action {
        case .none: break
        case .transpose(let ratio): engine.transpose(to: ratio, over: performer.retuneSamples)
        case .program(let n): report.note(.program(n))
        case .learned(let controller, let id, let value):
            report.note(.learned(controller: controller, id))
            moveMapped(id, value)
        case .controller(let id, let value):
            moveMapped(id, value)
        }
    }

    /// A mapped controller moved: the audio side changes what it can itself (ramps,
    /// performance settings); the rest goes to the control side.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func moveMapped(_ id: ParameterID, _ value: UInt8) {
        let row = parameters.row(id)
        let cycle = Double(engine.plan.cycleLength) / engine.plan.sampleRate
        guard row.ramps, var number = row.controller.value(value, cycle: cycle) else {
            report.note(.controller(id, value: value))  // needs a new plan: the control side's
            return
        }
        // Keep the range the right way round, as the controller's checks would.
        if id == .minFrequency { number = min(number, engine.maxFrequency.target) }
        if id == .maxFrequency { number = max(number, engine.minFrequency.target) }
        applyAudioSideChange(.parameter(id, number))
    }

    /// A performance setting changed: the performer takes it; the engine's transposition follows.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func setPerformance(_ id: ParameterID, _ value: Double) {
        let wasFollowing = performer.settings.transport
        performer.set(id, value)
        engine.transpose(to: performer.engineRatio, over: performer.retuneSamples)
        if id == .transport && performer.settings.transport != wasFollowing {
            // Following starts as if the transport had just stopped: silent until it rolls.
            transportWasRolling = false
            transportGain.move(to: performer.settings.transport ? 0 : 1, over: fadeSamples)
        }
    }

    private var fadeSamples: Int { max(1, Int(ToneEngine.crossfadeSeconds * engine.plan.sampleRate)) }

    /// Once a period: silent while the transport is stopped; from the cycle's start (or the
    /// place the bar lines give) when it starts rolling; a tempo asks for the cycle to last `beats`.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func followTransport(_ transport: TransportState?, frames: Int) {
        guard performer.settings.transport, let transport else { return }
        if transport.rolling && !transportWasRolling {
            engine.restartCycle(at: cycleIndex(at: transport))
            transportGain.move(to: 1, over: fadeSamples)
            relocating = false
        } else if !transport.rolling && transportWasRolling {
            transportGain.move(to: 0, over: fadeSamples)
        } else if transport.rolling && transport.frame != expectedTransportFrame && !relocating {
            // Moved while rolling (a DAW's locate, a loop): fade out, then take the new place.
            relocating = true
            transportGain.move(to: 0, over: fadeSamples)
        }
        if relocating && transport.rolling && transportGain.value == 0 && !transportGain.isMoving {
            engine.restartCycle(at: cycleIndex(at: transport))
            transportGain.move(to: 1, over: fadeSamples)
            relocating = false
        }
        transportWasRolling = transport.rolling
        expectedTransportFrame = transport.frame + frames
        if let bbt = transport.bbt, performer.settings.beats > 0, bbt.beatsPerMinute > 0 {
            let wanted = performer.settings.beats * 60 / bbt.beatsPerMinute
            let playing = Double(engine.plan.cycleLength) / engine.plan.sampleRate
            if abs(wanted - playing) > 1e-3 * wanted && abs(wanted - requestedDuration) > 1e-6 * wanted
                && wanted >= ToneShapeLimits.minimumDuration && wanted <= ToneShapeLimits.maximumDuration
            {
                requestedDuration = wanted
                report.note(.duration(wanted))
            }
        }
    }

    /// Where in the cycle the transport's position falls: by bars and beats when a timebase
    /// master gives them and `beats` is set (a cycle of `beats` beats from bar 1), else by frames.
    private func cycleIndex(at transport: TransportState) -> Int {
        let length = engine.plan.cycleLength
        if let bbt = transport.bbt, performer.settings.beats > 0 {
            let beats = performer.settings.beats
            let into = bbt.beatsFromStart.truncatingRemainder(dividingBy: beats) / beats
            return Int(into * Double(length))
        }
        return transport.frame > 0 ? transport.frame % length : 0
    }

    /// The transport's gain over the period (1 and still: nothing to do).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func applyTransportGain(_ out: UnsafeMutablePointer<Float>, frames: Int) {
        if !transportGain.isMoving && transportGain.value == 1 { return }
        for i in 0..<frames {
            let g = Float(transportGain.value(after: i))
            let sample = out[i] * g
            out[i] = (sample < 0 ? -sample : sample) >= 1e-30 ? sample : 0
        }
        transportGain.advance(by: frames)
    }
}
