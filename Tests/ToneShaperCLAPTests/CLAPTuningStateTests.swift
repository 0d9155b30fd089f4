import Foundation
import Testing
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// The tuning in the CLAP and LV2 plugins: a document carrying a 19-EDO scale, loaded as
/// the state, plays key root + 12 at 2^(12/19) of the root's pitch and is saved back byte
/// for byte; LV2's tuning file parameters (patch:Set of an atom:Path, read by the worker)
/// retune the keys, and the state then carries the files' texts, not their paths.
@Suite("Plugin tuning: CLAP and LV2")
struct CLAPTuningStateTests {
    static let frames = 24_000

    /// A steady 440 Hz shape in instrument mode (root 69), tuned by `tuning`.
    static func document(_ tuning: Tuning?) -> [UInt8] {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 440)], duration: 1, minFrequency: 20, maxFrequency: 2000, scale: .none, echoVolume: 0,
            amplitude: 0.5)
        shape.performance.instrument = true
        shape.performance.voices = 8
        shape.tuning = tuning
        return ToneShapeDocument.encode(shape)
    }

    /// The key's pitch error in cents under 19-EDO; nil when it is silent.
    static func error(_ label: String, _ samples: [Float], key: Int) -> Double? {
        TuningFixture.pitchError(label, samples, expected: TuningFixture.nineteenEDOPitch(key: key))
    }

    @Test func aCLAPStateWithA19EDOTuningPlaysItAndIsSavedBackTheSame() throws {
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = Self.document(try Tuning(scale: TuningFixture.nineteenEDO))
        let state = directory.appendingPathComponent("state.toneshaper")
        let saved = directory.appendingPathComponent("saved.toneshaper")
        try Data(document).write(to: state)
        for key in [69, 81, 76] {
            let (result, samples) = try CLAPTools.play(
                CLAPTools.monoID, ["--load-state", state.path, "--note", "0:\(key):100", "--save-state", saved.path], frames: Self.frames)
            #expect(result.status == 0 && result.number("state_loaded") == 1, "\(result.output)")
            let error = try #require(Self.error("CLAP state, key \(key)", samples, key: key), "key \(key) is silent")
            #expect(abs(error) < 0.5, "key \(key): \(error) cents from 19-EDO")
            #expect(try Array(Data(contentsOf: saved)) == document, "the saved state differs from the loaded one")
        }
    }

    /// LV2's state file as the test host reads and writes it: "KEY TYPE FLAGS SIZE\n", the
    /// document and its NUL, "\n".
    static func lv2StateFile(_ document: [UInt8]) -> Data {
        Data(Array("urn:toneshaper:document http://lv2plug.in/ns/ext/atom#String 3 \(document.count + 1)\n".utf8) + document + [0, 0x0A])
    }

    /// The document of such a file: the SIZE bytes after the header line, short of the NUL.
    static func lv2Document(_ url: URL) throws -> [UInt8] {
        let data = Array(try Data(contentsOf: url))
        let newline = try #require(data.firstIndex(of: 0x0A))
        let size = try #require(String(decoding: data[..<newline], as: UTF8.self).split(separator: " ").last.flatMap { Int($0) })
        try #require(size >= 1 && newline + size < data.count)
        return Array(data[(newline + 1)..<(newline + size)])
    }

    @Test func anLV2StateWithA19EDOTuningPlaysItAndIsSavedBackTheSame() throws {
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = Self.document(try Tuning(scale: TuningFixture.nineteenEDO))
        let state = directory.appendingPathComponent("state")
        let saved = directory.appendingPathComponent("saved")
        try Self.lv2StateFile(document).write(to: state)
        let (result, samples) = try CLAPTools.playLV2(
            ["--restore-state", state.path, "--note", "0:81:100", "--save-state", saved.path], frames: Self.frames)
        #expect(result.status == 0 && result.number("log_errors") == 0, "\(result.output)")
        let error = try #require(Self.error("LV2 state, key 81", samples, key: 81), "key 81 is silent")
        #expect(abs(error) < 0.5, "\(error) cents from 19-EDO")
        #expect(try Self.lv2Document(saved) == document, "the saved state differs from the restored one")
    }

    /// patch:Set of the scale file, then of the keyboard map file: key 81 plays 19-EDO's
    /// 2^(12/19), then (twelve keys, formal octave degree 19) an octave (a note takes the
    /// tuning there is when it starts: this one starts once the three plans are in); the state keeps
    /// both texts and no path. A scale that does not read is logged and changes nothing.
    @Test func lv2TuningFileParametersRetuneAndTheStateKeepsTheTexts() throws {
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let steady = directory.appendingPathComponent("steady.toneshaper")
        try Data(Self.document(nil)).write(to: steady)
        let scale = directory.appendingPathComponent("19-edo.scl")
        let map = directory.appendingPathComponent("twelve.kbm")
        let bad = directory.appendingPathComponent("bad.scl")
        try TuningFixture.nineteenEDO.write(to: scale, atomically: true, encoding: .utf8)
        try TuningFixture.twelveKeyMap.write(to: map, atomically: true, encoding: .utf8)
        try "bad\n2\n0/1\n2/1\n".write(to: bad, atomically: true, encoding: .utf8)
        let saved = directory.appendingPathComponent("saved")
        let load = ["--load-file", "\(steady.path)@0", "--load-scale", "\(scale.path)@0"]

        let (scaled, a) = try CLAPTools.playLV2(load + ["--note", "512:81:100", "--save-state", saved.path], frames: Self.frames)
        #expect(scaled.status == 0 && scaled.number("log_errors") == 0, "\(scaled.output)")
        #expect(abs(try #require(Self.error("LV2 scale file, key 81", a, key: 81))) < 0.5)
        let text = String(decoding: try Self.lv2Document(saved), as: UTF8.self)
        #expect(text.contains("19 equal divisions of the octave") && !text.contains(scale.path), "\(text)")

        let (mapped, b) = try CLAPTools.playLV2(
            load + ["--load-map", "\(map.path)@0", "--note", "4096:81:100", "--save-state", saved.path], frames: Self.frames)
        #expect(mapped.status == 0 && mapped.number("log_errors") == 0, "\(mapped.output)")
        #expect(abs(try #require(TuningFixture.pitchError("LV2 scale and map files, key 81", b, expected: 880))) < 0.5)
        let restored = try ToneShapeDocument.decode(try Self.lv2Document(saved), source: "saved")
        #expect(restored.tuning == (try Tuning(scale: TuningFixture.nineteenEDO, keyboardMap: TuningFixture.twelveKeyMap)))

        // The bad scale is refused (logged); the 19-EDO one before it stays.
        let (refused, c) = try CLAPTools.playLV2(load + ["--load-scale", "\(bad.path)@256", "--note", "512:81:100"], frames: Self.frames)
        #expect(refused.status == 0 && (refused.number("log_errors") ?? 0) >= 1, "\(refused.output)")
        #expect(refused.output.contains("line 3"), "\(refused.output)")
        #expect(abs(try #require(Self.error("LV2 after a refused scale, key 81", c, key: 81))) < 0.5)
    }
}
