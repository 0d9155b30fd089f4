import Foundation
import ToneShaperModel

/// The files of the LV2 bundle that are written from the tables, not by hand: what
/// `toneshaper-lv2-ttl` writes into `Sources/ToneShaperLV2` and what a test compares the
/// committed files with, so the two cannot disagree.
public enum BundleFiles {
    /// The built-in documents in `sessions` (`Sessions/`), by file name without the
    /// extension, in name order: the plugin's presets and program changes.
    public static func builtInDocuments(in sessions: URL) throws -> [(name: String, shape: ToneShape)] {
        let files = try FileManager.default.contentsOfDirectory(at: sessions, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "toneshaper" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { url in
            let name = url.deletingPathExtension().lastPathComponent
            return (name, try ToneShapeDocument.decode(Array(try Data(contentsOf: url)), source: url.lastPathComponent))
        }
    }

    /// Each generated file, relative to `Sources/ToneShaperLV2`, and its text.
    public static func generated(builtIns documents: [(name: String, shape: ToneShape)]) -> [(path: String, text: String)] {
        [
            ("Bundle/manifest.ttl", LV2Description.manifest(presetNames: documents.map(\.name))),
            ("Bundle/toneshaper.ttl", LV2Description.pluginDescription),
            ("Bundle/presets.ttl", LV2Description.presets(documents)),
        ]
    }
}
