/// How a MIDI controller's 0...127 becomes a parameter's value: one evaluator for the
/// control side (`MIDIControllerMap.value`) and the audio side (`AudioParameters`), derived
/// from the parameter table's `controller` column (`ParameterSpec.controllerCurve`). Plain
/// arithmetic on plain data, so the audio thread evaluates it as it is.
public struct ControllerCurve: Sendable, BitwiseCopyable, Equatable {
    public enum Shape: UInt8, Sendable, BitwiseCopyable {
        /// No controller moves the parameter.
        case none
        /// low + x (high - low), x = controller / 127.
        case linear
        /// low 2^(x octaves): equal steps in pitch.
        case logarithmic
        /// x times the cycle's duration.
        case cycle
        /// Off below 64, on from 64.
        case toggle
        /// The linear value rounded to a whole number.
        case stepped
    }

    public let shape: Shape
    public let low: Double
    public let high: Double
    /// log2(high / low), for `logarithmic`.
    public let octaves: Double

    public init(_ shape: Shape, low: Double = 0, high: Double = 1, octaves: Double = 0) {
        self.shape = shape
        self.low = low
        self.high = high
        self.octaves = octaves
    }

    /// The value of a controller at `controller` (0...127; more counts as 127), for a shape
    /// whose cycle lasts `cycle` seconds; nil when no controller moves the parameter.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inlinable
    public func value(_ controller: UInt8, cycle: Double) -> Double? {
        let x = Double(min(controller, 127)) / 127
        switch shape {
        case .none: return nil
        case .linear: return low + x * (high - low)
        case .logarithmic: return low * FastPower.exp2(x * octaves)
        case .cycle: return x * cycle
        case .toggle: return controller >= 64 ? 1 : 0
        case .stepped: return Double(Int(low + x * (high - low) + 0.5))  // low >= 0: rounds half up
        }
    }
}
