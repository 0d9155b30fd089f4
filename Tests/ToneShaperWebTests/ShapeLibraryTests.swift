import Foundation
import Testing
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJSON
import ToneShaperModel

@testable import ToneShaperWeb

/// The page's shape library over a data home with both user folders: the shapes folder's
/// documents, then those of the older `toneshaper/library` marked `olderFolder` (the page
/// offers no Rename for them); a rename of one is refused and saving goes to the shapes folder.
@Suite struct ShapeLibraryTests {
    @Test func theOlderFoldersShapesAreListedAfterYoursAndNotRenamed() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("toneshaper-web-library-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let document = Data(#"{"points": [[0, 300], [1, 600]], "duration": 1, "minFrequency": 100, "maxFrequency": 1000}"#.utf8)
        for (folder, name) in [("shapes", "mine"), ("library", "older")] {
            try FileManager.default.createDirectory(atPath: "\(home)/toneshaper/\(folder)", withIntermediateDirectories: true)
            try document.write(to: URL(fileURLWithPath: "\(home)/toneshaper/\(folder)/\(name).toneshaper"))
        }
        let library = DocumentLibrary(locations: .standard(environment: ["XDG_DATA_HOME": home, "TONESHAPER_SESSIONS": "/nonexistent"]))
        let context = WebContext(
            controller: EngineController(shape: .defaultShape, sampleRate: 48_000), namespace: OSCQueryNamespace(prefix: "/toneshaper"),
            services: WebHostServices(library: library), name: "test", oscPort: nil, pages: EditorPages())

        guard case .object(let listed) = context.libraryJSON(), case .array(let user)? = listed["user"] else {
            Issue.record("no list of the user's shapes: \(context.libraryJSON())")
            return
        }
        let entries = user.compactMap { entry -> [String: JSONValue]? in
            guard case .object(let fields) = entry else { return nil }
            return fields
        }
        #expect(entries.map { $0["name"]?.string } == ["mine", "older"])
        #expect(entries.map { $0["olderFolder"] } == [nil, .bool(true)])
        guard case .failure(let refusal) = context.rename("older", to: "renamed") else {
            Issue.record("a shape of the older folder was renamed")
            return
        }
        #expect(refusal.message.contains("open it and save it under another name"), "\(refusal.message)")
        #expect(FileManager.default.fileExists(atPath: "\(home)/toneshaper/library/older.toneshaper"))
        #expect(throws: Never.self) { try context.rename("mine", to: "renamed").get() }
        #expect(FileManager.default.fileExists(atPath: "\(home)/toneshaper/shapes/renamed.toneshaper"))
    }
}
