import ToneShaperCore

/// The core's refusals in the words of the web page and of HTTP clients: subjects by their
/// address below the prefix (as the page's controls are named), remedies by the control
/// that helps.
enum WebPhrasing {
    static func phrase(_ error: ControlError, prefix: String) -> String {
        error.phrased(
            naming: { subject in
                switch subject {
                case .value: return "value"
                case .parameter(let id): return prefix + "/" + ParameterTable.spec(id).oscPath
                case .command(let name): return prefix + "/" + name.rawValue
                case .engine: return "engine"
                case .time: return "time"
                }
            },
            remedy: { remedy in
                switch remedy {
                case .setRangeTogether: return "set both ends at once (\(prefix)/\(ControlCommand.Name.frequencyRange.rawValue))"
                default: return ControlError.neutralRemedy(remedy)
                }
            })
    }
}
