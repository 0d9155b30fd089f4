import Foundation
import Testing
import ToneShaperCore
import ToneShaperTestSupport

/// The plugin's description (the bundle's .ttl files) and the Embedded plugin's port table
/// (`ControlPorts.swift`) are written from the parameter table by `LV2Description`: a
/// committed file that differs fails here. After changing the table or a built-in document,
/// refresh them with `TONESHAPER_UPDATE_REFERENCE=1 swift test --filter LV2Description`.
@Suite struct LV2DescriptionTests {
    static let pluginSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ToneShaperLV2")
    static let sessions = pluginSources.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sessions")

    /// The built-in documents, by file name without the extension, in name order.
    static func builtInDocuments() throws -> [(name: String, shape: ToneShape)] {
        let files = try FileManager.default.contentsOfDirectory(at: sessions, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "toneshaper" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { url in
            let name = url.deletingPathExtension().lastPathComponent
            return (name, try ToneShapeDocument.decode(Array(try Data(contentsOf: url)), source: url.lastPathComponent))
        }
    }

    /// Each committed file, relative to Sources/ToneShaperLV2, and its generated text.
    static func generated() throws -> [(path: String, text: String)] {
        let documents = try builtInDocuments()
        return [
            ("Bundle/manifest.ttl", LV2Description.manifest(presetNames: documents.map(\.name))),
            ("Bundle/toneshaper.ttl", LV2Description.pluginDescription),
            ("Bundle/presets.ttl", LV2Description.presets(documents)),
            ("ControlPorts.swift", LV2Description.controlPortsSwift),
            ("PluginTable.swift", PluginTableSource.swift(builtIns: documents)),
        ]
    }

    @Test func committedFilesAreWhatTheTableGenerates() throws {
        for (path, text) in try Self.generated() {
            let url = Self.pluginSources.appendingPathComponent(path)
            let committed = try? String(contentsOf: url, encoding: .utf8)
            if GeneratedReference.updateRequested, committed != text {
                try text.write(to: url, atomically: true, encoding: .utf8)
                print("TONESHAPER_UPDATE_REFERENCE=1: rewrote \(path)")
                continue
            }
            #expect(
                committed == text,
                "Sources/ToneShaperLV2/\(path) is not what LV2Description writes; run TONESHAPER_UPDATE_REFERENCE=1 swift test --filter LV2Description"
            )
        }
    }

    /// Each row's port is 2 + its number, under its own symbol; the numbers are 0, 1, …
    /// without a hole (the plugin's shell keeps its control ports in one run), each used once.
    @Test func everyTableRowIsAControlPortByItsNumber() {
        let ports = LV2Description.controlPorts
        #expect(ports.count == ParameterTable.all.count)
        #expect(ParameterTable.all.map(\.number).sorted() == Array(0..<ParameterTable.all.count))
        #expect(Set(ParameterTable.all.map(\.symbol)).count == ParameterTable.all.count)
        for (row, spec) in ParameterTable.all.enumerated() {
            let port = try? #require(ports.first { $0.row == row }, "no port for \(spec.flag)")
            #expect(port?.index == 2 + spec.number)
            #expect(port?.symbol == spec.symbol)
            #expect(port.map { $0.minimum <= $0.defaultValue && $0.defaultValue <= $0.maximum } == true, "\(spec.flag)")
        }
        #expect(ports.map(\.index) == ports.map(\.index).sorted(), "listed in index order")
        #expect(LV2Description.firstAudioPort == 2 + ParameterTable.all.count)
    }

    @Test func requiredKeysTakeTheDefaultShapesValues() {
        let byID = Dictionary(uniqueKeysWithValues: zip(ParameterTable.all.map(\.id), LV2Description.controlPorts))
        #expect(byID[.minFrequency]?.defaultValue == ToneShape.defaultShape.minFrequency)
        #expect(byID[.maxFrequency]?.defaultValue == ToneShape.defaultShape.maxFrequency)
        #expect(byID[.duration]?.defaultValue == ToneShape.defaultShape.duration)
        #expect(byID[.fourierTerms]?.defaultValue == 3)
        #expect(byID[.fourierTerms]?.kind == .terms)
        #expect(byID[.fourierTerms]?.scalePoints.first?.value == 0)
        #expect(byID[.wave]?.kind == .choice)
        #expect(byID[.antiAlias]?.kind == .toggle)
        #expect(byID[.minFrequency]?.unit == "hz")
        #expect(byID[.bendRange]?.unit == "semitone12TET")
    }

    @Test func presetsCarryEveryPortAndTheDocument() throws {
        let documents = try Self.builtInDocuments()
        #expect(!documents.isEmpty)
        let text = LV2Description.presets(documents)
        for (name, shape) in documents {
            #expect(text.contains("<urn:toneshaper:preset:\(name)>"))
            #expect(text.contains("rdfs:label \"\(shape.name ?? name)\""))
        }
        let drone = try #require(documents.first { $0.name == "drone" })
        #expect(LV2Description.portValues(of: drone.shape)[ParameterTable.all.firstIndex { $0.id == .fourierTerms }!] == 0)
        #expect(text.components(separatedBy: "pset:value").count - 1 == documents.count * ParameterTable.all.count)
        #expect(text.components(separatedBy: "<urn:toneshaper:document>").count - 1 == documents.count)
    }

    @Test func turtleLiterals() {
        #expect(LV2Description.turtleNumber(96000) == "96000.0")
        #expect(LV2Description.turtleNumber(0.25) == "0.25")
        #expect(LV2Description.turtleNumber(1e-6) == "1e-06")
    }
}
