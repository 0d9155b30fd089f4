/// Every parameter of a tone shape. The parameter table (ToneShaperCore's `ParameterTable`)
/// declares each once, with its document key, address, option, range and controller
/// scaling; the audio side knows a parameter by this id alone.
public enum ParameterID: String, CaseIterable, Hashable, Sendable {
    case minFrequency, maxFrequency, wave, scale, echoOffset, echoVolume, amplitude
    case duration, fidelity, fourierTerms, antiAlias
    // Added after the plugin's first release (ParameterSpec.addedIn).
    case tune
    // Playing it (ParameterTable+Performance.swift).
    case instrument, rootNote, bendRange, voices, release, oneShot, transport, beats
}

// Ids travel to and from the audio thread (`EngineCommand.ramp`, `AudioSideChange`).
extension ParameterID: BitwiseCopyable {}
