import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel

@testable import ToneShaperFiles

/// The file a node keeps in an NSM session: a document any reader takes, plus settings.
@Suite struct SessionDocumentTests {
    @Test func roundTripKeepsShapeAndSettingsApart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var shape = ToneShape.defaultShape
        shape.extraKeys["someOtherAppsKey"] = .string("kept")
        let settings = SessionDocument.NodeSettings(
            playing: false, stereo: true, jackClient: "toneshaper.nX",
            jackPorts: ["toneshaper.nX:out_1", "toneshaper.nX:out_2"],
            oscURL: "osc.udp://127.0.0.1:40000/", oscPort: 40000,
            editorURL: "http://127.0.0.1:40001/editor", httpPort: 40001, savedBy: "toneshaper test")
        let path = SessionDocument.path(forSession: directory.file("toneshaper.nX"))
        #expect(path.hasSuffix("/toneshaper.nX.toneshaper"))
        try SessionDocument(shape: shape, settings: settings).write(to: path)
        #expect(directory.contents() == ["toneshaper.nX.toneshaper"], "no temporary left behind")

        let read = try #require(try SessionDocument.read(path: path))
        #expect(read.settings == settings)
        #expect(read.shape == shape, "the settings key does not leak into the shape (nor into a library save)")
        // An ordinary reader sees an ordinary document.
        let plain = try DocumentLibrary.read(path: path)
        #expect(plain.points == shape.points && plain.extraKeys[SessionDocument.settingsKey] != nil)
    }

    @Test func aMissingFileIsANewSessionAndABrokenOneIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try SessionDocument.read(path: directory.file("none.toneshaper")) == nil)
        try directory.write("broken.toneshaper", "{\"points\": [[0, 440]]")
        #expect(throws: LibraryError.self) { try SessionDocument.read(path: directory.file("broken.toneshaper")) }
        try FileManager.default.createDirectory(atPath: directory.file("dir.toneshaper"), withIntermediateDirectories: false)
        #expect(throws: LibraryError.self) { try SessionDocument.read(path: directory.file("dir.toneshaper")) }
    }

    @Test func settingsOfTheWrongTypeFallBackToDefaults() throws {
        let text = """
            {"points": [[0, 440]], "duration": 1, "minFrequency": 20, "maxFrequency": 2000,
             "toneshaperSession": {"playing": "yes", "stereo": 1, "oscPort": 70000, "httpPort": 1.5, "editorURL": 2, "jackPorts": [3, "a:out"]}}
            """
        let document = try SessionDocument.decode(Array(text.utf8), source: "test")
        #expect(document.settings == SessionDocument.NodeSettings(jackPorts: ["a:out"]))
    }

    @Test func aFailedWriteLeavesThePreviousSave() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("s.toneshaper")
        try SessionDocument(shape: .defaultShape).write(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        chmod(directory.path, 0o500)
        defer { chmod(directory.path, 0o700) }
        if getuid() != 0 {  // root writes anyway
            #expect(throws: LibraryError.self) { try SessionDocument(shape: .tableDefaults).write(to: path) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }
}
