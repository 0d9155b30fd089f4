import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

/// The VST3 plugin in Ardour 7 (Debian's, which hosts VST3; headless: `ardour7-lua`) on a
/// private JACK server, as the LV2 plugin is (``ArdourSession/roundTrip(jack:directory:format:pluginName:environment:)``):
/// indexed by Ardour's own VST3 scanner in `$HOME/.vst3` of a home of the test's own, a MIDI track playing it, its parameters
/// set by their titles, a note at its pitch, the session saved (Ardour keeps the plugin's
/// state), opened again by a new Ardour with the same values, pitch and level.
extension WithJackServer {
    @Suite struct VST3ArdourTests {
        @Test(.enabled(if: ArdourSession.available))
        func ardourPlaysSavesAndReopensThePlugin() async throws {
            try VST3Tools.prepare()
            let jack = try PrivateJackServer(prefix: "vst3ardour", period: 256)
            defer { jack.stop() }
            let directory = try VST3Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            try ArdourSession.scanVST3(bundle: VST3Tools.bundle, home: directory)
            let trip = try await ArdourSession.roundTrip(jack: jack, directory: directory, format: .vst3, pluginName: "ToneShaper")
            #expect(trip.shown == "ToneShaper")
            #expect(abs(trip.before.frequency - 600) < 0.1, "note 81 played \(trip.before.frequency) Hz in Ardour")
            #expect(trip.before.peak <= 1 && trip.before.rms > 0.01, "level \(trip.before.rms), peak \(trip.before.peak)")
            for (label, value) in ArdourSession.roundTripValues {
                #expect(trip.valuesReopened[label] == value, "\(label) after the session was opened again")
            }
            #expect(abs(trip.after.frequency - 600) < 0.1, "note 81 played \(trip.after.frequency) Hz in the reopened session")
            #expect(abs(trip.after.rms / trip.before.rms - 1) < 0.02, "level \(trip.after.rms) reopened against \(trip.before.rms)")
            print(
                String(
                    format: "Ardour VST3: %.3f Hz, rms %.5f; reopened: %.3f Hz, rms %.5f", trip.before.frequency, trip.before.rms,
                    trip.after.frequency, trip.after.rms))
        }
    }
}
