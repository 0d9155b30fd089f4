import Foundation
import Testing
import ToneShaperControl
import ToneShaperLV2Description

/// The built bundle in lilv's tools: lv2_validate (0 errors), lv2info (exactly the ports the
/// table generates, the presets), lv2bench (runs it).
@Suite(.serialized) struct LV2ToolsTests {
    @Test(.enabled(if: LV2Tools.have("lv2_validate", "sordi")))
    func bundleValidates() throws {
        try LV2Tools.prepare()
        let files = try FileManager.default.contentsOfDirectory(atPath: LV2Tools.bundle.path).filter { $0.hasSuffix(".ttl") }.sorted()
        #expect(files == ["manifest.ttl", "presets.ttl", "toneshaper.ttl"])
        let result = try LV2Tools.run("lv2_validate", files.map { LV2Tools.bundle.appendingPathComponent($0).path }, timeout: 120)
        #expect(result.output.contains("Found 0 errors"), "lv2_validate: \(result.output.suffix(2000))")
        #expect(!result.output.contains("warning:"), "lv2_validate warns: \(result.output.suffix(2000))")
    }

    @Test(.enabled(if: LV2Tools.have("lv2info")), arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func lv2infoListsTheGeneratedPorts(uri: String) throws {
        try LV2Tools.prepare()
        let result = try LV2Tools.run("lv2info", [uri], environment: LV2Tools.lv2Path)
        #expect(result.status == 0, "\(result.output)")
        let symbols = result.stdout.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("Symbol:") ? trimmed.dropFirst("Symbol:".count).trimmingCharacters(in: .whitespaces) : nil
        }
        // In index order: the first release's controls, the outputs, then the controls added since.
        let stereo = uri != LV2Tools.monoURI
        let outputs = stereo ? ["out_left", "out_right"] : ["out"]
        let controls = LV2Description.controlPorts(stereo: stereo)
        let before = controls.filter { $0.index < LV2Description.audioPorts(stereo: stereo)[0] }.map(\.symbol)
        let after = controls.filter { $0.index > LV2Description.audioPorts(stereo: stereo)[0] }.map(\.symbol)
        #expect(symbols == ["control", "notify"] + before + outputs + after)
        #expect(after == ["tune", "glide"], "released ports keep their indices; new ones come after, in the order they came")
        #expect(result.stdout.contains("Class:             Instrument Plugin"))
        #expect(result.stdout.contains("Required Features: http://lv2plug.in/ns/ext/urid#map"))
        let documents = try LV2DescriptionTests.builtInDocuments()
        for document in documents {
            #expect(result.stdout.contains("\t\t \(document.shape.name ?? document.name)\n") || result.stdout.contains(" \(document.name)\n"))
        }
    }

    @Test(.enabled(if: LV2Tools.have("lv2bench")))
    func lv2benchRunsIt() throws {
        try LV2Tools.prepare()
        let result = try LV2Tools.run("lv2bench", [LV2Tools.monoURI], environment: LV2Tools.lv2Path, timeout: 300)
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        // One line per plugin it ran: "SECONDS URI"; a plugin it cannot run it skips.
        #expect(result.stdout.split(separator: "\n").contains { $0.hasSuffix(" \(LV2Tools.monoURI)") }, "\(result.output)")
    }
}
