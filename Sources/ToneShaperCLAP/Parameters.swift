import CCLAP
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// The parameters as CLAP offers them: one per row of the table, its id the row's stable
/// number, its range the plugin's port range (a choice's indices, a toggle's 0 and 1,
/// Fourier terms 0...the table's partials with 0 for every partial below Nyquist). What a
/// host shows (the name, the module, whether it steps, whether it may be modulated) is the
/// row's presentation: nothing here decides it.
enum CLAPParameters {
    static var count: Int { ParameterTable.all.count }

    /// The row whose number is `id`, if any.
    static func row(of id: UInt32) -> Int? { ParameterTable.all.firstIndex { $0.number == Int(id) } }

    static func range(_ row: Int) -> ClosedRange<Double> {
        switch ParameterTable.all[row].kind {
        case .real(let range): return range
        case .integer(let range): return Double(range.lowerBound)...Double(range.upperBound)
        case .choice(let names): return 0...Double(names.count - 1)
        case .flag: return 0...1
        case .terms: return 0...Double(ToneShapeLimits.maximumPartials)
        }
    }

    /// Whole numbers only (a count, a note, a choice, a toggle): the row's ``ParameterSpec/isStepped``.
    static func stepped(_ row: Int) -> Bool { ParameterTable.all[row].isStepped }

    /// Whether a host may modulate it without changing the saved value: the row's
    /// presentation says.
    static func modulatable(_ row: Int) -> Bool { ParameterTable.all[row].presentation.modulatable }

    static func defaultValue(_ row: Int) -> Double { ParameterTable.all[row].portValue(in: ToneShape.defaultShape) }

    /// The name a host shows: the row's ``ParameterSpec/displayName`` ("Min frequency").
    static func name(_ row: Int) -> String { ParameterTable.all[row].displayName }

    /// The module path a host groups the parameter under: the row's group's name ("Shape").
    static func module(_ row: Int) -> String { ParameterTable.all[row].presentation.group.name }

    static func info(_ row: Int, into info: inout toneshaper_clap_param_info) {
        let spec = ParameterTable.all[row]
        info.id = UInt32(spec.number)
        var flags = UInt32(TONESHAPER_CLAP_PARAM_IS_AUTOMATABLE)
        if stepped(row) { flags |= UInt32(TONESHAPER_CLAP_PARAM_IS_STEPPED) }
        if case .choice = spec.kind { flags |= UInt32(TONESHAPER_CLAP_PARAM_IS_ENUM) }
        if modulatable(row) { flags |= UInt32(TONESHAPER_CLAP_PARAM_IS_MODULATABLE) }
        // A change that needs a new plan is built off the audio thread, which process() feeds.
        if spec.change == .newPlan { flags |= UInt32(TONESHAPER_CLAP_PARAM_REQUIRES_PROCESS) }
        info.flags = flags
        info.cookie = nil
        withUnsafeMutableBytes(of: &info.name) { copyText(name(row), into: $0) }
        withUnsafeMutableBytes(of: &info.module) { copyText(module(row), into: $0) }
        let range = range(row)
        info.min_value = range.lowerBound
        info.max_value = range.upperBound
        info.default_value = defaultValue(row)
    }

    /// The value as text: a choice's name, On or Off, Nyquist for 0 terms, a number with
    /// its unit. ``value(_:text:)`` reads every such text back.
    static func text(_ row: Int, _ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let spec = ParameterTable.all[row]
        switch spec.kind {
        case .choice(let names):
            let index = Int(value.rounded())
            return index >= 0 && index < names.count ? names[index] : nil
        case .flag: return value > 0 ? "On" : "Off"
        case .terms: return value < 0.5 ? "Nyquist" : String(Int(value.rounded()))
        case .integer: return String(Int(value.rounded()))
        case .real:
            // C formats the number (Embedded Swift's description of a Double is not fixed point).
            var buffer = [CChar](repeating: 0, count: 64)
            spec.unit.withCString { unit in toneshaper_clap_format(&buffer, 64, value, 6, unit) }
            return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
    }

    /// Text a user typed (or ``text(_:_:)`` wrote), as the parameter's value; nil when it
    /// is not one of its values.
    static func value(_ row: Int, text: String) -> Double? {
        let spec = ParameterTable.all[row]
        let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        let range = range(row)
        switch spec.kind {
        case .real, .integer:
            var number = 0.0
            guard trimmed.withCString({ toneshaper_clap_parse($0, &number) }) != 0, number.isFinite, range.contains(number) else { return nil }
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
    static func copyText(_ text: String, into buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        var written = 0
        for byte in text.utf8 where written < buffer.count - 1 {
            buffer[written] = byte
            written += 1
        }
        buffer[written] = 0
    }
}

/// The table as process() reads it, in memory allocated with the instance (process() reads
/// no global): each row's range, whether it is stepped or modulatable, and the row of each id.
struct ParameterLimits {
    let count: Int
    let low: UnsafeMutablePointer<Double>
    let high: UnsafeMutablePointer<Double>
    let stepped: UnsafeMutablePointer<Bool>
    let modulatable: UnsafeMutablePointer<Bool>
    let rowOfID: UnsafeMutablePointer<Int32>
    let idCount: Int

    init() {
        count = CLAPParameters.count
        low = .allocate(capacity: count)
        high = .allocate(capacity: count)
        stepped = .allocate(capacity: count)
        modulatable = .allocate(capacity: count)
        idCount = (ParameterTable.all.map { $0.number }.max() ?? 0) + 1
        rowOfID = .allocate(capacity: idCount)
        rowOfID.initialize(repeating: -1, count: idCount)
        for row in 0..<count {
            let range = CLAPParameters.range(row)
            (low + row).initialize(to: range.lowerBound)
            (high + row).initialize(to: range.upperBound)
            (stepped + row).initialize(to: CLAPParameters.stepped(row))
            (modulatable + row).initialize(to: CLAPParameters.modulatable(row))
            rowOfID[ParameterTable.all[row].number] = Int32(row)
        }
    }

    func free() {
        low.deallocate()
        high.deallocate()
        stepped.deallocate()
        modulatable.deallocate()
        rowOfID.deallocate()
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func row(_ id: UInt32) -> Int? {
        guard Int(id) < idCount else { return nil }
        let row = Int(rowOfID[Int(id)])
        return row >= 0 ? row : nil
    }
}
