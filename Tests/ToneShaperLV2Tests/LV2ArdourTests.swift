import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

/// The plugin in Ardour 7 (Debian's, headless: `ardour7-lua`) on a private JACK server: a
/// session with a MIDI track playing it, parameters set by their labels, a note at its pitch,
/// the session saved, closed and opened again by a new Ardour, and the same note at the same
/// pitch and level from the state Ardour kept (``ArdourSession/roundTrip(jack:directory:format:pluginName:environment:)``).
extension WithJackServer {
    @Suite struct LV2ArdourTests {
        @Test(.enabled(if: ArdourSession.available))
        func ardourPlaysSavesAndReopensThePlugin() async throws {
            try LV2Tools.prepare()
            let jack = try PrivateJackServer(prefix: "lv2ardour", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let trip = try await ArdourSession.roundTrip(
                jack: jack, directory: directory, format: .lv2, pluginName: "ToneShaper", environment: LV2Tools.lv2Path)
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
                    format: "Ardour LV2: %.3f Hz, rms %.5f; reopened: %.3f Hz, rms %.5f", trip.before.frequency, trip.before.rms,
                    trip.after.frequency, trip.after.rms))
        }
    }
}
