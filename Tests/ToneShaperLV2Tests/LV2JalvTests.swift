import Foundation
import Testing
import ToneShaperCore
import ToneShaperTestSupport

/// The plugin in jalv, a real LV2 host, on a private dummy JACK server; MIDI from
/// jack_midiseq, recorded with jack_capture.
@Suite(.serialized) struct LV2JalvTests {
    static var available: Bool { PrivateJack.available && LV2Tools.have("jalv", "jack_midiseq") }

    /// Starts jalv with `controls` (SYMBOL=VALUE) under a client name of its own; returns
    /// the name once its ports are up.
    static func startJalv(_ jack: PrivateJack, uri: String = LV2Tools.monoURI, controls: [String], output: URL? = nil) throws -> (
        name: String, input: FileHandle
    ) {
        try LV2Tools.prepare()
        let name = "ts-\(jack.name)"
        let (_, input) = try jack.start(
            "stdbuf", ["-o0", "-e0", "jalv", "-x", "-n", name] + controls.flatMap { ["-c", $0] } + [uri], environment: LV2Tools.lv2Path,
            output: output)
        let last = "\(name):\(uri == LV2Tools.monoURI ? "out" : "out_right")"
        guard jack.waitFor({ ((try? jack.ports()) ?? nil)?.contains(last) == true }, seconds: 20) else {
            throw LV2TestError("jalv did not register \(last); ports: \(String(describing: try? jack.ports()))")
        }
        return (name, input)
    }

    /// jalv loads both plugins, registers their ports, and plays finite samples.
    @Test(.enabled(if: available), arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func jalvLoadsThePlugin(uri: String) throws {
        let jack = try PrivateJack()
        defer { jack.stop() }
        let (name, _) = try Self.startJalv(jack, uri: uri, controls: ["amplitude=0.3"])
        let ports = try jack.ports() ?? []
        let outputs = uri == LV2Tools.monoURI ? ["\(name):out"] : ["\(name):out_left", "\(name):out_right"]
        for port in outputs + ["\(name):control"] { #expect(ports.contains(port), "\(port) missing from \(ports)") }
        let samples = try jack.record(outputs[0], seconds: 0.5)
        #expect(samples.count > 10_000)
        #expect(SignalAnalysis.allFinite(samples) && SignalAnalysis.peak(samples) <= 1)
    }

    /// A preset chosen in jalv sets every control to the document's values, and its state
    /// (the document as an atom:String) reaches the plugin's restore, which the shell checks.
    @Test(.enabled(if: available && LV2Tools.have("stdbuf")))
    func presetsApplyInJalv() throws {
        let jack = try PrivateJack()
        defer { jack.stop() }
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("jalv.log")
        let (_, input) = try Self.startJalv(jack, controls: [], output: log)
        let drone = try #require(try LV2DescriptionTests.builtInDocuments().first { $0.name == "drone" })
        let values = LV2Description.portValues(of: drone.shape)
        // jalv loads the presets' data when asked for the list.
        input.write(Data("presets\npreset urn:toneshaper:preset:drone\n".utf8))
        let expected = LV2Description.controlPorts.map { "\($0.symbol) = " + String(format: "%f", values[$0.row]) }
        let applied = jack.waitFor(
            {
                input.write(Data("controls\n".utf8))
                usleep(200_000)
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return expected.allSatisfy { text.contains($0) }
            }, seconds: 15)
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(applied, "jalv did not apply the drone preset's values; missing: \(expected.filter { !text.contains($0) })\n\(text.suffix(3000))")
        #expect(!text.contains("the state holds no document") || text.components(separatedBy: "the state holds no document").count == 2)
        #expect(!text.contains("is not an atom:String") && !text.contains("does not end with its NUL"), "\(text.suffix(2000))")
    }

    /// Note 81 on a constant 300 Hz shape with root 69 plays 600 Hz within 0.1 Hz; silent
    /// before and after the note in instrument mode; an amplitude change is heard.
    @Test(.enabled(if: available))
    func note81On300HzPlays600Hz() async throws {
        let jack = try PrivateJack()
        defer { jack.stop() }
        // The default shape's range set to 300...300 remaps every point to 300 Hz.
        let (name, input) = try Self.startJalv(
            jack, controls: ["min_frequency=300", "max_frequency=300", "instrument=1", "root_note=69", "scale=0", "amplitude=0.5"])
        // A 2 s loop: note 81 from 0.5 s to 1.5 s.
        try jack.start("jack_midiseq", ["lv2seq", "96000", "24000", "81", "48000"])
        guard jack.waitFor({ ((try? jack.ports()) ?? nil)?.contains("lv2seq:out") == true }, seconds: 10) else {
            throw LV2TestError("jack_midiseq did not come up")
        }
        try jack.connect("lv2seq:out", "\(name):control")
        let block = 480
        // The dummy driver may lose a period now and then: the pitch is measured over the
        // longest clean stretch of the note (RecordingAnalysis), and a take with none long
        // enough is made again, saying so.
        let before = try await retryingOnBusyHost("jalv: note 81 on 300 Hz") { _ in
            let samples = try jack.record("\(name):out", seconds: 4.5)
            // Where the notes sound: runs of blocks with level, between silent stretches.
            let loud = stride(from: 0, to: samples.count - block, by: block).map { SignalAnalysis.rms(samples, range: $0..<$0 + block) > 0.01 }
            guard let start = loud.firstIndex(of: true), let end = loud[start...].firstIndex(of: false) else {
                throw LV2TestError("no note in the recording")
            }
            let sounding = (start + 2) * block..<(end - 2) * block
            #expect(sounding.count > 30_000, "the note sounded for \(sounding.count) samples")
            let frequency = try RecordingAnalysis(samples, sampleRate: Double(jack.rate), range: sounding).frequency(atLeast: 16_384)
            #expect(abs(frequency - 600) < 0.1, "note 81 played \(frequency) Hz")
            let after = (end + 4) * block..<min((end + 40) * block, samples.count)
            #expect(SignalAnalysis.peak(samples, range: after) < 1e-4, "sound after the note-off")
            #expect(start > 0 && SignalAnalysis.peak(samples, range: 0..<max(start - 1, 0) * block) < 1e-4 || start == 0)
            return SignalAnalysis.rms(samples, range: sounding)
        }

        // A control port change is heard: amplitude 0.5 -> 0.1 through jalv's console.
        input.write(Data("amplitude = 0.1\n".utf8))
        usleep(300_000)
        let quieter = try jack.record("\(name):out", seconds: 4.5)
        let quietLoud = stride(from: 0, to: quieter.count - block, by: block).filter { SignalAnalysis.rms(quieter, range: $0..<$0 + block) > 0.002 }
        let level = quietLoud.isEmpty ? 0 : quietLoud.dropFirst(2).dropLast(2).map { SignalAnalysis.rms(quieter, range: $0..<$0 + block) }.max() ?? 0
        #expect(level > 0 && abs(level / before - 0.2) < 0.05, "amplitude 0.1 gave rms \(level) against \(before)")
    }
}
