import Foundation
import Testing
import ToneShaperPlugin

/// The snapshots an LV2 window asks its plugin for: a message names one and never gives a
/// path, and the worker writes the document it plays there, the file it would save.
@Suite struct DocumentSnapshotTests {
    @Test func onlyNamesAreTakenNeverPaths() {
        for good in ["ui123-4-0", "a", String(repeating: "x", count: 64)] {
            #expect(DocumentSnapshot.isName(Array(good.utf8)), "\(good)")
            #expect(DocumentSnapshot.file(good)?.hasSuffix("/" + good + ".toneshaper") == true)
        }
        for bad in ["", "../evil", "a/b", "/tmp/x", "a.b", "a b", "é", String(repeating: "x", count: 65)] {
            #expect(!DocumentSnapshot.isName(Array(bad.utf8)), "\(bad)")
            #expect(DocumentSnapshot.file(bad) == nil, "\(bad)")
        }
    }

    @Test func theWorkerWritesTheDocumentItPlaysAndRefusesAPath() throws {
        let host = PluginEngineTests.Host()
        var engine = PluginEngine(sampleRate: 48_000, maximumBlock: 64, host: host)
        defer { engine.free() }
        let name = "test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = try #require(DocumentSnapshot.file(name))
        defer { DocumentSnapshot.remove(name) }
        #expect(Array((name + "\0").utf8).withUnsafeBytes { DocumentSnapshot.write($0, of: engine) })
        let written = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(!written.isEmpty && Array(written) == Array(engine.documentForSaving()))

        let folder = try #require(DocumentSnapshot.folder)
        let outside = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("evil-\(name).toneshaper")
        #expect(!Array("../evil-\(name)\0".utf8).withUnsafeBytes { DocumentSnapshot.write($0, of: engine) })
        #expect(!Array("\(name)".utf8).withUnsafeBytes { DocumentSnapshot.write($0, of: engine) }, "a name without its NUL")
        #expect(host.lines.last?.contains("nothing was written") == true, "\(host.lines)")
        #expect(!FileManager.default.fileExists(atPath: outside.path))

        DocumentSnapshot.remove(name)
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
