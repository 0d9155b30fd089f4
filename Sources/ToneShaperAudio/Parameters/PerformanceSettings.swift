/// A shape's settings for playing it live; see `ParameterTable.performanceRows`.
public struct PerformanceSettings: Equatable, Sendable, BitwiseCopyable {
    public static let maximumVoices = 64
    public var instrument = false
    public var rootNote = 69
    public var bendRange = 2.0
    public var voices = 16
    /// Milliseconds.
    public var release = 30.0
    public var oneShot = false
    public var transport = false
    public var beats = 0.0

    public init() {}

    public static func isPerformance(_ id: ParameterID) -> Bool {
        switch id {
        case .instrument, .rootNote, .bendRange, .voices, .release, .oneShot, .transport, .beats: return true
        case .minFrequency, .maxFrequency, .wave, .scale, .echoOffset, .echoVolume, .amplitude, .duration, .fidelity, .fourierTerms,
            .antiAlias, .tune:
            return false
        }
    }

    /// Stores a value the audio side took, within the parameter's range already (its one
    /// clamp, `AudioParameters.clamped`).
    public mutating func set(_ id: ParameterID, _ value: Double) {
        switch id {
        case .instrument: instrument = value != 0
        case .rootNote: rootNote = Int(value)
        case .bendRange: bendRange = value
        case .voices: voices = Int(value)
        case .release: release = value
        case .oneShot: oneShot = value != 0
        case .transport: transport = value != 0
        case .beats: beats = value
        case .minFrequency, .maxFrequency, .wave, .scale, .echoOffset, .echoVolume, .amplitude, .duration, .fidelity, .fourierTerms,
            .antiAlias, .tune:
            break  // the shape's, not the performance's (`isPerformance`)
        }
    }
}
