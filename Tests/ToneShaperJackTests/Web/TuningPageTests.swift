import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer.MIDIInput {
    /// The editor page's tuning panel in headless Chromium: a 19-EDO .scl chosen in its file
    /// input is read by the page and sent over the WebSocket; the page then shows the name
    /// the node reports, and a MIDI note root + 12 plays 2^(12/19) of the drawn 440 Hz.
    @Test(
        .enabled(if: WithJackServer.WebEditor.haveBrowser, "needs chromium, chromedriver and python3 with selenium (Scripts/setup.sh installs them)"))
    func theEditorLoadsAScaleTheNodePlays() async throws {
        try await Self.withRig(["--http-port", "0"]) { rig in
            let url = try #require(rig.node.editorURL)
            let scale = rig.fixture.scratch.url.appendingPathComponent("19-edo.scl")
            try TuningFixture.nineteenEDO.write(to: scale, atomically: true, encoding: .utf8)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Browser/tuning_test.py").standardized.path
            let result = try ExternalTools.run("python3", [script, url, scale.path, "19 equal divisions of the octave"], timeout: 180)
            let last = result.output.split(separator: "\n").last.map(String.init) ?? ""
            #expect(result.status == 0, "\(last)")
            print("tuning page: \(last)")

            let take = try await rig.take([(0.5, [[0x90, 81, 100]])], tail: 2.0)
            let measured = try take.pitch(in: take.window(after: take.sent[0], from: 0.9, length: 1.0))
            let expected = TuningFixture.nineteenEDOPitch(key: 81)
            let error = TuningFixture.cents(measured, from: expected)
            print("tuning page: key 81 plays \(measured) Hz, 19-EDO \(expected) Hz, \(error) cents")
            #expect(abs(error) < 0.5, "\(measured) Hz, expected \(expected) Hz; \(take.recording.keep(named: "tuning-page"))")
        }
    }
}
