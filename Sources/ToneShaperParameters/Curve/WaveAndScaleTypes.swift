/// The periodic unit function s(p), p in [0, 1), that the phase drives (SPEC 4).
public enum WaveType: String, CaseIterable, Sendable {
    case sine = "Sine"
    case square = "Square"
    case squareFourier = "Square Fourier"
    case triangle = "Triangle"
    case triangleFourier = "Triangle Fourier"
    case sawtooth = "Sawtooth"
    case sawtoothFourier = "Sawtooth Fourier"

    // Switches, not ==: a raw-valued enum's == may compare the raw strings.
    @inlinable public var isFourier: Bool {
        switch self {
        case .squareFourier, .triangleFourier, .sawtoothFourier: return true
        default: return false
        }
    }
}

/// Amplitude scaling over one cycle (SPEC 5).
public enum ScaleType: String, CaseIterable, Sendable {
    case none = "None"
    case linear = "Linear"
    case sine = "Sine"
    case triangle = "Triangle"
    case parabolic = "Parabolic"
    case exponential = "Exponential"
    case twoStep = "Two Step"
    case wideTwoStep = "Wide Two Step"
}

// Plans carry them to the audio thread (ToneShaperDSP's `RenderPlan` is plain data).
extension WaveType: BitwiseCopyable {}
extension ScaleType: BitwiseCopyable {}
