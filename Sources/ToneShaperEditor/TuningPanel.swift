import CEditor
import ToneShaperModel
import ToneShaperPlugin

/// What the window shows of the MIDI keys' tuning, and the user's tuning files to choose
/// from. A window has no file dialog: it lists the Scala files (`.scl`, `.kbm`) in
/// `$XDG_DATA_HOME/toneshaper/tunings` (by default `~/.local/share/toneshaper/tunings`);
/// a click on one has the plugin load it (``EditorLink/loadTuningFile(path:keyboardMap:)``).
/// A host's own file chooser (LV2's `patch:writable` files) loads any other.
///
/// Closed, the plot's corner names the tuning and a button opens the panel; open, the panel
/// covers the plot with the scale's name, its degrees in cents, the map, and the files.
struct TuningPanel {
    var open = false
    /// The scale's description line ("12-TET" without a tuning); nil until the plugin tells
    /// it (in process through ``TuningNotice``, to the LV2 window as a ``TuningSummary``'s text).
    var name: String?
    /// The degrees in cents above the unison, the period last (none without a tuning).
    var cents: [Double] = []
    /// The keyboard map's size (nil: none, the scale laid out from the root note).
    var mapSize: Int?
    var folder = ""
    var files: [String] = []

    /// The tuning files, read again each time the panel opens (sorted by their bytes).
    mutating func listFiles() {
        var path = [CChar](repeating: 0, count: 4096)
        guard toneshaper_ui_tunings_folder(&path, path.count) != 0 else {
            folder = ""
            files = []
            return
        }
        folder = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var names = [CChar](repeating: 0, count: 65_536)
        let count = toneshaper_ui_tuning_files(folder, &names, names.count)
        // Split and sorted by bytes (names are not text to compare as Unicode here).
        let bytes = names.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let lines = count > 0 ? bytes.split(separator: 0x0A).map(Array.init) : []
        files = lines.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `name` is a keyboard map (`.kbm`, any case) rather than a scale.
    static func isKeyboardMap(_ name: String) -> Bool {
        let bytes = Array(name.utf8.suffix(4)).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        return bytes == Array(".kbm".utf8)
    }
}

extension EditorWindow {
    /// The tuning playing (nil: 12-TET), as the plugin tells it.
    public func tuningChanged(_ tuning: Tuning?) { tuningChanged(TuningSummary(tuning)) }

    /// The tuning playing as the plugin sums it up (what an LV2 plugin sends its window).
    public func tuningChanged(_ summary: TuningSummary) {
        tuningPanel.name = summary.name
        tuningPanel.cents = summary.cents
        tuningPanel.mapSize = summary.mapSize
        if trace { toneshaper_ui_stderr("shows tuning " + (tuningPanel.name ?? "") + ", " + String(tuningPanel.cents.count) + " degrees") }
        needsDraw = true
    }

    /// A press of the left button: true when the tuning's button or open panel took it.
    func pressTuning(_ layout: Layout, _ x: Int, _ y: Int) -> Bool {
        if layout.tuningButton.contains(x, y) {
            tuningPanel.open.toggle()
            if tuningPanel.open {
                shapePanel.open = false
                tuningPanel.listFiles()
            }
            needsDraw = true
            return true
        }
        guard tuningPanel.open, layout.plot.contains(x, y) else { return false }
        for (index, name) in tuningPanel.files.enumerated() where layout.tuningFile(index).contains(x, y) {
            let path = tuningPanel.folder + "/" + name
            if trace { toneshaper_ui_stderr("loads tuning file " + name) }
            link.loadTuningFile(path: path, keyboardMap: TuningPanel.isKeyboardMap(name))
        }
        return true
    }
}

extension Layout {
    /// The button that opens and closes the panel, in the plot's top right corner.
    var tuningButton: Box { Box(x: plot.x + plot.w - 96 * scale, y: plot.y + 4 * scale, w: 92 * scale, h: 20 * scale) }

    /// The row of tuning file `index` in the open panel.
    func tuningFile(_ index: Int) -> Box {
        Box(x: plot.x + 12 * scale, y: plot.y + 112 * scale + Double(index) * 24 * scale, w: plot.w - 24 * scale, h: 20 * scale)
    }
}

extension Painter {
    func paintTuning() {
        let panel = w.tuningPanel
        let button = layout.tuningButton
        let p = layout.plot
        if panel.open {
            color(0.09, 0.1, 0.12, 0.96)
            rectangle(p)
            cairo_fill(cr)
        } else if let name = panel.name {
            color(0.75, 0.77, 0.82, 0.8)
            text("Tuning: " + name, p.x + 8 * s, p.y + 16 * s, size: 11)
        }
        paintButton(button, panel.open ? "Close tuning" : "Tuning…", on: panel.open, baseline: 14)
        guard panel.open else { return }
        color(0.92, 0.92, 0.95)
        text(panel.name ?? "Tuning files", p.x + 12 * s, p.y + 20 * s, size: 13, bold: true)
        color(0.7, 0.72, 0.78)
        let map = panel.mapSize.map { "keyboard map of " + ($0 == 0 ? "every key" : String($0) + " keys") } ?? "laid out from the root note"
        let summary = panel.name == nil ? "the host's file parameters show the files playing" : "twelve equal semitones, no scale"
        text(panel.cents.isEmpty ? summary : String(panel.cents.count) + " degrees, " + map, p.x + 12 * s, p.y + 40 * s, size: 11)
        // The degrees in cents, as many lines as they take (two at most, then "...").
        let perLine = max(Int((p.w - 24 * s) / (44 * s)), 1)
        var line = ""
        var lines: [String] = []
        for (i, c) in panel.cents.enumerated() {
            line += (line.isEmpty ? "" : "  ") + UIText.number(c, decimals: 1, unit: "")
            if (i + 1) % perLine == 0 {
                lines.append(line)
                line = ""
            }
        }
        if !line.isEmpty { lines.append(line) }
        for (i, l) in lines.prefix(2).enumerated() {
            text(i == 1 && lines.count > 2 ? l + "  ..." : l, p.x + 12 * s, p.y + (58 + 16 * Double(i)) * s, size: 10)
        }
        color(0.85, 0.7, 0.35)
        let folderName = panel.folder.isEmpty ? "no tunings folder (set HOME or XDG_DATA_HOME)" : panel.folder
        text(panel.files.isEmpty ? "No .scl or .kbm files in " + folderName : "Load from " + folderName + ":", p.x + 12 * s, p.y + 100 * s, size: 11)
        for (index, name) in panel.files.enumerated() {
            let row = layout.tuningFile(index)
            guard row.y + row.h <= p.y + p.h else { break }
            color(0.16, 0.17, 0.2)
            rectangle(row)
            cairo_fill(cr)
            color(0.9, 0.9, 0.92)
            text(name + (TuningPanel.isKeyboardMap(name) ? "  (keyboard map)" : "  (scale)"), row.x + 8 * s, row.y + 14 * s, size: 11)
        }
    }
}
