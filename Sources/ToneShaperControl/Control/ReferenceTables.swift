import ToneShaperParameters

/// The reference tables of the documentation, rendered as Markdown from the code's own
/// tables, so the articles cannot drift from what the node does.
///
/// The DocC articles hold this text between marker comments
/// (`<!-- generated: osc-addresses -->` … `<!-- end generated -->`); a test compares the
/// committed text with what these properties render, and rewrites it when run with
/// `TONESHAPER_UPDATE_REFERENCE=1`. Everything here comes from ``ControlAddress/all`` and
/// `ParameterTable/all`: a table says what the code declares, nothing more.
public enum ReferenceTables {
    /// Every address of ``ControlAddress/all``, in its order: the address below the OSC
    /// prefix, its arguments and what it does.
    public static var oscAddresses: String {
        markdownTable(
            header: ["address", "arguments", "what it does"],
            rows: ControlAddress.all.map { address in
                ["`/\(address.path)`", address.arguments.isEmpty ? "none" : address.arguments, address.help]
            })
    }

    /// Every parameter of `ParameterTable/all`, in its order: its document key, OSC
    /// address and command-line option, the name and group a plugin host and the editors
    /// show it under (its presentation), the values it takes, its default, how a change
    /// reaches the sound, and what it is.
    public static var parameters: String {
        markdownTable(
            header: ["document key", "OSC address", "option", "shown as", "values", "default", "a change", "what it is"],
            rows: ParameterTable.all.map { spec in
                [
                    "`\(spec.documentKey)`", "`/\(spec.oscPath)`", "`--\(spec.flag)`", "\(spec.displayName) (\(spec.presentation.group.name))",
                    spec.kind.describeValues(unit: spec.unit), spec.defaultValue.map(documentLiteral) ?? "required",
                    changeDescription(spec.change), spec.help,
                ]
            })
    }

    /// A Markdown table, one line per row, ending with a newline. A `|` inside a cell is
    /// escaped and a line break becomes a space, so no cell can break the table.
    ///
    /// - Parameters:
    ///   - header: the column titles.
    ///   - rows: the cells of each row, as many as the header has.
    public static func markdownTable(header: [String], rows: [[String]]) -> String {
        precondition(rows.allSatisfy { $0.count == header.count }, "every row needs one cell per column")
        func line(_ cells: [String]) -> String { "| " + cells.map(cell).joined(separator: " | ") + " |\n" }
        return line(header) + "|" + String(repeating: "---|", count: header.count) + "\n" + rows.map(line).joined()
    }

    private static func cell(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character.isNewline {
                escaped.append(" ")
            } else {
                if character == "|" { escaped.append("\\") }
                escaped.append(character)
            }
        }
        return escaped
    }

    /// A default as a document writes it: `"Sine"`, `0.25`, `true`.
    private static func documentLiteral(_ value: ParameterValue) -> String {
        switch value {
        case .real(let d): return "`\(ParameterKind.plain(d))`"
        case .integer(let i): return "`\(i)`"
        case .text(let s): return "`\"\(s)\"`"
        case .flag(let b): return "`\(b)`"
        }
    }

    /// The controller sends `.ramp` rows to the audio side as they are (a continuous one
    /// ramps across the period there); `.newPlan` rows need a plan made off the audio thread.
    private static func changeDescription(_ style: ChangeStyle) -> String {
        switch style {
        case .ramp: return "taken by the audio side at the next period"
        case .newPlan: return "a new plan, cross-faded"
        }
    }
}
