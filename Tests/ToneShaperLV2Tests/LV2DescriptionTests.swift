import Foundation
import Testing
import ToneShaperControl
import ToneShaperLV2Description
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// The plugin's description (the bundle's .ttl files) and the Embedded plugin's tables
/// (`ControlPorts.swift`, `PluginTable.swift`) are written from the parameter table by
/// `toneshaper-lv2-ttl`: a committed file that differs fails here. After changing the table
/// or a built-in document, refresh them with `swift run toneshaper-lv2-ttl`.
@Suite struct LV2DescriptionTests {
    static let pluginSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ToneShaperLV2")
    static let sessions = pluginSources.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sessions")

    /// The built-in documents, by file name without the extension, in name order.
    static func builtInDocuments() throws -> [(name: String, shape: ToneShape)] {
        try BundleFiles.builtInDocuments(in: sessions)
    }

    @Test func committedFilesAreWhatTheGeneratorWrites() throws {
        for (path, text) in BundleFiles.generated(builtIns: try Self.builtInDocuments()) {
            let committed = try? String(contentsOf: Self.pluginSources.appendingPathComponent(path), encoding: .utf8)
            #expect(committed == text, "Sources/ToneShaperLV2/\(path) is not what the generator writes; run swift run toneshaper-lv2-ttl")
        }
    }

    /// The generator itself, as a contributor runs it: `--check` finds nothing to do on the
    /// committed files, and finds a file changed by hand.
    @Test func theGeneratorChecksAndRewrites() throws {
        let tool = LV2Tools.generator
        try #require(FileManager.default.isExecutableFile(atPath: tool), "no \(tool): swift build first")
        let root = Self.pluginSources.deletingLastPathComponent().deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-ttl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("Bundle"), withIntermediateDirectories: true)
        for (path, _) in BundleFiles.generated(builtIns: []) {
            try FileManager.default.copyItem(at: Self.pluginSources.appendingPathComponent(path), to: scratch.appendingPathComponent(path))
        }
        let arguments = ["--sources", scratch.path, "--sessions", root.appendingPathComponent("Sessions").path]
        #expect(try LV2Tools.run(tool, arguments + ["--check"]).status == 0)
        let ttl = scratch.appendingPathComponent("Bundle/toneshaper.ttl")
        try (String(contentsOf: ttl, encoding: .utf8) + "# edited\n").write(to: ttl, atomically: true, encoding: .utf8)
        let check = try LV2Tools.run(tool, arguments + ["--check"])
        #expect(check.status == 1 && check.stdout.contains("Bundle/toneshaper.ttl"), "\(check.stdout)\(check.stderr)")
        #expect(try LV2Tools.run(tool, arguments).status == 0)
        #expect(try LV2Tools.run(tool, arguments + ["--check"]).status == 0, "rewritten")
    }

    /// A row of the first release has port 2 + its number; the audio outputs come next; a
    /// row added since comes after them, in the order of its version and number (so the
    /// mono and the stereo plugin place it one apart). Each under its own symbol; the numbers
    /// are 0, 1, … without a hole, each used once.
    @Test(arguments: [false, true]) func everyTableRowIsAControlPortByItsNumber(stereo: Bool) {
        let ports = LV2Description.controlPorts(stereo: stereo)
        let audio = LV2Description.audioPorts(stereo: stereo)
        #expect(ports.count == ParameterTable.all.count)
        #expect(ParameterTable.all.map(\.number).sorted() == Array(0..<ParameterTable.all.count))
        #expect(Set(ParameterTable.all.map(\.symbol)).count == ParameterTable.all.count)
        let released = ParameterTable.all.filter { $0.addedIn == ParameterTable.firstRelease }
        #expect(audio == Array(2 + released.count..<2 + released.count + (stereo ? 2 : 1)))
        let added = ParameterTable.all.filter { $0.addedIn != ParameterTable.firstRelease }.sorted {
            ($0.addedIn, $0.number) < ($1.addedIn, $1.number)
        }
        for (row, spec) in ParameterTable.all.enumerated() {
            let port = try? #require(ports.first { $0.row == row }, "no port for \(spec.flag)")
            if spec.addedIn == ParameterTable.firstRelease {
                #expect(port?.index == 2 + spec.number)
                #expect(port?.optional == false)
            } else {
                #expect(port?.index == audio.last! + 1 + added.firstIndex { $0.id == spec.id }!)
                #expect(port?.optional == true, "a port added after the first release is lv2:connectionOptional")
                #expect(spec.addedIn % 2 == 0 && spec.addedIn > ParameterTable.firstRelease)
            }
            #expect(port?.symbol == spec.symbol)
            #expect(port.map { $0.minimum <= $0.defaultValue && $0.defaultValue <= $0.maximum } == true, "\(spec.flag)")
        }
        #expect(ports.map(\.index) == ports.map(\.index).sorted(), "listed in index order")
        #expect(LV2Description.minorVersion == ParameterTable.all.map(\.addedIn).max())
    }

    @Test func requiredKeysTakeTheDefaultShapesValues() {
        let byID = Dictionary(uniqueKeysWithValues: LV2Description.controlPorts.map { (ParameterTable.all[$0.row].id, $0) })
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
