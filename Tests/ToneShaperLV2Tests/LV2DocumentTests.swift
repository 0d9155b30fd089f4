import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel

/// The plugin reads and writes documents with code of its own (Embedded Swift cannot link
/// the control core): `DocumentCodec`, over the same JSON reader and writer and the table's
/// generated `PluginTable`. Here it is held to the node's reading: every built-in document
/// restored as the plugin's state and saved again reads, in the node, as the same shape;
/// and documents the node refuses, the plugin refuses too, keeping what it played.
@Suite struct LV2DocumentTests {
    /// A state file of the C host holding `document` as the plugin's state.
    static func stateFile(_ document: [UInt8], in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("state-\(UUID().uuidString)")
        var bytes = Array("urn:toneshaper:document http://lv2plug.in/ns/ext/atom#String 3 \(document.count + 1)\n".utf8)
        bytes += document + [0, 0x0A]
        try Data(bytes).write(to: url)
        return url
    }

    /// The document the plugin saves after restoring `document` (nil: it saved none).
    static func roundTrip(_ document: [UInt8]) throws -> (saved: [UInt8]?, result: LV2Tools.ToolResult) {
        try LV2Tools.prepare()
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try stateFile(document, in: directory)
        let output = directory.appendingPathComponent("saved")
        let result = try LV2Tools.host(
            LV2Tools.monoURI, ["--frames", "512", "--block", "256", "--restore-state", input.path, "--save-state", output.path])
        guard let data = try? Data(contentsOf: output), let newline = data.firstIndex(of: 0x0A) else { return (nil, result) }
        // "KEY TYPE FLAGS SIZE\n", SIZE bytes (the text and its NUL), "\n".
        var text = Array(data[(newline + 1)...])
        while text.last == 0x0A || text.last == 0 { text.removeLast() }
        return (text, result)
    }

    static func builtIns() throws -> [(String, [UInt8])] {
        let sessions = LV2Tools.repository.appendingPathComponent("Sessions")
        return try FileManager.default.contentsOfDirectory(atPath: sessions.path).filter { $0.hasSuffix(".toneshaper") }.sorted().map {
            ($0, Array(try Data(contentsOf: sessions.appendingPathComponent($0))))
        }
    }

    @Test func everyBuiltInDocumentSurvivesThePluginsStateAsTheNodeReadsIt() throws {
        for (name, bytes) in try Self.builtIns() {
            let original = try ToneShapeDocument.decode(bytes, source: name)
            let (saved, result) = try Self.roundTrip(bytes)
            #expect(result.status == 0 && result.number("log_errors") == 0, "\(name): \(result.output)")
            let text = try #require(saved, "\(name): no state saved")
            let again = try ToneShapeDocument.decode(text, source: "saved \(name)")
            #expect(again == original, "\(name): the plugin's saved document reads differently in the node")
            // And the node writes it byte for byte as the plugin did.
            #expect(ToneShapeDocument.encode(again) == text + [0x0A] || ToneShapeDocument.encode(again) == text, "\(name): written differently")
        }
    }

    /// Documents the node refuses, each for one reason; the plugin refuses them too and
    /// keeps what it played (its saved state is then the default shape's).
    static let refused: [String: String] = [
        "not JSON": "{\"points\": [[0, 440]",
        "an array": "[1, 2]",
        "points missing": "{\"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500}",
        "duration missing": "{\"points\": [[0, 440]], \"minFrequency\": 100, \"maxFrequency\": 500}",
        "range reversed": "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 500, \"maxFrequency\": 100}",
        "echo beyond the cycle":
            "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500, \"echoOffsetTimeSeconds\": 2}",
        "points out of order": "{\"points\": [[0.5, 440], [0.1, 300]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500}",
        "point beyond the cycle": "{\"points\": [[0, 440], [3, 300]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500}",
        "frequency beyond the limit": "{\"points\": [[0, 440000]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500}",
        "amplitude out of range": "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500, \"amplitude\": 1.5}",
        "unknown wave": "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500, \"componentType\": \"Noise\"}",
        "fidelity not whole": "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500, \"fidelity\": 2.5}",
        "terms zero": "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500, \"fourierTerms\": 0}",
        "duplicate key": "{\"points\": [[0, 440]], \"duration\": 1, \"duration\": 2, \"minFrequency\": 100, \"maxFrequency\": 500}",
        "controller 64 mapped":
            "{\"points\": [[0, 440]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 500, \"midiMap\": {\"64\": \"amplitude\"}}",
        "string for a number": "{\"points\": [[0, 440]], \"duration\": \"1\", \"minFrequency\": 100, \"maxFrequency\": 500}",
    ]

    @Test(arguments: refused.keys.sorted())
    func aDocumentTheNodeRefusesThePluginRefuses(reason: String) throws {
        let bytes = Array(Self.refused[reason]!.utf8)
        #expect(throws: DocumentError.self, "the node accepts the \(reason) document") { try ToneShapeDocument.decode(bytes, source: reason) }
        let (saved, result) = try Self.roundTrip(bytes)
        #expect(result.status == 0 && !result.signalled, "\(reason): \(result.output)")
        #expect((result.number("log_errors") ?? 0) >= 1, "\(reason): refused without a word: \(result.output)")
        let kept = try ToneShapeDocument.decode(try #require(saved), source: "saved")
        #expect(
            kept.points == ToneShape.defaultShape.points && kept.duration == ToneShape.defaultShape.duration,
            "\(reason): the refused document took hold")
    }

    /// MIDI program change plays the built-in documents by name order (as the node lists
    /// them), with the player's MIDI setup kept; a program beyond them changes nothing.
    @Test func programChangePlaysTheBuiltInsAndKeepsTheMIDISetup() throws {
        try LV2Tools.prepare()
        let names = try Self.builtIns().map { String($0.0.dropLast(".toneshaper".count)) }
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (program, expected) in [(0, names[0]), (names.count - 1, names[names.count - 1]), (127, nil)] {
            let state = directory.appendingPathComponent("state-\(program)")
            let result = try LV2Tools.host(
                LV2Tools.monoURI,
                [
                    "--frames", "1024", "--block", "256", "--set", "instrument=1@0", "--set", "voices=5@0", "--program", "\(program)@100",
                    "--save-state", state.path,
                ])
            #expect(result.status == 0 && result.number("log_errors") == 0, "\(result.output)")
            let data = try Data(contentsOf: state)
            let text = Array(data[(data.firstIndex(of: 0x0A)! + 1)...]).filter { $0 != 0 }
            let shape = try ToneShapeDocument.decode(Array(text.dropLast()), source: "program \(program)")
            #expect(shape.name == expected, "program \(program)")
            #expect(shape.performance.instrument && shape.performance.voices == 5, "program \(program) changed the MIDI setup")
        }
    }
}
