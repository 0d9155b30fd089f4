import Testing
import ToneShaperControl
import ToneShaperParameters
import ToneShaperTestSupport

/// The OSC address table and the parameter table of the DocC articles are the code's own
/// (`ReferenceTables`): a committed table that differs fails here. After changing the
/// parameter table or the addresses, refresh the articles with
/// `TONESHAPER_UPDATE_REFERENCE=1 swift test --filter ReferenceTables`.
@Suite struct ReferenceTablesTests {
    /// The blocks this suite owns. `osc-server-addresses` belongs to ToneShaperOSCTests.
    static let generated = ["osc-addresses": ReferenceTables.oscAddresses, "parameters": ReferenceTables.parameters]
    static let knownNames: Set<String> = ["osc-addresses", "parameters", "osc-server-addresses"]

    @Test func articlesHoldTheTablesTheCodeRenders() throws {
        if GeneratedReference.updateRequested {
            let changed = try GeneratedReference.update(Self.generated)
            print(
                "TONESHAPER_UPDATE_REFERENCE=1: "
                    + (changed.isEmpty ? "the articles' tables were up to date" : "rewrote the tables in \(changed.joined(separator: ", "))"))
        }
        let blocks = try GeneratedReference.blocks()
        for (name, text) in Self.generated.sorted(by: { $0.key < $1.key }) {
            let found = blocks.filter { $0.name == name }
            #expect(!found.isEmpty, "no article holds <!-- generated: \(name) -->")
            for block in found {
                #expect(
                    block.content == GeneratedReference.content(text),
                    "\(block.article): the \(name) table is not the code's; run TONESHAPER_UPDATE_REFERENCE=1 swift test --filter ReferenceTables")
            }
        }
    }

    /// A misspelt block name would otherwise go unchecked by every suite.
    @Test func everyGeneratedBlockIsOneATestChecks() throws {
        for block in try GeneratedReference.blocks() {
            #expect(Self.knownNames.contains(block.name), "\(block.article): no test checks generated block \"\(block.name)\"")
        }
    }

    @Test func tablesHaveARowForEveryAddressAndParameter() {
        let addressRows = ReferenceTables.oscAddresses.split(separator: "\n")
        #expect(addressRows.count == ControlAddress.all.count + 2)
        for address in ControlAddress.all {
            #expect(addressRows.contains { $0.hasPrefix("| `/\(address.path)` |") }, "no row for \(address.path)")
        }
        let parameterRows = ReferenceTables.parameters.split(separator: "\n")
        #expect(parameterRows.count == ParameterTable.all.count + 2)
        for spec in ParameterTable.all {
            #expect(parameterRows.contains { $0.hasPrefix("| `\(spec.documentKey)` | `/\(spec.oscPath)` | `--\(spec.flag)` |") })
        }
        // The keys a document must carry say so; the others show their default as JSON.
        let duration = parameterRows.first { $0.hasPrefix("| `duration` |") }
        #expect(duration?.contains(" | required | ") == true)
        let wave = parameterRows.first { $0.hasPrefix("| `componentType` | `/wave` |") }
        #expect(wave?.contains(" | `\"Sine\"` | ") == true)
    }

    @Test func cellsCannotBreakTheTable() {
        let table = ReferenceTables.markdownTable(header: ["a", "b"], rows: [["x | y", "two\nlines"]])
        #expect(table == "| a | b |\n|---|---|\n| x \\| y | two lines |\n")
    }
}
