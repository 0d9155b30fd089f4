import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
/// Each test makes its own, so tests can run in parallel.
struct TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/toneshaper-files-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Every entry, hidden ones included: a left-over ".x.partial-..." shows up here.
    func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The repository's root, found from this source file's place (Tests/ToneShaperFilesTests/).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let repositorySessions = repositoryRoot + "/Sessions"
