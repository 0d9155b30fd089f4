import Foundation
import Testing
import ToneShaperControl
import ToneShaperParameters
import ToneShaperTestSupport

/// The CLAP plugin in the project's own CLAP host (Tests/CLAPHost/claphost.c), against the
/// LV2 plugin in its host and the node's offline renderer.
@Suite struct CLAPHostTests {
    /// Parameter ids (the table's stable numbers).
    enum ID {
        static let scale = "3"
        static let amplitude = "6"
        static let tune = "19"
        static let instrument = "11"
        static let transport = "17"
    }

    /// A voice per note, scale None (a steady level), set before activation (as a project opens).
    static let instrumentMode = ["--flush", "\(ID.instrument)=1", "--flush", "\(ID.scale)=0"]

    @Test(arguments: [CLAPTools.monoID, CLAPTools.stereoID])
    func bothPluginsLoadDescribeTheirParametersAndRunClean(id: String) throws {
        let (result, samples) = try CLAPTools.play(id, ["--describe"])
        #expect(result.status == 0, "\(result.output)")
        #expect(samples.count == 4_800 && SignalAnalysis.allFinite(samples))
        #expect(result.number("params") == Double(ParameterTable.all.count), "\(result.stdout)")
        // value_to_text and text_to_value read each other back, for every parameter.
        #expect(result.number("text_mismatches") == 0, "\(result.stdout)")
        #expect(result.stdout.contains("param: 2 \"Wave\" 0..6 default 0 value 0 flags 0x18021 \"Sine\" \"Square\""), "\(result.stdout)")
        #expect(result.number("log_messages") == 0, "a clean run logged: \(result.stderr)")
        #expect(result.number("stereo_differ") == 0)
        let stereo = id == CLAPTools.stereoID
        #expect(result.number("latency") == 0, "\(result.stdout)")
        #expect(result.report["note_port"] == "Notes dialects 0x3 preferred 0x1", "CLAP and MIDI dialects: \(result.stdout)")
        #expect(result.report["audio_port"] == (stereo ? "Output 2 stereo main 1" : "Output 1 mono main 1"), "\(result.stdout)")
        let features = "instrument synthesizer \(stereo ? "stereo" : "mono")"
        #expect(result.report["descriptor"]?.hasSuffix("features \(features)") == true, "\(result.stdout)")
    }

    /// Instrument mode: a note at frame 64 is silent before it and sounds from it.
    @Test(arguments: [CLAPTools.monoID, CLAPTools.stereoID])
    func aNoteAtFrame64SoundsFromIt(id: String) throws {
        for note in ["--note", "--midi-note"] {
            let (result, samples) = try CLAPTools.play(id, Self.instrumentMode + [note, "64:69:100:4000"])
            #expect(result.status == 0, "\(result.output)")
            #expect(SignalAnalysis.peak(samples, range: 0..<64) == 0, "\(note): sound before the note")
            #expect(result.number("first_nonzero").map { (64...65).contains($0) } == true, "\(note): \(result.stdout)")
            #expect(result.number("first_sound").map { (64...(64 + 96 + 16)).contains($0) } == true, "\(note): \(result.stdout)")
            #expect(SignalAnalysis.rms(samples, range: 100..<4000) > 0.01)
        }
    }

    /// The same notes through the CLAP plugin and the LV2 plugin give the same samples, bit
    /// for bit (one engine, the same calls at the same frames, plans given before the next
    /// block in both); without notes, the drone is the node's offline render's.
    @Test func theSameNotesSoundTheSameInCLAPLV2AndTheNode() throws {
        let notes = [("64:69:100:3000", "64:69:100:3000"), ("700:76:90:4200", "700:76:90:4200"), ("1500:81:60", "1500:81:60")]
        let clapNotes = notes.flatMap { ["--note", $0.0] }
        let lv2Notes = notes.flatMap { ["--note", $0.1] }
        let (clap, a) = try CLAPTools.play(CLAPTools.monoID, Self.instrumentMode + clapNotes)
        let (lv2, b) = try CLAPTools.playLV2(["--set", "instrument=1@0", "--set", "scale=0@0"] + lv2Notes)
        #expect(clap.status == 0 && lv2.status == 0, "\(clap.output)\n\(lv2.output)")
        #expect(a.count == b.count && a == b, "CLAP and LV2 differ: \(zip(a, b).map { abs($0 - $1) }.max() ?? -1)")
        #expect(SignalAnalysis.rms(a, range: 800..<3000) > 0.01)
        // Drone mode, no notes: the default shape as the node renders it offline.
        let (_, drone) = try CLAPTools.play(CLAPTools.monoID, [])
        let (_, lv2Drone) = try CLAPTools.playLV2([])
        let node = OfflineRenderer.render(.defaultShape, sampleRate: 48_000, frames: 4_800)
        #expect(drone == lv2Drone, "CLAP and LV2 drones differ")
        let difference = zip(drone, node).map { abs($0 - $1) }.max() ?? 1
        // The node renders in blocks of 8192, the plugins in 256: the same arithmetic, so
        // the samples agree to float rounding.
        #expect(drone.count == node.count && difference <= 1e-6, "CLAP differs from the node's offline render by \(difference)")
    }

    /// State: a preset loaded and parameters set (flush, before activation) are saved; a new
    /// instance that loads the state plays the same samples.
    @Test func stateRoundTripGivesTheSameSamples() throws {
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.toneshaper")
        let script = ["--note", "64:69:100:4000"]
        let (saved, original) = try CLAPTools.play(
            CLAPTools.monoID,
            ["--preset-builtin", "siren", "--flush", "\(ID.amplitude)=0.5", "--flush", "\(ID.tune)=30", "--save-state", state.path] + script)
        #expect(saved.status == 0 && saved.number("preset_loaded") == 1, "\(saved.output)")
        let text = try String(contentsOf: state, encoding: .utf8)
        #expect(text.contains("\"siren\"") && text.contains("\"amplitude\" : 0.5") && text.contains("\"tune\" : 30"), "\(text)")
        let (first, a) = try CLAPTools.play(CLAPTools.monoID, ["--load-state", state.path] + script)
        let (second, b) = try CLAPTools.play(CLAPTools.monoID, ["--load-state", state.path, "--save-state", state.path + ".2"] + script)
        let (_, plain) = try CLAPTools.play(CLAPTools.monoID, script)
        #expect(first.status == 0 && second.status == 0 && first.number("state_loaded") == 1, "\(first.output)")
        let same = a == b
        let restored = a != plain
        #expect(same, "two instances loaded from one state play different samples")
        #expect(restored, "the loaded state sounds like the default document")
        // Against the instance that saved it: the same to float rounding (it reached the
        // values in two steps, the preset's then the parameters', where the loaded one
        // reaches them in one, so a ramp's arithmetic differs in the last bit).
        let difference = zip(a, original).map { abs($0 - $1) }.max() ?? 1
        #expect(a.count == original.count && difference <= 1e-6, "the loaded state differs from the saved instance by \(difference)")
        // Saved again, the document is the same bytes; the host was told to rescan the values.
        #expect(try Data(contentsOf: state) == Data(contentsOf: URL(fileURLWithPath: state.path + ".2")))
        #expect(first.number("rescans") == 1, "\(first.stdout)")
        // The loaded parameters read back through params.get_value.
        let (described, _) = try CLAPTools.play(CLAPTools.monoID, ["--load-state", state.path, "--describe"])
        #expect(described.stdout.contains("param: 6 \"Amplitude\" 0..1 default 0.25 value 0.5"), "\(described.stdout)")
    }

    /// Hostile events: each is refused (and logged), and the output is what the same run
    /// without it gives; hostile states and presets are refused (logged), the sound a new
    /// instance's.
    @Test(arguments: [CLAPTools.monoID, CLAPTools.stereoID])
    func hostileInputIsRefusedLoggedAndChangesNothing(id: String) throws {
        let (_, baseline) = try CLAPTools.play(id, [])
        let events = [
            "past-block", "out-of-order", "unknown-type", "too-short", "unknown-param", "nan-param", "inf-param", "range-param", "range-stepped",
            "nan-mod", "mod-not-modulatable", "midi-data-high", "note-bad-key", "note-bad-velocity", "expression-nan", "expression-range",
        ]
        for kind in events {
            let (result, samples) = try CLAPTools.play(id, ["--hostile", "\(kind)@300"])
            #expect(result.status == 0 && !result.signalled, "\(kind): \(result.output)")
            let unchanged = samples == baseline
            #expect(unchanged, "\(kind): the output differs from the run without it")
            #expect((1...3).contains(result.number("log_messages") ?? 0), "\(kind) was not logged once: \(result.output)")
        }
        for state in ["empty", "foreign", "truncated", "out-of-range"] {
            let (result, samples) = try CLAPTools.play(id, ["--hostile-state", state])
            let unchanged = samples == baseline
            #expect(result.status == 0 && result.number("state_loaded") == 0 && unchanged, "state \(state): \(result.output)")
            #expect((result.number("log_errors") ?? 0) >= 1, "state \(state) was not logged: \(result.output)")
        }
        for preset in [["--preset-file", "/nonexistent/x.toneshaper"], ["--preset-builtin", "no-such-shape"], ["--preset-file", "Package.swift"]] {
            let (result, samples) = try CLAPTools.play(id, preset)
            let unchanged = samples == baseline
            #expect(result.status == 0 && result.number("preset_loaded") == 0 && unchanged, "\(preset): \(result.output)")
            #expect((result.number("log_errors") ?? 0) >= 1, "\(preset) was not logged: \(result.output)")
        }
        // The same bad event in every block: one line a second, with the count.
        let everyBlock = stride(from: 0, to: 4_800, by: 256).flatMap { ["--hostile", "unknown-param@\($0)"] }
        let (repeated, _) = try CLAPTools.play(id, everyBlock)
        #expect(repeated.number("log_messages") == 2 && repeated.stderr.contains("(18 times)"), "\(repeated.stderr)")
        // Random events never crash it.
        for seed in 1...10 {
            let random = stride(from: 0, to: 4_800, by: 256).flatMap { ["--hostile", "random:\(seed)@\($0)"] }
            let (result, samples) = try CLAPTools.play(id, random)
            #expect(result.status == 0 && !result.signalled && SignalAnalysis.allFinite(samples), "seed \(seed): \(result.output)")
        }
    }

    /// Two instances in one process, and two copies of the file: the same samples.
    @Test func twoInstancesAndTwoCopiesInOneProcess() throws {
        try CLAPTools.prepare()
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("copy.clap")
        try FileManager.default.copyItem(at: CLAPTools.plugin, to: copy)
        let script = Self.instrumentMode + ["--note", "64:81:100:3000", "--param", "\(ID.amplitude)=0.5@1000", "--param", "2=3@1500"]
        let (two, _) = try CLAPTools.play(CLAPTools.stereoID, ["--instances", "2"] + script)
        #expect(two.status == 0 && two.number("instances_differ") == 0, "\(two.output)")
        let (copies, _) = try CLAPTools.play(CLAPTools.stereoID, ["--second-clap", copy.path] + script)
        #expect(copies.status == 0 && copies.number("instances_differ") == 0, "\(copies.output)")
    }

    /// Parameters are sample-accurate; modulation is added to the value, and not saved.
    @Test func parameterEventsAndModulationAreHeardAtTheirFrames() throws {
        let (_, loud) = try CLAPTools.play(CLAPTools.monoID, ["--param", "\(ID.scale)=0@0"])
        let (_, changed) = try CLAPTools.play(CLAPTools.monoID, ["--param", "\(ID.scale)=0@0", "--param", "\(ID.amplitude)=0.125@2000"])
        #expect(loud[0..<2000] == changed[0..<2000], "a change at frame 2000 was heard before it")
        let ratio = SignalAnalysis.rms(changed, range: 2600..<4800) / SignalAnalysis.rms(loud, range: 2600..<4800)
        #expect(abs(ratio - 0.5) < 0.02, "amplitude 0.125 against 0.25: \(ratio)")
        let (_, modulated) = try CLAPTools.play(CLAPTools.monoID, ["--param", "\(ID.scale)=0@0", "--mod", "\(ID.amplitude)=-0.125@2000"])
        let modRatio = SignalAnalysis.rms(modulated, range: 2600..<4800) / SignalAnalysis.rms(loud, range: 2600..<4800)
        #expect(abs(modRatio - 0.5) < 0.02, "modulation -0.125 of 0.25: \(modRatio)")
        // Modulation is not the project's: the state keeps the value the host set.
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.toneshaper")
        _ = try CLAPTools.play(
            CLAPTools.monoID, ["--param", "\(ID.amplitude)=0.5@100", "--mod", "\(ID.amplitude)=-0.125@2000", "--save-state", state.path])
        let text = try String(contentsOf: state, encoding: .utf8)
        #expect(text.contains("\"amplitude\" : 0.5,"), "\(text)")
    }

    /// The state carries every parameter, not only the curve: a host that restores a plugin
    /// through its state alone (Qtractor keeps nothing else of a CLAP plugin) gets each value
    /// back. Every parameter is set away from its default, the state saved, and a new
    /// instance that loads it reports each value as set.
    @Test func theStateCarriesEveryParameter() throws {
        let values: [(id: Int, value: Double)] = [
            (0, 250), (1, 700), (2, 3), (3, 4), (7, 3), (4, 0.5), (5, 0.5), (6, 0.3), (8, 100), (9, 5), (10, 0), (11, 1), (12, 60), (13, 7),
            (14, 4), (15, 200), (16, 1), (17, 1), (18, 8), (19, 25),
        ]
        #expect(Set(values.map(\.id)) == Set(0..<20), "every parameter of the 20")
        // Each away from the default the plugin describes ("param: ID \"Name\" LOW..HIGH default VALUE …").
        let (described, _) = try CLAPTools.play(CLAPTools.monoID, ["--describe"])
        var defaults: [Int: Double] = [:]
        for line in described.stdout.split(separator: "\n") where line.hasPrefix("param: ") {
            let words = line.split(separator: " ")
            if let id = Int(words[1]), let at = words.firstIndex(of: "default"), let value = Double(words[at + 1]) { defaults[id] = value }
        }
        for (id, value) in values {
            #expect(defaults[id] != nil && defaults[id] != value, "parameter \(id): \(value), default \(String(describing: defaults[id]))")
        }
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.toneshaper")
        let (saved, _) = try CLAPTools.play(
            CLAPTools.monoID, values.flatMap { ["--param", "\($0.id)=\($0.value)@0"] } + ["--save-state", state.path])
        #expect(saved.status == 0 && saved.number("log_errors") == 0, "\(saved.output)")
        let (loaded, _) = try CLAPTools.play(CLAPTools.monoID, ["--load-state", state.path] + values.flatMap { ["--report-value", "\($0.id)"] })
        #expect(loaded.status == 0 && loaded.number("log_errors") == 0, "\(loaded.output)")
        for (id, value) in values {
            #expect(
                loaded.number("value_\(id)") == value, "parameter \(id) came back as \(loaded.report["value_\(id)"] ?? "nothing"), set to \(value)")
        }
    }

    /// A MIDI program change plays a built-in shape (program 7: the siren, 500...1500 Hz);
    /// the plugin asks for the main-thread callback, in which the parameters take the new
    /// document's values and the host is told to rescan them.
    @Test func aProgramChangeReachesTheParametersThroughTheMainThreadCallback() throws {
        let (result, samples) = try CLAPTools.play(CLAPTools.monoID, ["--program", "7@300", "--report-value", "0", "--report-value", "1"])
        let (_, plain) = try CLAPTools.play(CLAPTools.monoID, [])
        #expect(result.status == 0 && result.number("log_messages") == 0, "\(result.output)")
        #expect(result.number("main_callbacks") == 1 && result.number("rescans") == 1, "\(result.stdout)")
        #expect(result.number("value_0") == 500 && result.number("value_1") == 1500, "\(result.stdout)")
        #expect(samples[0..<300] == plain[0..<300] && samples != plain, "the program change was not heard from its block on")
    }

    /// With Transport on, the plugin follows the host's transport: silent while stopped.
    @Test func itFollowsTheHostsTransport() throws {
        let follow = ["--param", "\(ID.scale)=0@0", "--param", "\(ID.transport)=1@0"]
        let (stopped, quiet) = try CLAPTools.play(CLAPTools.monoID, follow + ["--process-transport", "0:120"], frames: 9_600)
        let (rolling, playing) = try CLAPTools.play(CLAPTools.monoID, follow + ["--process-transport", "1:120"], frames: 9_600)
        #expect(stopped.status == 0 && rolling.status == 0, "\(stopped.output)\n\(rolling.output)")
        #expect(SignalAnalysis.rms(quiet, range: 4800..<9600) < 1e-4, "sound while the transport is stopped")
        #expect(SignalAnalysis.rms(playing, range: 4800..<9600) > 0.01, "silent while the transport rolls")
    }
}
