import ToneShaperModel
import ToneShaperParameters

/// Controls a host keeps in memory of its own and the plugin reads at every block (LV2's
/// control ports): for each row of the parameter table, where the host keeps its value, and
/// the value the plugin last took. Allocated once (instantiate); read on the audio thread.
///
/// A control the host has not connected reads its own last value, so it never reads as
/// moved and a block has no control to skip. Values compare by their bits: a control left at
/// NaN is refused once, not at every block.
public struct ControlInputs {
    /// The table's rows (`ParameterTable.all.count`), read once: a block reads no global.
    public let count: Int
    private let sources: UnsafeMutablePointer<UnsafePointer<Float>>
    private let last: UnsafeMutablePointer<Float>
    /// The row of each of the host's ports (its index), -1 for a port that is no control.
    private let rowOfPort: UnsafeMutablePointer<Int>
    private let portCount: Int

    /// Every control at the default shape's value, where the host's description puts it: a
    /// control the host leaves there is not a move. `rowOfPort`: the table's row of each of
    /// the host's ports, by index (nil: a port that is no control).
    public init(rowOfPort rows: [Int?]) {
        count = ParameterTable.all.count
        last = .allocate(capacity: count)
        sources = .allocate(capacity: count)
        for (row, spec) in ParameterTable.all.enumerated() {
            (last + row).initialize(to: Float(spec.portValue(in: ToneShape.defaultShape)))
            (sources + row).initialize(to: UnsafePointer(last + row))
        }
        portCount = rows.count
        rowOfPort = .allocate(capacity: rows.count)
        for (port, row) in rows.enumerated() { (rowOfPort + port).initialize(to: row ?? -1) }
    }

    public func free() {
        sources.deallocate()
        last.deallocate()
        rowOfPort.deallocate()
    }

    /// Where the host keeps row `row`'s value (nil: disconnected, it keeps its last value).
    public func connect(row: Int, to value: UnsafePointer<Float>?) {
        guard row >= 0, row < count else { return }
        sources[row] = value ?? UnsafePointer(last + row)
    }

    /// Where the host keeps the value of its port `port`, when that port is a control.
    public func connect(port: Int, to value: UnsafePointer<Float>?) {
        guard port >= 0, port < portCount else { return }
        connect(row: rowOfPort[port], to: value)
    }

    /// At a block's start: every control that moved, handed to `engine` (whose row's rule
    /// takes it). Returns false when one was not finite (refused, and taken as its last value).
    /// Real time, proved where a shell specializes it (as ``PluginEngine``'s calls are).
    public func take<Host: PluginHost>(into engine: inout PluginEngine<Host>) -> Bool {
        // Nearly every block finds none moved: one pass with no branch but its own, then
        // the rare pass that finds which.
        var moved: UInt32 = 0
        for row in 0..<count { moved |= sources[row].pointee.bitPattern ^ last[row].bitPattern }
        return moved == 0 ? true : takeMoved(into: &engine)
    }

    @inline(never)
    private func takeMoved<Host: PluginHost>(into engine: inout PluginEngine<Host>) -> Bool {
        var finite = true
        for row in 0..<count {
            let value = sources[row].pointee
            guard value.bitPattern != last[row].bitPattern else { continue }
            last[row] = value
            guard value.isFinite else {
                finite = false
                continue
            }
            engine.setControl(row: row, value: Double(value))
        }
        return finite
    }

    /// Activation (off the audio thread): the controls the host moved from their defaults
    /// (a project's values, a preset's), taken by `engine` at once, plans included, so the
    /// first block already plays them rather than the defaults for a worker's round trip.
    public func activate<Host: PluginHost>(_ engine: inout PluginEngine<Host>) {
        var moved: [(row: Int, value: Double)] = []
        for row in 0..<count {
            let value = sources[row].pointee
            if value.bitPattern == last[row].bitPattern || !value.isFinite { continue }
            last[row] = value
            moved.append((row, Double(value)))
        }
        engine.activate(moved: moved)
    }
}
