/// Every parameter of a tone shape, by its number for good (``ParameterSpec/number``: the
/// raw value, never reused, never the row's position). The parameter table
/// (``ParameterTable``) declares each once, with its document key, address, option, range,
/// controller scaling and presentation; the audio side knows a parameter by this id alone.
public enum ParameterID: UInt8, CaseIterable, Hashable, Sendable {
    case minFrequency = 0
    case maxFrequency, wave, scale, echoOffset, echoVolume, amplitude
    case duration, fidelity, fourierTerms, antiAlias
    // Playing it (ParameterTable+Performance.swift).
    case instrument = 11
    case rootNote, bendRange, voices, release, oneShot, transport, beats
    // Added after the plugin's first release (ParameterSpec.addedIn).
    case tune = 19
    case glide = 20
}

// Ids travel to and from the audio thread (`EngineCommand.ramp`, `AudioSideChange`).
extension ParameterID: BitwiseCopyable {}

/// One number per parameter, by id: what the audio side keeps of a shape's values (the
/// MIDI performer's settings), plain data with room for every id.
public struct ParameterValues: Sendable, BitwiseCopyable, Equatable {
    /// Room for ids 0..<capacity (RowBindingTests checks every id fits).
    public static let capacity = 32
    @usableFromInline var storage: InlineArray<32, Double>

    @inlinable public init() { storage = InlineArray(repeating: 0) }

    @inlinable
    public subscript(id: ParameterID) -> Double {
        get { storage[Int(id.rawValue)] }
        set { storage[Int(id.rawValue)] = newValue }
    }

    public static func == (a: ParameterValues, b: ParameterValues) -> Bool {
        for i in 0..<capacity where a.storage[i] != b.storage[i] && !(a.storage[i].isNaN && b.storage[i].isNaN) { return false }
        return true
    }
}
