import Foundation
import Testing
import ToneShaperTestSupport

/// Presets: the preset-discovery factory lists the built-in shapes (compiled into the
/// plugin) and the user's library, and each listed preset loads through preset-load.
@Suite struct CLAPPresetTests {
    static var builtIns: [String] {
        let sessions = CLAPTools.repository.appendingPathComponent("Sessions")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sessions.path)) ?? []
        return files.filter { $0.hasSuffix(".toneshaper") }.map { String($0.dropLast(".toneshaper".count)) }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    @Test func theDiscoveryFactoryListsTheBuiltInShapesAndEachLoads() throws {
        try CLAPTools.prepare()
        let listed = try CLAPTools.run(CLAPTools.host.path, ["--clap", CLAPTools.plugin.path, "--list-presets"])
        #expect(listed.status == 0, "\(listed.output)")
        let report = listed.stdout.split(separator: "\n")
        #expect(report.contains("filetype: ToneShaper document .toneshaper"), "\(listed.stdout)")
        #expect(report.contains("location: 1 ToneShaper built-in shapes (plugin)"), "\(listed.stdout)")
        let presets = report.filter { $0.hasPrefix("preset: ") && !$0.hasPrefix("preset: (file)") }.map { $0.split(separator: " ")[1] }.map(
            String.init)
        #expect(!presets.isEmpty && presets == Self.builtIns, "\(listed.stdout)")
        // Every preset is for both plugins; a document file is one, any other file is not.
        #expect(listed.number("preset_plugin_ids") == Double(2 * (presets.count + 1)), "\(listed.stdout)")
        #expect(listed.number("file_metadata") == 1 && listed.number("foreign_metadata") == 0, "\(listed.stdout)")
        let (_, plain) = try CLAPTools.play(CLAPTools.monoID, [])
        for name in presets {
            let (result, samples) = try CLAPTools.play(CLAPTools.monoID, ["--preset-builtin", name])
            #expect(result.status == 0 && result.number("preset_loaded") == 1 && result.number("log_errors") == 0, "\(name): \(result.output)")
            let differs = samples != plain
            #expect(differs && SignalAnalysis.allFinite(samples), "\(name) sounds like the default shape")
        }
    }

    /// The user's locations follow the shapes folder's rule (toneshaper_plugin_shapes_folder):
    /// `$XDG_DATA_HOME/toneshaper/shapes`, then the old `.../library`; a relative
    /// XDG_DATA_HOME is ignored for `~/.local/share`.
    @Test func theUsersLocationsAreTheShapesFolderThenTheOldLibrary() throws {
        try CLAPTools.prepare()
        for (data, base) in [("/data/here", "/data/here"), ("relative", "/home/someone/.local/share")] {
            let listed = try CLAPTools.run(
                CLAPTools.host.path, ["--clap", CLAPTools.plugin.path, "--list-presets"],
                environment: ["XDG_DATA_HOME": data, "HOME": "/home/someone", "TONESHAPER_LIBRARY": ""])
            let locations = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("location: 0 ") }
            #expect(
                locations == [
                    "location: 0 ToneShaper shapes \(base)/toneshaper/shapes", "location: 0 ToneShaper library \(base)/toneshaper/library",
                ],
                "\(listed.stdout)")
        }
    }

    /// TONESHAPER_LIBRARY, as for the node, is the user's one folder: the old library is not
    /// listed beside it.
    @Test func theNodesLibraryVariableIsTheUsersOneLocation() throws {
        try CLAPTools.prepare()
        let listed = try CLAPTools.run(
            CLAPTools.host.path, ["--clap", CLAPTools.plugin.path, "--list-presets"],
            environment: ["XDG_DATA_HOME": "/data/here", "TONESHAPER_LIBRARY": "/mine/shapes"])
        let locations = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("location: 0 ") }
        #expect(locations == ["location: 0 ToneShaper shapes /mine/shapes"], "\(listed.stdout)")
    }
}
