import ToneShaperDSP
import ToneShaperParameters

/// A change for the audio thread. Plain data (`BitwiseCopyable`, checked by the compiler),
/// so it crosses the lock-free channel without allocation; prepared (validated, plans
/// built) on the control side.
public enum EngineCommand: Sendable, BitwiseCopyable {
    /// Ramp one continuous parameter (a `.ramp` row of the parameter table) to a value.
    case ramp(ParameterID, Double)
    /// Cross-fade to a new plan: a new curve, wave, scaling, echo offset, duration,
    /// fidelity or sample rate. Phase and cycle position carry over.
    case replacePlan(RenderPlan)
    /// Fade in from the start of the cycle (or back up, if a fade-out is under way).
    case play
    /// Fade out and hold.
    case stop
    /// Drop every command scheduled for a later moment (their plans are handed back).
    case clearSchedule
    /// MIDI controller `controller` (0...127) moves `parameter` from now on (nil: nothing).
    case mapController(UInt8, ParameterID?)
    /// The next controller that moves gets mapped to the parameter (MIDI learn).
    case learnController(ParameterID)
    /// Drop the keys the MIDI Tuning Standard retuned (OSC's `tuning/reset`): every key
    /// plays the shape's tuning again, sounding voices too.
    case resetTunedKeys

    public var replacesPlan: Bool {
        if case .replacePlan = self { return true }
        return false
    }
}

/// When a command should sound.
public enum CommandTime: Sendable, BitwiseCopyable, Equatable {
    /// At the start of the next period the audio thread renders.
    case now
    /// Wall-clock microseconds since 1970 (an OSC time tag); the audio thread turns it into
    /// a frame with the period's clock.
    case wallClock(micros: Double)
}

/// A command with the moment it is due.
public struct TimedCommand: Sendable, BitwiseCopyable {
    public var command: EngineCommand
    public var time: CommandTime

    public init(_ command: EngineCommand, time: CommandTime = .now) {
        self.command = command
        self.time = time
    }

    /// The wall-clock time it is due (Unix seconds), or nil for "at once".
    public var dueSeconds: Double? {
        if case .wallClock(let micros) = time { return micros / 1_000_000 }
        return nil
    }
}

/// A change the audio thread made itself (a MIDI controller, say), reported back so that
/// the control side's state always equals what plays.
public enum AudioSideChange: Sendable, BitwiseCopyable, Equatable {
    /// A `.ramp` parameter of the table moved to this value.
    case parameter(ParameterID, Double)
    case playing(Bool)
}

/// What the audio thread hands back to the control side, on one channel.
public enum AudioHandback: Sendable, BitwiseCopyable, Equatable {
    /// A plan it no longer reads: its storage may be freed.
    case retiredPlan(storageID: Int)
    /// This many scheduled commands were applied or dropped: room in the schedule again.
    case scheduledFinished(Int)
    case change(AudioSideChange)
    /// Something the audio side cannot do itself (a new plan, a document): the control
    /// side performs it.
    case request(AudioRequest)
}

/// What MIDI asked for that only the control side can do, reported by the audio side.
public enum AudioRequest: Sendable, BitwiseCopyable, Equatable {
    /// A controller mapped to a parameter that needs a new plan moved to `value` (0...127).
    case controller(ParameterID, value: UInt8)
    /// Program change: load the `program`th document of the listing (`toneshaper presets`).
    case program(UInt8)
    /// MIDI learn mapped `controller` to the parameter.
    case learned(controller: UInt8, ParameterID)
    /// JACK transport's tempo asks for a cycle this long (seconds).
    case duration(Double)
}
