import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// Broken documents and the user's library, through the live node.
    @Suite struct DocumentFaults {
        /// Writes the broken documents into a library directory; returns name -> what the
        /// refusal must mention.
        static func brokenLibrary(in directory: URL) throws -> [String: String] {
            let base = #""duration": 1, "minFrequency": 100, "maxFrequency": 900"#
            let files: [String: String] = [
                "corrupt": "{\"points\": [[0, 100]], \(base), \u{0}\u{1}garbage",
                "truncated": "{\"points\": [[0, 100], [0.5, 20",
                "empty": "",
                "wrongtype": "{\"points\": \"many\", \(base)}",
                "outside": "{\"points\": [[0, 100], [2, 200]], \(base)}",
            ]
            for (name, text) in files {
                try text.write(to: directory.appendingPathComponent("\(name).toneshaper"), atomically: true, encoding: .utf8)
            }
            // 100 MB: sparse, so it costs no disk; the node must refuse it before reading it.
            let big = directory.appendingPathComponent("huge.toneshaper")
            FileManager.default.createFile(atPath: big.path, contents: nil)
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: 100 * 1024 * 1024)
            try handle.close()
            return [
                "corrupt": "not valid JSON", "truncated": "not valid JSON", "empty": "empty", "wrongtype": "points",
                "outside": "outside the cycle", "huge": "bytes",
            ]
        }

        @Test func brokenDocumentsAreRefusedAndTheNodeKeepsPlaying() async throws {
            let scratch = try ScratchDirectory()
            let library = scratch.url.appendingPathComponent("library")
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            let expectations = try Self.brokenLibrary(in: library)
            let fixture = try await NodeFixture(
                tone: 440, amplitude: 0.4, arguments: NodeFixture.quietArguments + ["--save", "final-state"],
                environment: { _ in ["TONESHAPER_LIBRARY": library.path] })
            let node = fixture.node
            let client = try FuzzClient(port: try fixture.oscPort)
            let before = try #require(client.state())

            for (name, mention) in expectations.sorted(by: { $0.key < $1.key }) {
                client.send(OSCPacket.message("/toneshaper/load", [.string(name)]))
                let reply = try #require(client.drain(waitingFor: "/toneshaper/error", timeout: 3), "no /error for \(name)")
                let reason = reply.compactMap { if case .string(let s) = $0 { s } else { nil } }.joined(separator: " ")
                #expect(reason.contains("\(name).toneshaper") && reason.contains(mention), "\(name): \(reason)")
            }
            // Nothing changed, and it still plays the same tone.
            let after = try #require(client.state())
            #expect(after.keys.sorted() == before.keys.sorted())
            for key in before.keys { #expect("\(String(describing: after[key]))" == "\(String(describing: before[key]))", "\(key) changed") }
            // Still the same tone (the precise pitch test is RunCommand's; this is "not silent,
            // not another document"), judged on a stretch free of the busy server's dropouts.
            let analysis = try await fixture.recordSteady(seconds: 1.5, minimumClean: 4_800)
            let frequency = try analysis.frequency(atLeast: 4_800)
            #expect(abs(frequency - 440) < 1)
            #expect(abs(SignalAnalysis.peak(analysis.samples) - 0.4) < 0.01)

            // /save writes into the library; names that could escape it, or hide a built-in, are refused.
            client.send(OSCPacket.message("/toneshaper/amplitude", [.float(0.3)]))
            client.send(OSCPacket.message("/toneshaper/save", [.string("kept")]))
            _ = client.drain(waitingFor: "/toneshaper/ok", timeout: 3)
            let kept = library.appendingPathComponent("kept.toneshaper")
            let saved = await eventually(timeout: 5) { (try? String(contentsOf: kept, encoding: .utf8))?.contains("\"amplitude\" : 0.3") == true }
            #expect(saved, "kept.toneshaper: \(String(describing: try? String(contentsOf: kept, encoding: .utf8)))")
            for bad in ["../escape", "a/b", ".hidden", "siren", ""] {
                client.send(OSCPacket.message("/toneshaper/save", [.string(bad)]))
                #expect(client.drain(waitingFor: "/toneshaper/error", timeout: 3) != nil, "saving as \"\(bad)\" was not refused")
            }
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("escape.toneshaper").path))
            // A saved document loads back by name.
            client.send(OSCPacket.message("/toneshaper/load", [.string("kept")]))
            #expect(client.drain(waitingFor: "/toneshaper/ok", timeout: 3) != nil)

            // --save: on SIGTERM the final state goes into the library.
            #expect(await node.stop() == 0)
            let final = try String(contentsOf: library.appendingPathComponent("final-state.toneshaper"), encoding: .utf8)
            #expect(final.contains("\"amplitude\" : 0.3"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: library.path).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
        }
    }
}
