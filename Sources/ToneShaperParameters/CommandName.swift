/// The commands and queries beyond single parameters, by name. Their addresses (below
/// an OSC prefix, or a URL path) are the raw values.
public enum CommandName: String, CaseIterable, Hashable, Sendable {
    case frequencyRange = "frequency/range"
    case echo
    case amplitudeDecibels = "amplitude/db"
    case points
    case load, save, play, stop
    case clearSchedule = "schedule/clear"
    case state, stats
    case midiMap = "midi/map"
    case midiLearn = "midi/learn"
    case tuningScale = "tuning/scale"
    case tuningMap = "tuning/map"
    case tuningReset = "tuning/reset"
}
