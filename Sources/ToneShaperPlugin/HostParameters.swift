import CPluginSupport
import ToneShaperModel
import ToneShaperParameters

/// The parameters as a format whose host sets them by id offers them (CLAP, VST3): one per
/// row of the table, its id the row's stable number for good, its range the plugin's port
/// range (a choice's indices, a toggle's 0 and 1, Fourier terms 0...the table's partials, 0
/// for every partial below Nyquist); the value as text and back. What a host shows (name,
/// group, steps, modulation) is the row's presentation: a shell copies it into its ABI's
/// structure and decides nothing.
public enum HostParameter {
    public static var count: Int { ParameterTable.all.count }

    /// The row whose number is `id`, if any (off the audio thread: ``HostParameters/row(_:)`` on it).
    public static func row(of id: UInt32) -> Int? { ParameterTable.all.firstIndex { $0.number == Int(id) } }

    /// The row's stable number: its id in every format.
    public static func id(_ row: Int) -> UInt32 { UInt32(ParameterTable.all[row].number) }

    public static func range(_ row: Int) -> ClosedRange<Double> {
        switch ParameterTable.all[row].kind {
        case .real(let range): return range
        case .integer(let range): return Double(range.lowerBound)...Double(range.upperBound)
        case .choice(let names): return 0...Double(names.count - 1)
        case .flag: return 0...1
        case .terms: return 0...Double(ToneShapeLimits.maximumPartials)
        }
    }

    /// Whole numbers only (a count, a note, a choice, a toggle): the row's ``ParameterSpec/isStepped``.
    public static func stepped(_ row: Int) -> Bool { ParameterTable.all[row].isStepped }

    /// A choice among names (an enumeration, for hosts that list them).
    public static func isChoice(_ row: Int) -> Bool {
        if case .choice = ParameterTable.all[row].kind { return true }
        return false
    }

    /// Whether a host may modulate it without changing the saved value: the row's presentation says.
    public static func modulatable(_ row: Int) -> Bool { ParameterTable.all[row].presentation.modulatable }

    /// Whether a change of it needs a new plan (built off the audio thread, which a block feeds).
    public static func needsPlan(_ row: Int) -> Bool { ParameterTable.all[row].change == .newPlan }

    public static func defaultValue(_ row: Int) -> Double { ParameterTable.all[row].portValue(in: ToneShape.defaultShape) }

    /// The name a host shows: the row's ``ParameterSpec/displayName`` ("Min frequency").
    public static func name(_ row: Int) -> String { ParameterTable.all[row].displayName }

    /// The group a host shows it in: the row's group's name ("Shape").
    public static func group(_ row: Int) -> String { ParameterTable.all[row].presentation.group.name }

    /// The unit after a number ("Hz", "s"; may be empty).
    public static func unit(_ row: Int) -> String { ParameterTable.all[row].unit }

    /// The value as text: a choice's name, On or Off, Nyquist for 0 terms, a number with its
    /// unit. ``value(_:text:)`` reads every such text back.
    public static func text(_ row: Int, _ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let spec = ParameterTable.all[row]
        switch spec.kind {
        case .choice(let names):
            let index = Int(value.rounded())
            return index >= 0 && index < names.count ? names[index] : nil
        case .flag: return value > 0 ? "On" : "Off"
        case .terms: return value < 0.5 ? "Nyquist" : String(Int(value.rounded()))
        case .integer: return String(Int(value.rounded()))
        case .real: return format(value, digits: 6, unit: spec.unit)
        }
    }

    /// A number with up to `digits` significant digits and its unit ("440 Hz"). C formats it
    /// (Embedded Swift's description of a Double is not fixed point).
    public static func format(_ value: Double, digits: Int32, unit: String) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        unit.withCString { unit in toneshaper_plugin_format_number(&buffer, 64, value, digits, unit) }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Text a user typed (or ``text(_:_:)`` wrote), as the parameter's value; nil when it is
    /// not one of its values.
    public static func value(_ row: Int, text: String) -> Double? {
        let spec = ParameterTable.all[row]
        let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        let range = range(row)
        switch spec.kind {
        case .real, .integer:
            var number = 0.0
            guard trimmed.withCString({ toneshaper_plugin_parse_number($0, &number) }) != 0, number.isFinite, range.contains(number) else {
                return nil
            }
            return stepped(row) ? number.rounded() : number
        case .choice, .flag, .terms:
            do throws(ControlError) {
                let port = spec.portValue(of: try spec.canonical(ParameterValue.parsing(trimmed)))
                return range.contains(port) ? port : nil
            } catch {
                return nil
            }
        }
    }

    /// Copies `text` into a fixed C buffer, cut to fit, NUL-terminated.
    public static func copyText(_ text: String, into buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        var written = 0
        for byte in text.utf8 where written < buffer.count - 1 {
            buffer[written] = byte
            written += 1
        }
        buffer[written] = 0
    }
}

/// The parameters' values as a host set them (by id, with modulation on top), in memory
/// allocated with the instance (the audio thread reads no global): each row's range, whether
/// it steps or may be modulated, the row of each id, the value the host set, the modulation
/// added, and the rows set while the plugin was not active (taken at activation, plans
/// included, so the first block plays them). Values are plain numbers: the main thread reads
/// what the audio thread wrote, whole and aligned.
public struct HostParameters {
    public let count: Int
    let low: UnsafeMutablePointer<Double>
    let high: UnsafeMutablePointer<Double>
    let stepped: UnsafeMutablePointer<Bool>
    let modulatable: UnsafeMutablePointer<Bool>
    let logarithmic: UnsafeMutablePointer<Bool>
    let rowOfID: UnsafeMutablePointer<Int32>
    let idCount: Int
    /// Each row's value as the host set it, and the modulation added to it.
    public let values: UnsafeMutablePointer<Double>
    public let modulation: UnsafeMutablePointer<Double>
    let pending: UnsafeMutablePointer<Bool>

    /// Why ``set(_:_:modulation:active:)`` refused a value (a shell counts it as its own problem).
    public enum Refusal: Error, Equatable, Sendable {
        case unknownID, notFinite, outOfRange, notModulatable
    }

    public init() {
        count = HostParameter.count
        low = .allocate(capacity: count)
        high = .allocate(capacity: count)
        stepped = .allocate(capacity: count)
        modulatable = .allocate(capacity: count)
        logarithmic = .allocate(capacity: count)
        values = .allocate(capacity: count)
        modulation = .allocate(capacity: count)
        pending = .allocate(capacity: count)
        idCount = (ParameterTable.all.map { $0.number }.max() ?? 0) + 1
        rowOfID = .allocate(capacity: idCount)
        rowOfID.initialize(repeating: -1, count: idCount)
        for row in 0..<count {
            let range = HostParameter.range(row)
            (low + row).initialize(to: range.lowerBound)
            (high + row).initialize(to: range.upperBound)
            (stepped + row).initialize(to: HostParameter.stepped(row))
            (modulatable + row).initialize(to: HostParameter.modulatable(row))
            (logarithmic + row).initialize(to: HostParameter.logarithmic(row))
            (values + row).initialize(to: HostParameter.defaultValue(row))
            rowOfID[ParameterTable.all[row].number] = Int32(row)
        }
        modulation.initialize(repeating: 0, count: count)
        pending.initialize(repeating: false, count: count)
    }

    public func free() {
        low.deallocate()
        high.deallocate()
        stepped.deallocate()
        modulatable.deallocate()
        logarithmic.deallocate()
        rowOfID.deallocate()
        values.deallocate()
        modulation.deallocate()
        pending.deallocate()
    }

    /// The row of `id` (on the audio thread too).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func row(_ id: UInt32) -> Int? {
        guard Int(id) < idCount else { return nil }
        let row = Int(rowOfID[Int(id)])
        return row >= 0 ? row : nil
    }

    /// A host's value (or modulation) for `id`: checked (a known id, a finite number in the
    /// range, a stepped one rounded; modulation only where the row allows it) and kept. Active,
    /// it returns the row and the value to play (value plus modulation, in the range) for the
    /// engine; not active, the row waits for activation (nil). A refusal changes nothing.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func set(_ id: UInt32, _ value: Double, modulation isModulation: Bool, active: Bool) throws(Refusal) -> (row: Int, value: Double)? {
        guard let row = row(id) else { throw .unknownID }
        guard value.isFinite else { throw .notFinite }
        if isModulation {
            guard modulatable[row] else { throw .notModulatable }
            modulation[row] = value
        } else {
            guard value >= low[row], value <= high[row] else { throw .outOfRange }
            values[row] = stepped[row] ? value.rounded() : value
        }
        guard active else {
            pending[row] = true
            return nil
        }
        return (row, played(row))
    }

    /// The row's value at a host's `normalized` value (``HostParameter/plain(_:normalized:)``, on the audio thread).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func plain(_ row: Int, normalized: Double) -> Double {
        HostParameter.plain(normalized, low: low[row], high: high[row], logarithmic: logarithmic[row], stepped: stepped[row])
    }

    /// The value played: the host's plus its modulation, in the range.
    public func played(_ row: Int) -> Double { min(high[row], max(low[row], values[row] + modulation[row])) }

    /// At activation: the rows set while not active, with the values to play.
    public func takePending() -> [(row: Int, value: Double)] {
        var moved: [(row: Int, value: Double)] = []
        for row in 0..<count where pending[row] {
            pending[row] = false
            moved.append((row, played(row)))
        }
        return moved
    }

    /// The values as `engine` plays them (a program change or a mapped controller moved them
    /// behind the host's back); a row the host set and the engine has not taken yet keeps the host's.
    public func refresh<Host: PluginHost>(from engine: PluginEngine<Host>) {
        let pending = self.pending
        let values = self.values
        engine.playedValues { row, value in if !pending[row] { values[row] = value } }
    }

    /// A document was loaded: every value is its, no modulation, nothing pending.
    public func reset(to shape: ToneShape) {
        for row in 0..<count {
            values[row] = ParameterTable.all[row].portValue(in: shape)
            modulation[row] = 0
            pending[row] = false
        }
    }

    /// The document to save (as `document` plays): modulation is the host's, not the
    /// project's, so a modulated parameter is saved at the value the host set.
    public func unmodulated(_ document: [UInt8]) -> [UInt8] {
        guard (0..<count).contains(where: { modulation[$0] != 0 }),
            var shape = try? ToneShapeDocument.decode(document, source: "document")
        else { return document }
        for row in 0..<count where modulation[row] != 0 {
            let spec = ParameterTable.all[row]
            shape[spec.id] = spec.value(fromPort: values[row])
        }
        return ToneShapeDocument.encode(shape)
    }
}

extension HostParameter {
    /// `value` as a host that automates 0...1 sees it (VST 3's normalized value): along the
    /// row's range, in equal steps of pitch where the row's presentation is logarithmic (a
    /// frequency, a length), evenly elsewhere. ``plain(_:normalized:)`` is its inverse.
    public static func normalized(_ row: Int, _ value: Double) -> Double {
        let range = range(row)
        guard range.upperBound > range.lowerBound, value.isFinite else { return 0 }
        let clamped = min(range.upperBound, max(range.lowerBound, value))
        if logarithmic(row) { return ParameterSpec.log2(clamped / range.lowerBound) / ParameterSpec.log2(range.upperBound / range.lowerBound) }
        return (clamped - range.lowerBound) / (range.upperBound - range.lowerBound)
    }

    /// The row's value at `normalized` (0...1, clamped), a stepped one rounded.
    public static func plain(_ row: Int, normalized: Double) -> Double {
        let range = range(row)
        return plain(normalized, low: range.lowerBound, high: range.upperBound, logarithmic: logarithmic(row), stepped: stepped(row))
    }

    /// ``plain(_:normalized:)`` over a row's numbers (the audio thread's copy of them).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    static func plain(_ normalized: Double, low: Double, high: Double, logarithmic: Bool, stepped: Bool) -> Double {
        let x = normalized.isFinite ? min(1, max(0, normalized)) : 0
        let value = logarithmic ? low * FastPower.exp2(x * ParameterSpec.log2(high / low)) : low + x * (high - low)
        return stepped ? value.rounded() : min(high, max(low, value))
    }

    /// How many steps a stepped row has (its range's width), 0 for a continuous one.
    public static func stepCount(_ row: Int) -> Int {
        guard stepped(row) else { return 0 }
        let range = range(row)
        return Int(range.upperBound - range.lowerBound)
    }

    static func logarithmic(_ row: Int) -> Bool { ParameterTable.all[row].presentation.logarithmic && range(row).lowerBound > 0 }
}
