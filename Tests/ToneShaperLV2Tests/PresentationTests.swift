import Foundation
import Testing
import ToneShaperControl
import ToneShaperJSON
import ToneShaperLV2Description
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperWeb

/// How a parameter is shown is a column of its row (``Presentation``: group, name, priority,
/// place in the editors, logarithmic, modulatable, step), and every front end reads it: the
/// LV2 description, the CLAP parameters, the plugin's editor window, the browser editor
/// through OSCQuery. Here, once, each front end's view of every row against the row's
/// columns; a front end that decided something itself would differ from the row here.
@Suite struct PresentationTests {
    /// The rows the editors show, in their places: the range and duration, then the sound,
    /// the fidelity grid, instrument mode. A row moved or added changes this list on purpose.
    @Test func theEditorRowsAreTheColumnsPlaces() {
        #expect(
            ParameterTable.editorRows.map(\.id) == [
                .minFrequency, .maxFrequency, .duration, .wave, .scale, .echoOffset, .echoVolume, .amplitude, .tune, .fidelity, .instrument,
            ])
        let places = ParameterTable.all.compactMap(\.presentation.editorPlace).sorted()
        #expect(places == Array(0..<places.count), "the editor places are 0, 1, 2, ... without a gap or a repeat: \(places)")
        #expect(ParameterSpec.displayName(flag: "min-frequency") == "Min frequency")
        #expect(ParameterTable.modulatableRows.map(\.id) == [.echoVolume, .amplitude, .tune])
    }

    /// The LV2 ports and the Turtle written from them: name, group, priority, logarithmic.
    @Test(arguments: [false, true]) func lv2PortsAreTheRowsPresentation(stereo: Bool) throws {
        let ports = LV2Description.controlPorts(stereo: stereo)
        #expect(ports.count == ParameterTable.all.count)
        let turtle = LV2Description.pluginDescription
        for port in ports {
            let spec = ParameterTable.all[port.row]
            #expect(port.name == spec.displayName, "\(spec.id)")
            #expect(port.group.name == spec.presentation.group.name, "\(spec.id)")
            #expect(port.displayPriority == spec.presentation.priority, "\(spec.id)")
            #expect(port.logarithmic == spec.presentation.logarithmic, "\(spec.id)")
            // Each of the two plugins' port blocks of this symbol, as the bundle says them.
            let blocks = Self.turtlePorts(turtle).filter { $0.contains("lv2:symbol \"\(spec.symbol)\" ;") }
            #expect(blocks.count == 2, "\(spec.symbol): a port in the mono and the stereo plugin")
            for block in blocks {
                #expect(block.contains("lv2:name \"\(spec.displayName)\""), "\(spec.symbol): \(block)")
                #expect(block.contains("pg:group <\(port.group.uri)>"), "\(spec.symbol): \(block)")
                #expect(block.contains("pprops:logarithmic") == spec.presentation.logarithmic, "\(spec.symbol): \(block)")
                let priority = spec.presentation.priority.map { "pprops:displayPriority \($0)" }
                #expect(priority.map { block.contains($0) } ?? !block.contains("pprops:displayPriority"), "\(spec.symbol): \(block)")
            }
        }
        for group in LV2Description.PortGroup.allCases {
            #expect(turtle.contains("<\(group.uri)>\n    a pg:Group ;\n    lv2:symbol \"\(group.rawValue)\" ;\n    lv2:name \"\(group.name)\" ."))
        }
    }

    /// The control ports' blocks of the plugins' description.
    static func turtlePorts(_ turtle: String) -> [String] {
        turtle.components(separatedBy: "a lv2:InputPort , lv2:ControlPort ;").dropFirst().map { $0.components(separatedBy: "]").first ?? $0 }
    }

    /// The CLAP plugin's parameter info as a host reads it (Tests/CLAPHost): name, module,
    /// stepped, modulatable.
    @Test func clapParameterInfoIsTheRowsPresentation() throws {
        let plugin = TestTools.repository.appendingPathComponent(".build/clap/toneshaper.clap")
        if !FileManager.default.fileExists(atPath: plugin.path) {
            let result = try ToolResult.run(
                "/bin/bash", [TestTools.repository.appendingPathComponent("Scripts/build-clap.sh").path], directory: TestTools.repository,
                timeout: 900)
            try #require(result.status == 0, "Scripts/build-clap.sh failed:\n\(result.output)")
        }
        // Compiled as the CLAP suites compile it (CLAPTools.tools).
        let host = try TestTools.compiled(
            "Tests/CLAPHost/claphost.c", into: ".build/clap-host/claphost", flags: ["-std=gnu11", "-ldl", "-lm", "-lpthread", "-lX11"])
        let directory = try TestTools.temporaryDirectory("toneshaper-presentation")
        defer { try? FileManager.default.removeItem(at: directory) }
        for id in ["org.toneshaper.instrument", "org.toneshaper.instrument-stereo"] {
            let result = try ToolResult.run(
                host.path,
                [
                    "--clap", plugin.path, "--id", id, "--frames", "256", "--block", "256", "--out", directory.appendingPathComponent("out.f32").path,
                    "--describe",
                ], directory: TestTools.repository, timeout: 60)
            try #require(result.status == 0, "\(result.output)")
            let infos = Self.clapInfos(result.stdout)
            #expect(infos.count == ParameterTable.all.count, "\(result.stdout)")
            for spec in ParameterTable.all {
                let info = try #require(infos[spec.number], "\(id): no parameter \(spec.number) (\(spec.id))")
                #expect(info.name == spec.displayName, "\(id) \(spec.id)")
                #expect(info.module == spec.presentation.group.name, "\(id) \(spec.id)")
                #expect((info.flags & Self.stepped != 0) == spec.isStepped, "\(id) \(spec.id): flags \(info.flags)")
                #expect((info.flags & Self.modulatable != 0) == spec.presentation.modulatable, "\(id) \(spec.id): flags \(info.flags)")
            }
        }
    }

    /// CLAP_PARAM_IS_STEPPED and CLAP_PARAM_IS_MODULATABLE.
    static let stepped: UInt32 = 1 << 0
    static let modulatable: UInt32 = 1 << 10

    /// The host's `param: ID "NAME" ... flags 0xF ... module "MODULE"` lines, by id.
    static func clapInfos(_ stdout: String) -> [Int: (name: String, flags: UInt32, module: String)] {
        var infos: [Int: (name: String, flags: UInt32, module: String)] = [:]
        for line in stdout.split(separator: "\n") where line.hasPrefix("param: ") {
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard quoted.count >= 3, let id = Int(quoted[0].dropFirst("param: ".count).trimmingCharacters(in: .whitespaces)),
                let flagsWord = line.components(separatedBy: " flags 0x").dropFirst().first?.split(separator: " ").first,
                let flags = UInt32(flagsWord, radix: 16),
                let module = line.components(separatedBy: " module \"").last.map({ String($0.dropLast()) })
            else { continue }
            infos[id] = (String(quoted[1]), flags, module)
        }
        return infos
    }

    /// The plugin's editor window is built in Embedded Swift by the plugin scripts, outside
    /// SwiftPM, so its rows cannot be called here: its source is read instead. It takes its
    /// rows, labels and scales from the columns (``ParameterTable/editorRows``,
    /// ``ParameterSpec/displayName``, ``Presentation/logarithmic``) and names no row itself;
    /// the window's gestures (LV2EditorWindowTests) find their bars by ``ParameterTable/editorRows``.
    @Test func theEditorWindowReadsTheColumnsAndNamesNoRow() throws {
        let controls = try String(
            contentsOf: TestTools.repository.appendingPathComponent("Sources/ToneShaperEditor/Controls.swift"), encoding: .utf8)
        for reading in ["ParameterTable.editorRows", "spec.displayName", "spec.presentation.logarithmic"] {
            #expect(controls.contains(reading), "ControlRow.rows() reads \(reading)")
        }
        for id in ParameterID.allCases {
            let name = "." + String(describing: id)
            let named = controls.components(separatedBy: name).dropFirst().contains { rest in
                !(rest.first.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
            }
            #expect(!named, "Controls.swift names the row \(name): the editor decides by the row's columns, not by ids")
        }
    }

    /// The OSCQuery node of every parameter carries its row's presentation, which the browser
    /// editor builds its controls from; `?HOST_INFO` lists the attributes as extensions.
    @Test func oscQueryNodesCarryTheRowsPresentation() throws {
        let namespace = OSCQueryNamespace(prefix: "/toneshaper")
        let state = EngineController(shape: .defaultShape, sampleRate: 48_000).state
        for spec in ParameterTable.all {
            let node = try #require(namespace.node(at: "/toneshaper/" + spec.oscPath, state: state), "\(spec.oscPath)")
            let group = spec.presentation.group
            #expect(node["NAME"] == .string(spec.displayName), "\(spec.id)")
            #expect(node["GROUP"] == .string(group.name), "\(spec.id)")
            #expect(node["GROUP_PLACE"] == .number(Double(ParameterGroup.allCases.firstIndex(of: group)!)), "\(spec.id)")
            #expect(node["TAGS"] == .array([.string(group.name)]), "\(spec.id)")
            #expect(node["LOGARITHMIC"] == .bool(spec.presentation.logarithmic), "\(spec.id)")
            #expect(node["EDITOR_PLACE"] == spec.presentation.editorPlace.map { .number(Double($0)) }, "\(spec.id)")
            #expect(node["PRIORITY"] == spec.presentation.priority.map { .number(Double($0)) }, "\(spec.id)")
            #expect(node["STEP"] == spec.step.map { .number($0) }, "\(spec.id)")
        }
        let extensions = OSCQueryNamespace.hostInfo(name: "toneshaper", oscPort: nil)["EXTENSIONS"]
        for name in ["NAME", "GROUP", "GROUP_PLACE", "EDITOR_PLACE", "PRIORITY", "LOGARITHMIC", "STEP", "TAGS"] {
            #expect(extensions?[name] == .bool(true), "HOST_INFO's EXTENSIONS lists \(name)")
        }
    }
}
