// Writes the LV2 bundle's description (manifest.ttl, toneshaper.ttl, presets.ttl) from the
// parameter table and the built-in documents,
// as DPF's lv2-ttl-generator does for its plugins. Run from the package's root:
//
//   swift run toneshaper-lv2-ttl            # rewrites the files that differ, says which
//   swift run toneshaper-lv2-ttl --check    # exits 1, naming them, if any differs
//
// A test (LV2DescriptionTests) fails when a committed file is not what this writes.
import Foundation
import ToneShaperLV2Description

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: toneshaper-lv2-ttl [--check] [--sources DIR] [--sessions DIR]
          Writes Sources/ToneShaperLV2/Bundle/*.ttl from the parameter table and the
          built-in documents (Sessions/).
          --check      write nothing; exit 1 if a file differs from what would be written
          --sources    the plugin's source folder (default: Sources/ToneShaperLV2)
          --sessions   the built-in documents (default: Sessions)
        """)
    exit(0)
}
func option(_ name: String, _ fallback: String) -> String {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return fallback }
    return arguments[i + 1]
}
let check = arguments.contains("--check")
let sources = URL(fileURLWithPath: option("--sources", "Sources/ToneShaperLV2"))
let sessions = URL(fileURLWithPath: option("--sessions", "Sessions"))
guard FileManager.default.fileExists(atPath: sources.appendingPathComponent("Bundle").path) else {
    FileHandle.standardError.write(
        Data("toneshaper-lv2-ttl: no \(sources.path)/Bundle here; run it from the package's root, or give --sources\n".utf8))
    exit(2)
}
do {
    let documents = try BundleFiles.builtInDocuments(in: sessions)
    var differing: [String] = []
    for (path, text) in BundleFiles.generated(builtIns: documents) {
        let url = sources.appendingPathComponent(path)
        guard (try? String(contentsOf: url, encoding: .utf8)) != text else { continue }
        differing.append(path)
        if !check { try text.write(to: url, atomically: true, encoding: .utf8) }
    }
    if differing.isEmpty {
        print("toneshaper-lv2-ttl: every file is up to date")
    } else {
        print("toneshaper-lv2-ttl: \(check ? "differs" : "rewrote"): \(differing.joined(separator: ", "))")
        if check { exit(1) }
    }
} catch {
    FileHandle.standardError.write(Data("toneshaper-lv2-ttl: \(error)\n".utf8))
    exit(1)
}
