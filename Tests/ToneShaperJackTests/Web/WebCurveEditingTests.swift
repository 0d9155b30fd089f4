import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer.WebEditor {
    /// Issue 43 in the page, in headless Chromium (Tests/Browser/curve_editing_test.py): a
    /// curvature handle dragged, a selection stretched, copy and paste, the shape library,
    /// a point typed as a note. Then what the node renders and plays: the bent segment's
    /// middle where the page drew it, and A4+12 at 443.06 Hz.
    @Test(.enabled(if: haveBrowser, "needs chromium, chromedriver and python3 with selenium (Scripts/setup.sh installs them)"))
    func curveEditingInThePagePlaysAsDrawn() async throws {
        let server = try PrivateJackServer()
        let scratch = try ScratchDirectory()
        let (node, _) = try await Self.startSiren(server, library: scratch.url)
        let url = try #require(node.editorURL)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Browser/curve_editing_test.py").standardized.path
        let export = scratch.url.appendingPathComponent("bent.wav")
        let result = try ExternalTools.run("python3", [script, url, "--export", export.path], timeout: 180)
        let last = result.output.split(separator: "\n").last.map(String.init) ?? ""
        try #require(result.status == 0, "\(last)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])

        // The segment 600 -> 1400 Hz over 4 s, its handle dragged to 800 Hz: straight, its
        // middle would play 1000 Hz; bent, it plays what the page drew there.
        let drawn = try #require((report["curvature"] as? [String: Any])?["drawnMiddleHz"] as? Double)
        let wave = try WaveFile(contentsOf: export)
        let middle = Int(2 * wave.sampleRate)
        let window = Int(0.02 * wave.sampleRate)
        let played = try #require(
            SignalAnalysis.zeroCrossingFrequency(wave.channel(0), sampleRate: wave.sampleRate, range: (middle - window)..<(middle + window)))
        #expect(abs(played - drawn) < 3, "the middle plays \(played) Hz where the page drew \(drawn) Hz")
        #expect(abs(played - 800) < 15, "the handle was left at 800 Hz; the middle plays \(played) Hz")

        // The library: saved, then renamed (the old file gone).
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("renamed.toneshaper").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("bent-copy.toneshaper").path))

        // The last edit typed A4+12: the node plays 443.06 Hz.
        let recording = try await server.recordSteady(node.ports[0], seconds: 1, minimumClean: 9_600, into: scratch.url)
        let frequency = try recording.frequency(atLeast: 9_600)
        #expect(abs(frequency - 440 * pow(2, 12.0 / 1200)) < 0.5, "A4+12 plays \(frequency) Hz")
        #expect(await node.stop() == 0)
    }
}
