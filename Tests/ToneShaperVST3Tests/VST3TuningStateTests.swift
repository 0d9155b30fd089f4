import Foundation
import Testing
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// The tuning in the VST3 plugin's state (the whole document): a document carrying a
/// 19-EDO scale, loaded as the state, plays key root + 12 at 2^(12/19) of the root's pitch
/// and is saved back byte for byte.
@Suite("Plugin tuning: VST3")
struct VST3TuningStateTests {
    @Test func aStateWithA19EDOTuningPlaysItAndIsSavedBackTheSame() throws {
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 440)], duration: 1, minFrequency: 20, maxFrequency: 2000, scale: .none, echoVolume: 0,
            amplitude: 0.5)
        shape.performance.instrument = true
        shape.tuning = try Tuning(scale: TuningFixture.nineteenEDO)
        let document = ToneShapeDocument.encode(shape)
        let state = directory.appendingPathComponent("state.toneshaper")
        let saved = directory.appendingPathComponent("saved.toneshaper")
        try Data(document).write(to: state)
        for key in [69, 81] {
            let (result, samples) = try VST3Tools.playMono(
                "mono", ["--load-state", state.path, "--note", "0:\(key):100:-1", "--save-state", saved.path], frames: 24_000)
            #expect(result.status == 0 && result.number("state_loaded") == 1, "\(result.output)")
            let error = try #require(
                TuningFixture.pitchError("VST3 state, key \(key)", samples, expected: TuningFixture.nineteenEDOPitch(key: key)),
                "key \(key) is silent")
            #expect(abs(error) < 0.5, "key \(key): \(error) cents from 19-EDO")
            #expect(try Array(Data(contentsOf: saved)) == document, "the saved state differs from the loaded one")
        }
    }
}
