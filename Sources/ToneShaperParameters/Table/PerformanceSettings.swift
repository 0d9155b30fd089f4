/// A shape's settings for playing it live: the values of the table's performance rows
/// (``ParameterSpec/isPerformance``), by id, as the MIDI performer reads them. A row added to
/// the table is here with it (its default until set); the names below are the performer's
/// own reading of the rows it binds.
public struct PerformanceSettings: Equatable, Sendable, BitwiseCopyable {
    public static let maximumVoices = 64
    public var values: ParameterValues

    /// Every performance row at the table's default.
    public init() { self = ParameterTable.performanceDefaults }

    /// The performance rows of `values` (every row of a shape, as its controls carry them).
    public init(values: ParameterValues) { self.values = values }

    @inlinable
    public subscript(id: ParameterID) -> Double {
        get { values[id] }
        set { values[id] = newValue }
    }

    /// Stores a value the audio side took, within the parameter's range already (its one
    /// clamp, `AudioParameters.clamped`). A row that is not a performance row is kept too,
    /// and read by no one.
    @inlinable
    public mutating func set(_ id: ParameterID, _ value: Double) { values[id] = value }

    @inlinable
    public var instrument: Bool {
        get { values[.instrument] != 0 }
        set { values[.instrument] = newValue ? 1 : 0 }
    }
    @inlinable
    public var rootNote: Int {
        get { Int(values[.rootNote]) }
        set { values[.rootNote] = Double(newValue) }
    }
    @inlinable
    public var bendRange: Double {
        get { values[.bendRange] }
        set { values[.bendRange] = newValue }
    }
    @inlinable
    public var voices: Int {
        get { Int(values[.voices]) }
        set { values[.voices] = Double(newValue) }
    }
    /// Milliseconds.
    @inlinable
    public var release: Double {
        get { values[.release] }
        set { values[.release] = newValue }
    }
    @inlinable
    public var oneShot: Bool {
        get { values[.oneShot] != 0 }
        set { values[.oneShot] = newValue ? 1 : 0 }
    }
    @inlinable
    public var transport: Bool {
        get { values[.transport] != 0 }
        set { values[.transport] = newValue ? 1 : 0 }
    }
    @inlinable
    public var beats: Double {
        get { values[.beats] }
        set { values[.beats] = newValue }
    }
}

extension ParameterTable {
    /// The performance rows at their defaults, as the performer reads them.
    static let performanceDefaults: PerformanceSettings = {
        var values = ParameterValues()
        for spec in all where spec.isPerformance {
            if let value = spec.defaultValue { values[spec.id] = spec.portValue(of: value) }
        }
        return PerformanceSettings(values: values)
    }()
}
