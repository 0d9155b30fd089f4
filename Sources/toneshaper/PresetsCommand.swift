import ArgumentParser
import ToneShaperAudio
import ToneShaperControl
import ToneShaperFiles
import ToneShaperModel

/// `toneshaper presets`: the built-in tone shapes, and the user's own, one line each.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the built-in tone shapes and your own.",
        discussion: """
            Any name listed can be given to `toneshaper render` and `toneshaper run`, or loaded \
            over OSC. Your shapes (TONESHAPER_LIBRARY, else $XDG_DATA_HOME/toneshaper/shapes, \
            else ~/.local/share/toneshaper/shapes) are searched before the built-ins; documents \
            earlier versions saved into toneshaper/library beside it are still found and listed \
            after yours (read, never written).
            """)

    func run() throws {
        let library = DocumentLibrary()
        let builtIns = library.entries(.builtIn)
        let user = library.entries(.user)
        let builtInNames = Set(builtIns.map(\.name))

        if let sessions = library.locations.sessionsDirectory {
            print("Built-in tone shapes (\(sessions)):")
            print(PresetTable(builtIns.map { PresetRow($0, note: nil) }).render())
        } else {
            print(
                "No built-in tone shapes found (looked in \(library.locations.sessionsCandidates.joined(separator: ", "))); set TONESHAPER_SESSIONS to the Sessions folder."
            )
        }
        if !user.isEmpty {
            print("")
            // The older folder is named when it has something listed.
            let folders = user.contains(where: \.inOlderFolder) ? library.userDirectories : [library.locations.userDirectory]
            print("Your shapes (\(folders.joined(separator: ", then "))):")
            print(PresetTable(user.map { PresetRow($0, note: PresetRow.note($0, hiding: builtInNames)) }).render())
        }
        // Listed names must load by name; files that cannot are named on stderr instead.
        for path in library.unnamedFiles(.user) + library.unnamedFiles(.builtIn) {
            let file = path.split(separator: "/").last.map(String.init) ?? path
            let suggestion = String(file.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "-" })
            StandardError.line(
                "toneshaper presets: warning: \(path) is not listed: a library name has only letters, digits, '.', '_' and '-'; rename it (such as \(suggestion)), or give its path to render and run"
            )
        }
    }
}

/// One listed document, already turned into the text of its columns.
struct PresetRow {
    var cells: [String]

    init(_ entry: DocumentLibrary.Entry, note: String?) {
        switch entry.shape {
        case .success(let shape):
            let (low, high) = PresetRow.audibleRange(shape)
            let range = low == high ? hertz(low) : "\(PresetRow.number(low))-\(hertz(high))"
            let description = [shape.description ?? "", note ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            cells = [entry.name, "\(seconds3(shape.duration)) s", range, shape.wave.rawValue, description]
        case .failure(let error):
            cells = [entry.name, "-", "-", "-", "cannot be loaded: \(error)"]
        }
    }

    /// The range the curve really plays: the fidelity grid, not the drawn points (a low
    /// fidelity can drop some). Very fine grids are skipped; their points are close enough.
    static func audibleRange(_ shape: ToneShape) -> (Double, Double) {
        let values =
            shape.fidelity <= 100_000
            ? FrequencyCurve.grid(points: shape.points, fidelity: shape.fidelity)
            : shape.points.map(\.frequency)
        return (values.min() ?? 0, values.max() ?? 0)
    }

    /// What a user's entry's line adds: it hides a built-in, or it is in the older folder.
    static func note(_ entry: DocumentLibrary.Entry, hiding builtIns: Set<String>) -> String? {
        let notes = [
            builtIns.contains(entry.name) ? "(hides the built-in)" : "", entry.inOlderFolder ? "(in the older library folder, read only)" : "",
        ]
        let said = notes.filter { !$0.isEmpty }.joined(separator: " ")
        return said.isEmpty ? nil : said
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : seconds3(value)
    }
}

/// Left-aligned columns; the last column (the description) runs free.
struct PresetTable {
    static let header = ["NAME", "DURATION", "FREQUENCIES", "WAVE", "DESCRIPTION"]
    var rows: [PresetRow]

    init(_ rows: [PresetRow]) { self.rows = rows }

    func render() -> String {
        let all = [PresetTable.header] + rows.map(\.cells)
        let widths = (0..<(PresetTable.header.count - 1)).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { cells in
            let padded = cells.enumerated().map { i, cell in
                i < widths.count ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) : cell
            }
            return "  " + padded.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
