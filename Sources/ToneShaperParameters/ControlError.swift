/// Why a change or a request was refused. It says what was wrong in neutral words; each
/// front end names the subject and the remedy the way its user does (a document key, a
/// `--option`, an OSC address), see `ControlError.phrased(naming:remedy:)`.
public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Subject: Equatable, Hashable, Sendable {
        /// A value not yet tied to a parameter (`ParameterKind.canonical`); `about(_:)` ties it.
        case value
        case parameter(ParameterID)
        /// A command of several values or none: the range, the echo pair, the points, load, save...
        case command(CommandName)
        /// The audio side: its channel is full, or it takes no changes.
        case engine
        /// The moment a change was asked for (too far ahead, or the schedule is full).
        case time
    }

    /// What the user can do about it, phrased by the front end.
    public enum Remedy: Equatable, Sendable {
        /// One end of the range would pass the other: set both ends at once.
        case setRangeTogether
        /// The audio thread has changes waiting; try again in a moment.
        case retryShortly
        /// The audio thread takes no new curves: it is not running (its host knows why).
        case startAudio
    }

    public var subject: Subject
    public var problem: String
    public var remedy: Remedy?

    public init(_ subject: Subject, _ problem: String, remedy: Remedy? = nil) {
        self.subject = subject
        self.problem = problem
        self.remedy = remedy
    }

    /// The same error about parameter `id` (a `.value` error only; others keep their subject).
    public func about(_ id: ParameterID) -> ControlError {
        guard subject == .value else { return self }
        var e = self
        e.subject = .parameter(id)
        return e
    }

    /// The error in a front end's words: `name` says how it calls a subject, `remedy` how
    /// it phrases a remedy (nil: no advice in this front end).
    public func phrased(naming name: (Subject) -> String, remedy phrase: (Remedy) -> String?) -> String {
        var text = "\(name(subject)): \(problem)"
        if let remedy, let advice = phrase(remedy) { text += "; \(advice)" }
        return text
    }

    /// The error as the front ends that speak addresses say it (OSC, and the web page's
    /// HTTP and WebSocket clients): subjects by their full address below `prefix`,
    /// remedies by the address that helps.
    public func phrased(addressPrefix prefix: String) -> String {
        phrased(
            naming: { subject in
                switch subject {
                case .parameter(let id): return prefix + "/" + ParameterTable.spec(id).oscPath
                case .command(let name): return prefix + "/" + name.rawValue
                case .time: return "time tag"
                case .value, .engine: return ControlError.neutralName(subject)
                }
            },
            remedy: { remedy in
                switch remedy {
                case .setRangeTogether: return "set both ends at once with \(prefix)/\(CommandName.frequencyRange.rawValue)"
                case .startAudio: return "the node's audio is not running; is the JACK server up?"
                case .retryShortly: return ControlError.neutralRemedy(remedy)
                }
            })
    }

    /// Neutral wording, for logs and tests: parameters by their document key.
    public var description: String {
        phrased(naming: ControlError.neutralName, remedy: ControlError.neutralRemedy)
    }

    public static func neutralName(_ subject: Subject) -> String {
        switch subject {
        case .value: return "value"
        case .parameter(let id): return ParameterTable.spec(id).documentKey
        case .command(let name): return name.rawValue
        case .engine: return "engine"
        case .time: return "time"
        }
    }

    public static func neutralRemedy(_ remedy: Remedy) -> String? {
        switch remedy {
        case .setRangeTogether: return "set both ends of the range at once"
        case .retryShortly: return "try again in a moment"
        case .startAudio: return "the audio engine is not taking new curves; is it running?"
        }
    }
}
