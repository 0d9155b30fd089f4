import ToneShaperParameters

/// What any front end may ask of the node, in its own words translated into these: the OSC
/// server, the command line, MIDI, a web page, a session manager. The controller gives each
/// its one meaning (`EngineController.perform`).
public enum ControlCommand: Sendable {
    /// The commands and queries beyond single parameters, by name (declared with the
    /// parameters, in ToneShaperParameters, since a refusal names them).
    public typealias Name = CommandName

    /// One or several parameters of the table, as one change: all of them or none.
    case set([(ParameterID, ParameterValue)])
    /// Both ends of the range; the curve is remapped onto it.
    case setFrequencyRange(min: ParameterValue, max: ParameterValue)
    /// Both echo values.
    case setEcho(offset: ParameterValue, volume: ParameterValue)
    /// The master gain in dBFS (0 or below).
    case setAmplitudeDecibels(ParameterValue)
    /// A new curve: t0 f0 t1 f1 ... (seconds, Hz), and each segment's curvature when given
    /// (nil: moved points keep theirs, another number of points starts straight).
    case setPoints([Double], curvatures: [Double]? = nil)
    /// A document from the library, by name (never a path).
    case load(name: String)
    /// The current shape into the library, by name.
    case save(name: String)
    /// Start (from the cycle's start) or stop, with a short fade.
    case play, stop
    /// Forget every change scheduled for later.
    case clearSchedule
    /// MIDI controller `controller` (0...119, not 64) moves the parameter; nil: nothing.
    case mapController(controller: Int, parameter: ParameterID?)
    /// MIDI learn: the next controller that moves is mapped to the parameter.
    case learnController(ParameterID)
    /// The MIDI keys' tuning: a Scala scale's text (`.scl`), kept with the keyboard map
    /// there is; a keyboard map's text (`.kbm`) for the scale there is, or nil for none; or
    /// back to 12-TET.
    case setTuningScale(String)
    case setTuningMap(String?)
    case resetTuning

    public static func set(_ id: ParameterID, _ value: ParameterValue) -> ControlCommand { .set([(id, value)]) }

    var name: Name? {
        switch self {
        case .set: return nil
        case .setFrequencyRange: return .frequencyRange
        case .setEcho: return .echo
        case .setAmplitudeDecibels: return .amplitudeDecibels
        case .setPoints: return .points
        case .load: return .load
        case .save: return .save
        case .play: return .play
        case .stop: return .stop
        case .clearSchedule: return .clearSchedule
        case .mapController: return .midiMap
        case .learnController: return .midiLearn
        case .setTuningScale: return .tuningScale
        case .setTuningMap: return .tuningMap
        case .resetTuning: return .tuningReset
        }
    }
}

/// What a front end's request turned out to be: a change, or a question.
public enum ControlRequest: Sendable {
    case command(ControlCommand)
    /// Nothing to do (a button's release).
    case nothing
    case query(ControlQuery)
}

public enum ControlQuery: Sendable, Equatable {
    /// Every parameter, "playing", and the points.
    case state
    /// The audio callback's timing.
    case stats
    /// The curve's points alone.
    case points
}

/// What a landed command reports beyond "done": things the user should know (points above
/// the running rate's Nyquist are clamped, say).
public struct ControlReceipt: Sendable, Equatable {
    public var notes: [String] = []
    public init(notes: [String] = []) { self.notes = notes }
}
