import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel

@testable import ToneShaperFiles

private func documentText(frequency: Double, name: String? = nil) -> String {
    let nameKey = name.map { "\"name\": \"\($0)\", " } ?? ""
    return "{ \(nameKey)\"points\": [[0, \(frequency)], [1, \(frequency)]], \"duration\": 1, \"minFrequency\": 100, \"maxFrequency\": 1000 }"
}

/// A library with its own user and built-in directories, so tests neither see nor touch
/// the real ones.
private struct Fixture {
    let user: TemporaryDirectory
    let sessions: TemporaryDirectory
    let library: DocumentLibrary

    init() throws {
        user = try TemporaryDirectory()
        sessions = try TemporaryDirectory()
        try sessions.write("bell.toneshaper", documentText(frequency: 440, name: "bell"))
        try sessions.write("horn.toneshaper", documentText(frequency: 220))
        library = DocumentLibrary(locations: LibraryLocations(userDirectory: user.path, sessionsDirectory: sessions.path))
    }

    func remove() {
        user.remove()
        sessions.remove()
    }
}

@Suite struct DocumentLibraryTests {
    @Test func findsBuiltInsByName() throws {
        let f = try Fixture()
        defer { f.remove() }
        #expect(try f.library.load("bell").points[0].frequency == 440)
        #expect(try f.library.locate("horn") == f.sessions.file("horn.toneshaper"))
        #expect(f.library.listBuiltIns().map(\.name) == ["bell", "horn"])
        #expect(f.library.listUserLibrary().isEmpty)
    }

    @Test func userLibraryComesFirst() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.user.write("bell.toneshaper", documentText(frequency: 880))
        #expect(try f.library.load("bell").points[0].frequency == 880)
        #expect(try f.library.load("horn").points[0].frequency == 220)
        #expect(f.library.listUserLibrary().map(\.name) == ["bell"])
    }

    @Test func pathsAreReadAsGiven() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.user.write("elsewhere.json", documentText(frequency: 330))
        #expect(try f.library.load(f.user.file("elsewhere.json")).points[0].frequency == 330)
        #expect(DocumentLibrary.isPath("a/b"))
        #expect(DocumentLibrary.isPath("x.toneshaper"))
        #expect(DocumentLibrary.isPath("x.json"))
        #expect(!DocumentLibrary.isPath("siren"))
    }

    @Test func namesOnlyLoadingRefusesPaths() throws {
        let f = try Fixture()
        defer { f.remove() }
        #expect(try f.library.load(named: "bell").points[0].frequency == 440)
        for reference in [f.sessions.file("bell.toneshaper"), "../bell", "bell.toneshaper", "/etc/passwd"] {
            let error = #expect(throws: LibraryError.self) { try f.library.load(named: reference) }
            if case .notFound? = error {} else { Issue.record("\(reference): expected notFound, got \(String(describing: error))") }
        }
    }

    @Test func unknownNameSaysWhereItLookedAndWhatToDo() throws {
        let f = try Fixture()
        defer { f.remove() }
        let error = #expect(throws: LibraryError.self) { try f.library.load("nosuch") }
        let text = error?.description ?? ""
        #expect(text.contains("nosuch"))
        #expect(text.contains(f.user.path))
        #expect(text.contains(f.sessions.path))
        #expect(text.contains("toneshaper presets"))
    }

    @Test func badDocumentNamesFileKeyAndProblem() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.user.write("bad.toneshaper", "{ \"points\": [[0, 100], [2, 100]], \"duration\": 1, \"minFrequency\": 0, \"maxFrequency\": 1000 }")
        let error = #expect(throws: LibraryError.self) { try f.library.load("bad") }
        guard case .invalidDocument(let documentError)? = error else {
            Issue.record("expected invalidDocument, got \(String(describing: error))")
            return
        }
        #expect(documentError.source == f.user.file("bad.toneshaper"))
        #expect(documentError.key == "points")
        #expect(error?.description.contains("outside the cycle") == true)
    }

    @Test func oversizedFileIsRefusedBeforeReading() throws {
        let f = try Fixture()
        defer { f.remove() }
        let path = f.user.file("huge.toneshaper")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(ToneShapeDocument.maximumSize + 1))  // sparse: costs no disk
        try handle.close()
        let error = #expect(throws: LibraryError.self) { try f.library.load("huge") }
        #expect(error?.description.contains("more than the \(ToneShapeDocument.maximumSize)") == true)
    }

    @Test func directoryIsNotADocument() throws {
        let f = try Fixture()
        defer { f.remove() }
        let error = #expect(throws: LibraryError.self) { try f.library.load(f.user.path + "/") }
        #expect(error?.description.contains("directory") == true)
    }

    @Test(arguments: ["../x", "a/b", ".hidden", "", "has space", String(repeating: "n", count: 65), "x.toneshaper", "é"])
    func refusesNamesThatCouldEscape(name: String) throws {
        let f = try Fixture()
        defer { f.remove() }
        let error = #expect(throws: LibraryError.self) { try f.library.save(ToneShape.defaultShape, name: name) }
        if case .invalidName? = error {} else { Issue.record("expected invalidName for \"\(name)\", got \(String(describing: error))") }
        #expect(f.user.contents().isEmpty)
    }

    @Test func acceptsPlainNames() throws {
        for name in ["a", "My_shape-2.v1", String(repeating: "n", count: 64)] {
            #expect(throws: Never.self) { try DocumentLibrary.checkName(name) }
        }
    }

    @Test func refusesToHideABuiltIn() throws {
        let f = try Fixture()
        defer { f.remove() }
        let error = #expect(throws: LibraryError.self) { try f.library.save(ToneShape.defaultShape, name: "bell") }
        #expect(error == .builtInName("bell"))
        #expect(error?.description.contains("choose another name") == true)
        #expect(f.user.contents().isEmpty)
    }

    @Test func saveRoundTripsAtomicallyAndReplaces() throws {
        let f = try Fixture()
        let nested = f.user.path + "/not/yet/there"
        defer { f.remove() }
        let library = DocumentLibrary(locations: LibraryLocations(userDirectory: nested, sessionsDirectory: f.sessions.path))
        var shape = ToneShape.defaultShape
        shape.description = "saved by a test"
        shape.extraKeys = ["colour": .string("blue")]
        let path = try library.save(shape, name: "mine")
        #expect(path == nested + "/mine.toneshaper")
        #expect(try library.load("mine") == DocumentLibrary.savedCopy(of: shape, as: "mine"))
        #expect(try library.load("mine").name == "mine")

        shape.amplitude = 0.5
        try library.save(shape, name: "mine")
        #expect(try library.load("mine").amplitude == 0.5)
        // Nothing but the document: no temporary left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested) == ["mine.toneshaper"])
        #expect(library.listUserLibrary().map(\.name) == ["mine"])
    }

    @Test func saveIntoAnUnwritablePlaceSaysSo() throws {
        let library = DocumentLibrary(locations: LibraryLocations(userDirectory: "/proc/toneshaper-library", sessionsDirectory: nil))
        let error = #expect(throws: LibraryError.self) { try library.save(ToneShape.defaultShape, name: "x") }
        if case .saveFailed? = error {} else { Issue.record("expected saveFailed, got \(String(describing: error))") }
    }

    @Test func entriesReportDocumentsThatDoNotLoad() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.sessions.write("broken.toneshaper", "{")
        let entries = f.library.entries(.builtIn)
        #expect(entries.map(\.name) == ["bell", "broken", "horn"])
        #expect((try? entries[1].shape.get()) == nil)
        #expect(f.library.listBuiltIns().map(\.name) == ["bell", "horn"])
    }

    // MARK: Locations

    @Test func userDirectoryFollowsTheEnvironment() {
        #expect(LibraryLocations.userDirectory(environment: ["TONESHAPER_LIBRARY": "/l", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/l")
        #expect(LibraryLocations.userDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/toneshaper/shapes")
        #expect(LibraryLocations.userDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/toneshaper/shapes")
        #expect(LibraryLocations.userDirectory(environment: ["HOME": "/h"]) == "/h/.local/share/toneshaper/shapes")
        // The folder earlier versions saved into, beside it; none when TONESHAPER_LIBRARY chose the folder.
        #expect(LibraryLocations.olderUserDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/toneshaper/library")
        #expect(LibraryLocations.olderUserDirectory(environment: ["HOME": "/h"]) == "/h/.local/share/toneshaper/library")
        #expect(LibraryLocations.olderUserDirectory(environment: ["TONESHAPER_LIBRARY": "/l", "XDG_DATA_HOME": "/x"]) == nil)
    }

    @Test func sessionsFollowTheEnvironmentElseTheExecutable() {
        #expect(LibraryLocations.findSessions(environment: ["TONESHAPER_SESSIONS": "/s"]).found == "/s")
        // The test executable lives in .build*/debug inside the repository: walking up finds
        // the repository's Sessions.
        let found = LibraryLocations.findSessions(environment: [:]).found
        #expect(found.map { URL(fileURLWithPath: $0).standardizedFileURL.path } == URL(fileURLWithPath: repositorySessions).standardizedFileURL.path)
    }
}

@Suite struct DocumentLibraryRenameTests {
    @Test func renamesAUserDocumentAndNamesItInside() throws {
        let f = try Fixture()
        defer { f.remove() }
        var shape = try f.library.load("bell")
        shape.description = "a bell"
        try f.library.save(shape, name: "mine")
        let path = try f.library.rename("mine", to: "yours")
        #expect(path == f.user.file("yours.toneshaper"))
        #expect(!FileManager.default.fileExists(atPath: f.user.file("mine.toneshaper")))
        let renamed = try f.library.load("yours")
        #expect(renamed.name == "yours")
        #expect(renamed.description == shape.description.map { "Derived from \"bell\": \($0)" }, "a rename adds no second derivation")
        #expect(renamed.points == shape.points)
    }

    @Test func refusesBuiltInsTakenNamesAndMissingOnes() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.library.save(try f.library.load("bell"), name: "mine")
        try f.library.save(try f.library.load("bell"), name: "other")
        #expect(throws: LibraryError.self) { try f.library.rename("bell", to: "x") }
        #expect(throws: LibraryError.self) { try f.library.rename("mine", to: "other") }
        #expect(throws: LibraryError.self) { try f.library.rename("mine", to: "horn") }
        #expect(throws: LibraryError.self) { try f.library.rename("absent", to: "x") }
        #expect(throws: LibraryError.self) { try f.library.rename("mine", to: "../x") }
        #expect(f.library.listUserLibrary().map(\.name) == ["mine", "other"], "a refused rename changes nothing")
    }
}

/// Issue 43: the user's folder is `$XDG_DATA_HOME/toneshaper/shapes`; the `library` folder
/// earlier versions saved into is still read (listed and found by name after the shapes
/// folder), never written, nothing moved.
@Suite struct OlderLibraryFolderTests {
    /// A data home with documents in both folders: `kept` and `both` in the older one,
    /// `both` and `new` in the shapes folder.
    private struct DataHome {
        let dir: TemporaryDirectory
        let library: DocumentLibrary
        var shapes: String { dir.file("toneshaper/shapes") }
        var older: String { dir.file("toneshaper/library") }

        init() throws {
            dir = try TemporaryDirectory()
            for folder in ["toneshaper/shapes", "toneshaper/library"] {
                try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
            }
            try dir.write("toneshaper/library/kept.toneshaper", documentText(frequency: 300, name: "kept"))
            try dir.write("toneshaper/library/both.toneshaper", documentText(frequency: 400, name: "both"))
            try dir.write("toneshaper/shapes/both.toneshaper", documentText(frequency: 500, name: "both"))
            try dir.write("toneshaper/shapes/new.toneshaper", documentText(frequency: 600, name: "new"))
            library = DocumentLibrary(locations: .standard(environment: ["XDG_DATA_HOME": dir.path, "TONESHAPER_SESSIONS": repositorySessions]))
        }

        /// The older folder's files and their bytes.
        func olderContents() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: older) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: older + "/" + name))
            }
            return files
        }
    }

    @Test func theShapesFolderIsListedThenTheOlderFoldersOwn() throws {
        let home = try DataHome()
        defer { home.dir.remove() }
        #expect(home.library.locations.userDirectory == home.shapes)
        #expect(home.library.locations.olderUserDirectory == home.older)
        let entries = home.library.entries(.user)
        #expect(entries.map(\.name) == ["both", "new", "kept"], "the shapes folder's, then the older folder's it does not hide")
        #expect(entries.map(\.inOlderFolder) == [false, false, true])
        #expect(home.library.documentNames().suffix(3) == ["both", "new", "kept"])
    }

    @Test func aNameIsFoundInTheOlderFolderAfterTheShapesFolder() throws {
        let home = try DataHome()
        defer { home.dir.remove() }
        #expect(try home.library.locate(named: "kept") == home.older + "/kept.toneshaper")
        #expect(try home.library.load("kept").points[0].frequency == 300)
        #expect(try home.library.load("both").points[0].frequency == 500, "the shapes folder's comes first")
        let missing = #expect(throws: LibraryError.self) { try home.library.locate(named: "absent") }
        #expect(missing?.description.contains(home.older) == true, "the error names both folders: \(String(describing: missing))")
    }

    @Test func savingAndRenamingWriteTheShapesFolderOnly() throws {
        let home = try DataHome()
        defer { home.dir.remove() }
        let before = try home.olderContents()
        // A document from the older folder, changed and saved under its own name: into the
        // shapes folder, where it now hides the older one.
        var kept = try home.library.load("kept")
        kept.amplitude = 0.25
        #expect(try home.library.save(kept, name: "kept") == home.shapes + "/kept.toneshaper")
        #expect(try home.library.load("kept").amplitude == 0.25)
        #expect(try home.library.rename("new", to: "renamed") == home.shapes + "/renamed.toneshaper")
        // The older folder's own are not renamed (that would write it): a clear refusal.
        try home.dir.write("toneshaper/library/only-old.toneshaper", documentText(frequency: 700))
        let refused = #expect(throws: LibraryError.self) { try home.library.rename("only-old", to: "x") }
        #expect(refused?.description.contains("save it under another name") == true, "\(String(describing: refused))")
        var after = try home.olderContents()
        after["only-old.toneshaper"] = nil
        #expect(after == before, "the older folder is never written")
        #expect(!FileManager.default.fileExists(atPath: home.shapes + "/x.toneshaper"))
    }

    @Test func withoutTheOlderFolderNothingChanges() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let library = DocumentLibrary(locations: .standard(environment: ["XDG_DATA_HOME": dir.path, "TONESHAPER_SESSIONS": repositorySessions]))
        #expect(library.entries(.user).isEmpty)
        #expect(try library.save(ToneShape.defaultShape, name: "first") == dir.file("toneshaper/shapes/first.toneshaper"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("toneshaper/library")), "the older folder is not made")
        #expect(library.entries(.user).map(\.name) == ["first"])
    }
}
