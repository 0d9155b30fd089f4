import Foundation
import Testing
import ToneShaperParameters
import ToneShaperTestSupport

/// The VST3 plugin in the project's own VST3 host (Tests/VST3Host/vst3host.c, which declares
/// the ABI itself): the module's exports, the factory and its classes, hostile calls, state,
/// pitch, pitch bend through IMidiMapping, note expressions, programs, and the same notes
/// as the CLAP plugin plays them.
@Suite struct VST3HostTests {
    /// Parameter ids (the table's stable numbers, every format's ids).
    enum ID {
        static let minFrequency = "0"
        static let maxFrequency = "1"
        static let scale = "3"
        static let amplitude = "6"
        static let instrument = "11"
        static let tune = "19"
    }

    /// A voice per note, scale None (a steady level), at the first frame.
    static let instrumentMode = ["--param", "\(ID.instrument)=1@0", "--param", "\(ID.scale)=0@0"]
    /// Instrument mode on a flat 220 Hz shape: key 69 plays 220 Hz, each octave doubles it.
    static let flat220 = instrumentMode + ["--param", "\(ID.minFrequency)=220@0", "--param", "\(ID.maxFrequency)=220@0"]

    /// The built-in shapes, in the order of the program list (Sessions/*.toneshaper by name).
    static var builtIns: [String] {
        let sessions = VST3Tools.repository.appendingPathComponent("Sessions")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sessions.path)) ?? []
        return files.filter { $0.hasSuffix(".toneshaper") }.map { String($0.dropLast(".toneshaper".count)) }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    /// The module exports GetPluginFactory, ModuleEntry and ModuleExit alone, and needs no
    /// Swift runtime.
    @Test func theModuleExportsThreeSymbolsAndNeedsNoSwiftRuntime() throws {
        try VST3Tools.prepare()
        let nm = try VST3Tools.run(try TestTools.require("nm"), ["-D", "--defined-only", VST3Tools.sharedObject.path])
        #expect(nm.status == 0, "\(nm.output)")
        let symbols = nm.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(symbols.sorted() == ["GetPluginFactory", "ModuleEntry", "ModuleExit"], "\(nm.stdout)")
        let ldd = try VST3Tools.run(try TestTools.require("ldd"), [VST3Tools.sharedObject.path])
        #expect(ldd.status == 0 && !ldd.stdout.contains("libswift") && !ldd.stdout.contains("not found"), "\(ldd.stdout)")
    }

    /// The factory lists two instrument classes with their frozen ids; each is a single
    /// component with one event input, one audio output (1 or 2 channels), every parameter
    /// of the table (text and value read each other back), the built-in shapes as a
    /// program list, pitch bend mapped, tuning and volume expressions; it ends clean (every
    /// reference released, ModuleExit).
    @Test(arguments: ["mono", "stereo"])
    func theFactoryAndEachClassDescribeThemselves(which: String) throws {
        let (result, channels) = try VST3Tools.play(which, ["--describe"])
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        let stereo = which == "stereo"
        #expect(channels.count == (stereo ? 2 : 1) && channels.allSatisfy { $0.count == 4_800 && SignalAnalysis.allFinite($0) })
        #expect(result.number("stereo_differ") == 0 && channels.allSatisfy { $0 == channels[0] }, "the channels differ")
        #expect(result.number("classes") == 2, "\(result.stdout)")
        let classes = VST3Tools.lines(result, "class")
        #expect(classes.contains("0 \(VST3Tools.monoClassID) \"Audio Module Class\" \"ToneShaper\" cardinality 2147483647"), "\(classes)")
        #expect(
            classes.contains("1 \(VST3Tools.stereoClassID) \"Audio Module Class\" \"ToneShaper (stereo)\" cardinality 2147483647"), "\(classes)")
        #expect(VST3Tools.lines(result, "class2").allSatisfy { $0.contains("Instrument") }, "\(result.stdout)")
        #expect(result.number("single_component") == 1)
        #expect(result.report["bus_count"] != nil)
        let buses = VST3Tools.lines(result, "bus")
        #expect(buses.contains { $0.hasPrefix("audio output 0 ") && $0.contains("channels \(stereo ? 2 : 1) type main") }, "\(buses)")
        #expect(buses.contains { $0.hasPrefix("event input 0 ") }, "\(buses)")
        #expect(!buses.contains { $0.hasPrefix("audio input") }, "\(buses)")
        #expect(result.number("can_process_32") == 1 && result.number("latency") == 0, "\(result.stdout)")
        // Every row of the table, by its stable number (and any parameter of the VST3 shell's own beyond them).
        let params = VST3Tools.lines(result, "param")
        for row in ParameterTable.all {
            #expect(params.contains { $0.hasPrefix("\(row.number) \"\(row.displayName)\"") }, "parameter \(row.number) \(row.displayName): \(params)")
        }
        #expect(result.number("text_mismatches") == 0, "\(result.stdout)")
        // The built-in shapes are the programs, in order, and a parameter changes them.
        let programs = VST3Tools.lines(result, "program").map { $0.split(separator: "\"").dropFirst().first.map(String.init) ?? "" }
        #expect(programs == Self.builtIns, "\(VST3Tools.lines(result, "program"))")
        #expect(result.report["program_param"] != nil, "no parameter with kIsProgramChange: \(result.stdout)")
        #expect(VST3Tools.lines(result, "midi_mapping").contains { $0.hasPrefix("129 ") }, "pitch bend is not mapped: \(result.stdout)")
        let expressions = VST3Tools.lines(result, "note_expression")
        #expect(expressions.contains { $0.hasPrefix("0 ") } && expressions.contains { $0.hasPrefix("2 ") }, "\(expressions)")
        #expect(result.number("refcount_problems") == 0 && result.number("host_refs_leaked") == 0, "\(result.stdout)")
        #expect(result.number("component_released_to") == 0 && result.number("module_exit") == 1, "\(result.stdout)")
    }

    /// Hostile calls are refused without a crash, every block size from 1 to the maximum
    /// plays finite, bad states are refused and leave the sound as it was, and events a
    /// plugin must ignore change nothing.
    @Test(arguments: ["mono", "stereo"])
    func hostileCallsAreRefusedAndChangeNothing(which: String) throws {
        let script = Self.instrumentMode + ["--note", "64:69:100:3000"]
        let (_, baseline) = try VST3Tools.playMono(which, script)
        let (result, samples) = try VST3Tools.playMono(which, script + ["--hostile"])
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        let accepted = VST3Tools.lines(result, "hostile").filter { $0.hasSuffix("ACCEPTED") }
        #expect(accepted.isEmpty, "calls the plugin took: \(accepted)")
        let tried = result.report["hostile_refused"]?.split(separator: " ") ?? []
        #expect(tried.count == 3 && tried[0] == tried[2], "\(result.report["hostile_refused"] ?? result.stdout)")
        #expect(result.report["hostile_block_sizes"] == "1...256 ok", "\(result.stdout)")
        #expect(result.report["hostile_zero_length"] == "ok" && result.report["hostile_flush"] == "ok", "\(result.stdout)")
        #expect(result.report["hostile_states_refused"] == "5 of 5", "\(VST3Tools.lines(result, "hostile_state"))")
        #expect(result.report["hostile_param_kept"]?.hasPrefix("1") == true, "\(result.stdout)")
        let unchanged = samples == baseline
        #expect(unchanged, "the hostile run sounds different: \(VST3Tools.difference(samples, baseline))")
        #expect(result.number("refcount_problems") == 0 && result.number("host_refs_leaked") == 0, "\(result.stdout)")
    }

    /// State: parameters set before the first block (a host's flush: a process call of no
    /// samples) saved; a fresh instance that loads the state plays the same samples, and saves
    /// the same bytes again.
    @Test func stateRoundTripGivesTheSameSamples() throws {
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.toneshaper")
        let set = ["--flush", "\(ID.amplitude)=0.5", "--flush", "\(ID.tune)=30", "--flush", "2=3", "--flush", "\(ID.minFrequency)=300"]
        let script = ["--note", "64:69:100:4000"]
        let (saved, original) = try VST3Tools.playMono("mono", set + script + ["--save-state", state.path], frames: 9_600)
        #expect(saved.status == 0 && saved.number("flushed") == 1 && (saved.number("state_bytes") ?? 0) > 0, "\(saved.output)")
        let text = try String(contentsOf: state, encoding: .utf8)
        #expect(text.contains("\"amplitude\" : 0.5") && text.contains("\"tune\" : 30") && text.contains("\"minFrequency\" : 300"), "\(text)")
        let (first, a) = try VST3Tools.playMono("mono", ["--load-state", state.path] + script, frames: 9_600)
        let (second, b) = try VST3Tools.playMono("mono", ["--load-state", state.path, "--save-state", state.path + ".2"] + script, frames: 9_600)
        let (_, plain) = try VST3Tools.playMono("mono", script, frames: 9_600)
        #expect(first.status == 0 && second.status == 0, "\(first.output)")
        #expect(first.number("state_loaded") == 1 && first.number("controller_state_loaded") == 1, "\(first.stdout)")
        #expect(a == b, "two instances loaded from one state differ: \(VST3Tools.difference(a, b))")
        #expect(a != plain, "the loaded state sounds like the default document")
        let difference = VST3Tools.difference(a, original)
        print("VST3 state round trip: largest difference \(difference.largest), first at \(difference.first.map(String.init) ?? "none")")
        #expect(a == original, "the loaded state differs from the saved instance: \(difference)")
        #expect(try Data(contentsOf: state) == Data(contentsOf: URL(fileURLWithPath: state.path + ".2")), "saved again, the state changed")
    }

    /// A note at the pitch the shape and the key give: the flat 220 Hz shape plays its root
    /// (key 69) at 220 Hz, key 57 an octave lower, key 81 an octave higher.
    @Test(arguments: [(57, 110.0), (69, 220.0), (81, 440.0), (76, 220 * 1.4983070768766815)])
    func aNoteSoundsAtThePitchOfItsKey(key: Int, hz: Double) throws {
        let (result, samples) = try VST3Tools.playMono("mono", Self.flat220 + ["--note", "64:\(key):100:-1"], frames: 19_200)
        #expect(result.status == 0, "\(result.output)")
        let measured = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48_000, range: 4_800..<19_200) ?? 0
        let error = (measured - hz) / hz
        print("VST3 key \(key): \(measured) Hz, expected \(hz) Hz (error \(error * 100) %)")
        #expect(abs(error) < 0.002, "key \(key): \(measured) Hz, not \(hz)")
    }

    /// The same notes through the VST3 plugin and the CLAP plugin (one engine, the same
    /// parameter changes at the same frames, offline in both) give the same samples.
    @Test func theSameNotesSoundTheSameInVST3AndCLAP() throws {
        let notes = ["--note", "64:69:100:3000", "--note", "700:76:90:4200", "--note", "1500:81:60"]
        let params = Self.instrumentMode + ["--param", "\(ID.amplitude)=0.5@2000"]
        let (vst3, a) = try VST3Tools.playMono("mono", params + notes, frames: 9_600)
        let (clap, b) = try VST3Tools.playCLAP(params + notes, frames: 9_600)
        #expect(vst3.status == 0 && clap.status == 0, "\(vst3.output)\n\(clap.output)")
        let difference = VST3Tools.difference(a, b)
        print("VST3 against CLAP, three notes: largest difference \(difference.largest), first at \(difference.first.map(String.init) ?? "none")")
        #expect(a.count == b.count && a == b, "VST3 and CLAP differ: \(difference)")
        #expect(SignalAnalysis.rms(a, range: 800..<3000) > 0.01)
        // No notes: the default shape's drone.
        let (_, drone) = try VST3Tools.playMono("mono", [])
        let (_, clapDrone) = try VST3Tools.playCLAP([])
        #expect(drone == clapDrone, "the VST3 and CLAP drones differ: \(VST3Tools.difference(drone, clapDrone))")
    }

    /// Pitch bend, as a DAW sends it to a VST3 plugin: the parameter IMidiMapping gives for
    /// kPitchBend, changed; full up is the bend range (2 semitones) up.
    @Test func pitchBendThroughIMidiMappingBendsByTheRange() throws {
        let (result, samples) = try VST3Tools.playMono(
            "mono", Self.flat220 + ["--note", "64:69:100:-1", "--pitch-bend", "9600:1.0"], frames: 24_000)
        #expect(result.status == 0, "\(result.output)")
        let before = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48_000, range: 2_400..<9_600) ?? 0
        let after = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48_000, range: 14_400..<24_000) ?? 0
        let expected = 220 * pow(2, 2.0 / 12)
        print("VST3 pitch bend: \(before) Hz, then \(after) Hz (expected \(expected))")
        #expect(abs(before - 220) / 220 < 0.002, "before the bend: \(before)")
        #expect(abs(after - expected) / expected < 0.002, "bent full up: \(after) Hz, not \(expected)")
    }

    /// Note expressions: two held notes on the flat 220 Hz shape (A3, E4); at frame 9600 E4
    /// gets tuning +12 semitones (normalized 0.5 + 12/240) and A3 volume 0.125 (half of
    /// 0.25, unity): E4 alone moves an octave, A3 alone halves.
    @Test func aTuningExpressionMovesOnlyItsNoteAnOctave() throws {
        let notes = ["--note", "64:57:100:-1:7", "--note", "64:64:100:-1:8"]
        let expressions = ["--expression", "9600:8:tuning:0.55", "--expression", "9600:7:volume:0.125"]
        let (result, samples) = try VST3Tools.playMono("mono", Self.flat220 + notes + expressions, frames: 19_200)
        #expect(result.status == 0, "\(result.output)")
        let before = try Self.peaks(samples, start: 1_200)
        let after = try Self.peaks(samples, start: 11_000)
        print("VST3 expressions: peaks \(before) then \(after)")
        #expect(before.count == 2 && after.count == 2, "peaks \(before) then \(after)")
        guard before.count == 2, after.count == 2 else { return }
        #expect(abs(before[0].hz - 110) < 6 && abs(before[1].hz - 164.8) < 6, "\(before)")
        #expect(abs(after[0].hz - before[0].hz) < 1, "A3 moved: \(before) then \(after)")
        #expect(abs(after[0].level / before[0].level - 0.5) < 0.05, "A3's volume: \(before) then \(after)")
        #expect(abs(after[1].hz / before[1].hz - 2) < 0.04, "E4 did not move an octave: \(before) then \(after)")
        #expect(abs(after[1].level / before[1].level - 1) < 0.05, "E4's level changed: \(before) then \(after)")
    }

    /// Peaks of the spectrum (local maxima above a tenth of the highest): (Hz, magnitude).
    static func peaks(_ samples: [Float], start: Int) throws -> [(hz: Double, level: Double)] {
        let size = 8192
        let spectrum = try SignalAnalysis.spectrum(samples, start: start, size: size)
        let top = spectrum.max() ?? 0
        var found: [(hz: Double, level: Double)] = []
        for k in 1..<(spectrum.count - 1) where spectrum[k] > top / 10 {
            let level = spectrum[k]
            if level > spectrum[k - 1] && level > spectrum[k + 1] { found.append((Double(k) * 48_000 / Double(size), level)) }
        }
        return found
    }

    /// A program change (the unit's program-change parameter, in a block) plays that
    /// built-in shape: program 7, the siren, from its block on, as the CLAP plugin plays a
    /// MIDI program change at the same frame; the state then is the siren's document, which
    /// a fresh instance plays as the CLAP plugin plays the siren loaded as its preset. The
    /// controller reads the siren's values back, and the host is told they changed.
    @Test func aProgramChangeLoadsTheBuiltInShape() throws {
        #expect(Self.builtIns.count > 7 && Self.builtIns[7] == "siren", "\(Self.builtIns)")
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.toneshaper")
        let values = ["--report-value", ID.minFrequency, "--report-value", ID.maxFrequency]
        let (result, samples) = try VST3Tools.playMono("mono", ["--program", "7@300", "--save-state", state.path] + values, frames: 9_600)
        let (_, plain) = try VST3Tools.playMono("mono", [], frames: 9_600)
        #expect(result.status == 0, "\(result.output)")
        #expect(samples[0..<300] == plain[0..<300] && samples != plain, "the program change was not heard from its block on")
        let (clap, clapSamples) = try VST3Tools.playCLAP(["--program", "7@300"], frames: 9_600)
        #expect(clap.status == 0, "\(clap.output)")
        #expect(samples == clapSamples, "VST3 and CLAP differ after program 7: \(VST3Tools.difference(samples, clapSamples))")
        // The siren's document, loaded into a fresh instance: CLAP's siren preset.
        let text = (try? String(contentsOf: state, encoding: .utf8)) ?? ""
        #expect(text.contains("\"name\" : \"siren\""), "\(text)")
        let (loaded, fromState) = try VST3Tools.playMono("mono", ["--load-state", state.path], frames: 9_600)
        let (preset, siren) = try VST3Tools.playCLAP(["--preset-builtin", "siren"], frames: 9_600)
        #expect(loaded.status == 0 && preset.number("preset_loaded") == 1, "\(loaded.output)\n\(preset.output)")
        let difference = VST3Tools.difference(fromState, siren)
        print(
            "VST3 program 7's state against CLAP's siren preset: largest difference \(difference.largest), first at \(difference.first.map(String.init) ?? "none")"
        )
        #expect(fromState == siren, "program 7's document differs from CLAP's siren: \(difference)")
        // The controller follows the program, and the host hears of it (restartComponent or the
        // output parameter changes).
        #expect(
            result.report["value_0"]?.hasPrefix("500 ") == true && result.report["value_1"]?.hasPrefix("1500 ") == true,
            "after program 7 the controller reads \(result.report["value_0"] ?? "nothing")...\(result.report["value_1"] ?? "nothing") Hz")
        #expect(
            (result.number("restarts") ?? 0) + (result.number("out_param_changes") ?? 0) > 0,
            "the host was not told of the program's values: \(result.stdout.suffix(600))")
    }
}
