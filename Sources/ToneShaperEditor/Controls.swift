import CEditor
import ToneShaperModel
import ToneShaperParameters

/// The sound's controls beside the curve: one row of the parameter table each, its range,
/// unit and names read from the table (never declared here), drawn as a bar to drag, a
/// menu-like bar of names, or a switch. Which rows, in which order, under which label, on
/// which scale: the row's presentation (``ParameterTable/editorRows``,
/// ``ParameterSpec/displayName``, ``Presentation/logarithmic``) decides, not this file.
struct ControlRow {
    let id: ParameterID
    /// The row's position in ``ParameterTable/all`` (the editor's values are in that order).
    let row: Int
    let label: String
    let unit: String
    let kind: ParameterKind
    /// Whether the bar is logarithmic (the row's presentation): ranges over many decades.
    let logarithmic: Bool
    /// Whether the value is a place in the cycle (the echo's offset): its bar spans the
    /// cycle it plays in rather than the longest cycle.
    let withinCycle: Bool

    /// The rows shown, in their places (``ParameterTable/editorRows``).
    static func rows() -> [ControlRow] {
        ParameterTable.editorRows.map { spec in
            let row = ParameterTable.all.firstIndex { $0.id == spec.id }!
            return ControlRow(
                id: spec.id, row: row, label: spec.displayName, unit: spec.unit, kind: spec.kind, logarithmic: spec.presentation.logarithmic,
                withinCycle: spec.controller == .cycle)
        }
    }

    /// The range the bar spans: the table's, with a logarithmic bar's low end above 0 (1 Hz
    /// for a frequency, by its unit: below it is heard as silence or clicks; else a
    /// thousandth of the unit), and a place in the cycle within the cycle it plays in.
    func range(duration: Double) -> ClosedRange<Double> {
        switch kind {
        case .real(let r):
            if withinCycle { return 0...max(duration, 1e-6) }
            if logarithmic && r.lowerBound <= 0 { return (unit == "Hz" ? 1 : min(1e-3, r.upperBound))...r.upperBound }
            return r
        case .integer(let r): return Double(max(r.lowerBound, 1))...Double(r.upperBound)
        case .choice(let names): return 0...Double(max(names.count - 1, 1))
        case .flag: return 0...1
        case .terms: return 0...1
        }
    }

    /// Where `value` sits on the bar, 0...1.
    func position(_ value: Double, duration: Double) -> Double {
        let r = range(duration: duration)
        guard value.isFinite else { return 0 }
        let v = min(max(value, r.lowerBound), r.upperBound)
        if logarithmic, r.lowerBound > 0 { return (log(v) - log(r.lowerBound)) / (log(r.upperBound) - log(r.lowerBound)) }
        return r.upperBound > r.lowerBound ? (v - r.lowerBound) / (r.upperBound - r.lowerBound) : 0
    }

    /// The value at `position` (0...1) on the bar, whole for whole-number kinds.
    func value(at position: Double, duration: Double) -> Double {
        let p = min(max(position, 0), 1)
        let r = range(duration: duration)
        var v: Double
        if logarithmic, r.lowerBound > 0 {
            v = exp(log(r.lowerBound) + p * (log(r.upperBound) - log(r.lowerBound)))
        } else {
            v = r.lowerBound + p * (r.upperBound - r.lowerBound)
        }
        switch kind {
        case .integer, .choice, .flag: v = v.rounded()
        case .real, .terms: break
        }
        return min(max(v, r.lowerBound), r.upperBound)
    }

    /// One step of the wheel: a whole step for whole numbers, else 1% of the bar.
    func stepped(_ value: Double, by steps: Double, duration: Double) -> Double {
        switch kind {
        case .integer, .choice, .flag:
            let r = range(duration: duration)
            return min(max((value + steps).rounded(), r.lowerBound), r.upperBound)
        case .real, .terms:
            return self.value(at: position(value, duration: duration) + steps * 0.01, duration: duration)
        }
    }

    /// The value as the row shows it: a name, on/off, or the number and its unit.
    func text(_ value: Double) -> String {
        switch kind {
        case .choice(let names):
            let i = Int(min(max(value.isFinite ? value : 0, 0), Double(names.count - 1)))
            return names[i]
        case .flag: return value > 0 ? "on" : "off"
        case .integer: return UIText.number(value, decimals: 0, unit: unit)
        case .real, .terms:
            let magnitude = abs(value)
            let decimals = magnitude >= 100 || magnitude == 0 ? 1 : magnitude >= 1 ? 2 : 3
            return UIText.number(value, decimals: decimals, unit: unit)
        }
    }
}

/// Number text through the C library (Embedded Swift prints no floating-point numbers).
enum UIText {
    static func number(_ value: Double, decimals: Int, unit: String) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        unit.withCString { u in
            buffer.withUnsafeMutableBufferPointer { toneshaper_ui_format($0.baseAddress, 64, value, Int32(decimals), u) }
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// A frequency for the axis: 440, 1k, 2.5k.
    static func hertz(_ f: Double) -> String {
        if f >= 1000 {
            let k = f / 1000
            return number(k, decimals: k == k.rounded() ? 0 : 1, unit: "") + "k"
        }
        return number(f, decimals: f == f.rounded() ? 0 : 1, unit: "")
    }
}
