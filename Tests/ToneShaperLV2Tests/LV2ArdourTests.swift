import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

/// The plugin in Ardour 7 (Debian's, headless: `ardour7-lua`) on a private JACK server: a
/// session with a MIDI track playing it, parameters set by their labels, a note at its pitch,
/// the session saved, closed and opened again by a new Ardour, and the same note at the same
/// pitch and level from the state Ardour kept.
extension WithJackServer {
    @Suite struct LV2ArdourTests {
        @Test(.enabled(if: ArdourSession.available))
        func ardourPlaysSavesAndReopensThePlugin() async throws {
            try LV2Tools.prepare()
            let jack = try PrivateJackServer(prefix: "lv2ardour", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let folder = directory.appendingPathComponent("session")
            // A constant 300 Hz shape (its range set to 300...300) with root 69: note 81 plays 600 Hz.
            let values: [(String, Double)] = [
                ("Instrument", 1), ("Root note", 69), ("Min frequency", 300), ("Max frequency", 300), ("Scale", 0), ("Amplitude", 0.5),
            ]
            let first = try ArdourSession(
                jack: jack, folder: folder, home: directory, create: true, format: .lv2, pluginName: "ToneShaper", values: values,
                environment: LV2Tools.lv2Path)
            #expect(first.pluginShown == "ToneShaper")
            let played = try await first.play(key: 81, jack: jack, name: "lv2ard1")
            #expect(abs(played.frequency - 600) < 0.1, "note 81 played \(played.frequency) Hz in Ardour")
            #expect(played.peak <= 1 && played.rms > 0.01, "level \(played.rms), peak \(played.peak)")
            try first.save()
            try first.quit()

            let second = try ArdourSession(
                jack: jack, folder: folder, home: directory, create: false, format: .lv2, pluginName: "ToneShaper", environment: LV2Tools.lv2Path)
            for (label, value) in values {
                #expect(try second.value(label) == value, "\(label) after the session was opened again")
            }
            let again = try await second.play(key: 81, jack: jack, name: "lv2ard2")
            #expect(abs(again.frequency - 600) < 0.1, "note 81 played \(again.frequency) Hz in the reopened session")
            #expect(abs(again.rms / played.rms - 1) < 0.02, "level \(again.rms) in the reopened session against \(played.rms)")
            print(
                String(format: "Ardour LV2: %.3f Hz, rms %.5f; reopened: %.3f Hz, rms %.5f", played.frequency, played.rms, again.frequency, again.rms)
            )
            try second.quit()
        }
    }
}
