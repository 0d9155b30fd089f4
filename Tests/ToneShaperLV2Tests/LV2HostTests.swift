import Foundation
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperTestSupport

/// The plugin in the project's own C host (Tests/LV2Host/lv2host.c): both plugins load,
/// refuse hostile input without crashing and with the sound unchanged, refuse a host
/// without urid:map, and run as two instances and as two copies of the bundle in one
/// process.
@Suite struct LV2HostTests {
    /// Hostile events: each is refused (and logged), and the output is what the same run
    /// without it gives.
    static let hostileEvents = [
        "event-past-end", "event-header-cut", "sequence-too-long", "not-a-sequence", "unknown-type", "unknown-urid", "midi-0", "midi-5",
        "midi-data-high", "set-no-property", "set-no-value", "set-wrong-type", "set-path-no-nul", "missing-file", "broken-file",
        "empty-file", "directory-file", "flood",
    ]
    /// Hostile states restored into a new instance: refused (and logged), the sound as a new
    /// instance's. (A state without a document is a new instance's, restored quietly:
    /// LV2QuietHostTests.)
    static let hostileStates = [
        "state-empty", "state-zero-size", "state-truncated", "state-truncated-json", "state-wrong-type", "state-out-of-range",
        "state-not-json",
    ]
    /// Inputs with a valid part that plays (a note moved into the block, a sequence in beats
    /// without a tempo): only finite output and no crash are required.
    static let hostileButPlaying = ["frame-out-of-range", "beat-time"]

    static let frames = 4_800

    /// The C host's run with `arguments`, its output samples, and its report.
    static func play(_ uri: String, _ arguments: [String], so: URL = LV2Tools.sharedObject) throws -> (
        result: LV2Tools.ToolResult, samples: [Float]
    ) {
        try LV2Tools.prepare()
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.f32")
        let result = try LV2Tools.host(uri, ["--frames", String(frames), "--block", "256", "--out", out.path] + arguments, so: so)
        #expect(!result.signalled, "lv2host crashed: \(result.output)")
        let samples = (try? LV2Tools.samples(out)) ?? []
        return (result, samples)
    }

    @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func bothPluginsLoadAndRunClean(uri: String) throws {
        let (result, samples) = try Self.play(uri, [])
        #expect(result.status == 0, "\(result.output)")
        #expect(samples.count == Self.frames)
        #expect(SignalAnalysis.allFinite(samples))
        #expect(result.number("log_messages") == 0, "a clean run logged: \(result.stderr)")
        #expect(result.number("stereo_differ") == 0)
    }

    @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func hostileInputIsRefusedAndChangesNothing(uri: String) throws {
        let (_, baseline) = try Self.play(uri, [])
        for kind in Self.hostileEvents + Self.hostileStates {
            let (result, samples) = try Self.play(uri, ["--hostile", kind])
            #expect(result.status == 0, "\(kind): \(result.output)")
            #expect(result.number("nonfinite") == 0 && result.number("out_of_range") == 0, "\(kind): \(result.stdout)")
            let unchanged = samples == baseline  // (a Bool: a failing #expect would print every sample)
            #expect(unchanged, "\(kind): the output differs from the run without it")
            #expect((result.number("log_messages") ?? 0) >= 1, "\(kind) was not logged: \(result.output)")
            #expect(result.number("log_messages") ?? 0 <= 3, "\(kind) was logged more than a few times: \(result.stderr)")
        }
        // A control port left at NaN or infinity: refused once, not at every run().
        for value in ["nan", "inf", "-inf"] {
            let (result, samples) = try Self.play(uri, ["--set", "amplitude=\(value)@0"])
            let unchanged = samples == baseline
            #expect(result.status == 0 && unchanged, "amplitude=\(value): \(result.output)")
            #expect(result.number("log_messages") == 1, "amplitude=\(value): \(result.stderr)")
        }
        // The same bad event in every block: one line a second, with the count.
        let everyBlock = stride(from: 0, to: Self.frames, by: 256).flatMap { ["--hostile", "midi-5@\($0)"] }
        let (repeated, _) = try Self.play(uri, everyBlock)
        #expect(repeated.number("log_messages") == 2, "\(repeated.stderr)")
        #expect(repeated.stderr.contains("(18 times)"), "\(repeated.stderr)")
        for kind in Self.hostileButPlaying {
            let (result, samples) = try Self.play(uri, ["--hostile", kind])
            #expect(result.status == 0, "\(kind): \(result.output)")
            #expect(samples.count == Self.frames && SignalAnalysis.allFinite(samples), "\(kind)")
        }
    }

    /// Random events (random types, sizes, bytes and frames, objects whose sizes lie, a
    /// sequence size anywhere up to the buffer's) in every block: no crash, finite output
    /// within the limit, and the refusals logged at most once per kind and run().
    @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func randomEventsNeverCrashIt(uri: String) throws {
        for seed in 1...20 {
            let hostile = stride(from: 0, to: Self.frames, by: 256).flatMap { ["--hostile", "random:\(seed)@\($0)"] }
            let (result, samples) = try Self.play(uri, hostile)
            #expect(result.status == 0, "seed \(seed): \(result.output.suffix(2000))")
            #expect(samples.count == Self.frames && SignalAnalysis.allFinite(samples), "seed \(seed)")
            let blocks = (Self.frames + 255) / 256  // 15 kinds of problem (Sources/ToneShaperLV2/Problems.swift)
            #expect((result.number("log_messages") ?? 0) <= Double(blocks * 15), "seed \(seed) logged more than once per kind and run()")
        }
    }

    /// The worker on a thread of its own (work() while run() runs, as real hosts do): the
    /// same samples and the same refusals as the worker between cycles.
    @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func aThreadedWorkerGivesTheSameResult(uri: String) throws {
        let siren = LV2Tools.repository.appendingPathComponent("Sessions/siren.toneshaper").path
        // Refused files only: a document the engine takes swaps in when the thread is done,
        // which is not the same block from run to run.
        let script = ["--note", "64:81:100:3000", "--hostile", "missing-file@600", "--hostile", "midi-5@900", "--hostile", "broken-file@1200"]
        let (between, a) = try Self.play(uri, script)
        let (threaded, b) = try Self.play(uri, script + ["--threaded-worker"])
        let same = a == b
        #expect(between.status == 0 && threaded.status == 0, "\(threaded.output)")
        #expect(same, "the threaded worker's run played other samples")
        #expect(between.number("log_messages") == threaded.number("log_messages"), "\(between.stderr)\n---\n\(threaded.stderr)")
        // A document loaded while notes play, the worker on its thread: finite, no crash.
        let (loading, samples) = try Self.play(uri, ["--threaded-worker", "--note", "64:81:100:3000", "--load-file", "\(siren)@300"])
        #expect(loading.status == 0 && samples.count == Self.frames && SignalAnalysis.allFinite(samples), "\(loading.output)")
    }

    @Test func aHostWithoutURIDMapOrASampleRateIsRefused() throws {
        for arguments in [["--without", "urid:map"], ["--rate", "0"], ["--rate", "-48000"]] {
            let (result, _) = try Self.play(LV2Tools.monoURI, arguments)
            #expect(result.status == 4, "\(arguments): \(result.output)")
            #expect(result.stdout.contains("instantiate: refused"))
            #expect(result.stderr.contains("toneshaper.lv2:"), "\(arguments): refused without a word")
        }
    }

    /// Optional features: without a worker the plugin plays (and says what it refuses);
    /// without log:log it writes to standard error; without options it takes defaults.
    @Test func optionalFeaturesMayBeMissing() throws {
        for feature in ["worker:schedule", "log:log", "options:options"] {
            let (result, samples) = try Self.play(LV2Tools.monoURI, ["--without", feature, "--note", "64:69:100:2000"])
            #expect(result.status == 0, "\(feature): \(result.output)")
            #expect(samples.count == Self.frames && SignalAnalysis.allFinite(samples))
        }
        let (noLog, _) = try Self.play(LV2Tools.monoURI, ["--without", "log:log", "--hostile", "midi-5"])
        #expect(noLog.number("log_messages") == 0)
        #expect(noLog.stderr.contains("toneshaper.lv2: refused a MIDI event"), "\(noLog.stderr)")
    }

    /// Without the host's worker the plugin's own work thread builds the plans: a change
    /// that needs one (the duration) is heard, nothing is refused. The host runs its blocks
    /// at their times (--bench-paced), as a live host does: the thread answers between them.
    @Test func withoutAWorkerPlansAreBuiltOnTheOwnThread() throws {
        let live = ["--without", "worker:schedule", "--bench-paced", "--frames", "48000"]
        let (own, samples) = try Self.play(LV2Tools.monoURI, live + ["--set", "duration=0.25@1024"])
        let (_, unchanged) = try Self.play(LV2Tools.monoURI, live)
        #expect(own.status == 0 && own.number("log_errors") == 0 && own.number("log_messages") == 0, "\(own.output)")
        #expect(samples.count == 48_000 && unchanged.count == 48_000 && SignalAnalysis.allFinite(samples))
        guard samples.count == 48_000, unchanged.count == 48_000 else { return }
        let before = (0..<1_024).map { abs(samples[$0] - unchanged[$0]) }.max() ?? 1
        let after = (24_000..<48_000).map { abs(samples[$0] - unchanged[$0]) }.max() ?? 0
        #expect(before == 0, "the sound before the change differs by \(before)")
        #expect(after > 0.01, "the change was not heard: \(after)")
    }

    /// Two instances of one descriptor, and one from a copy of the bundle in another
    /// directory (a second copy of the shared object), in one process: the same input
    /// gives the same samples.
    @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func twoInstancesAndTwoCopiesInOneProcess(uri: String) throws {
        try LV2Tools.prepare()
        let script = ["--note", "64:81:100:3000", "--set", "amplitude=0.5@1000"]
        let (two, _) = try Self.play(uri, ["--instances", "2"] + script)
        #expect(two.status == 0 && two.number("instances_differ") == 0, "\(two.output)")

        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for copy in ["a", "b"] {
            try FileManager.default.copyItem(at: LV2Tools.bundle, to: directory.appendingPathComponent("\(copy)/toneshaper.lv2"))
        }
        let first = directory.appendingPathComponent("a/toneshaper.lv2/toneshaper.so")
        let second = directory.appendingPathComponent("b/toneshaper.lv2/toneshaper.so")
        let (copies, _) = try Self.play(uri, ["--second-so", second.path] + script, so: first)
        #expect(copies.status == 0 && copies.number("instances_differ") == 0, "\(copies.output)")
        // The same path twice in one process is one load, and still two instances.
        let (samePath, _) = try Self.play(uri, ["--second-so", first.path] + script, so: first)
        #expect(samePath.status == 0 && samePath.number("instances_differ") == 0, "\(samePath.output)")
    }

    // MARK: - With the engine

    /// Instrument mode: a note at frame 64 is silent before it and sounds from it.
    @Test
    func aNoteAtFrame64SoundsFromIt() throws {
        for uri in [LV2Tools.monoURI, LV2Tools.stereoURI] {
            let (result, samples) = try Self.play(uri, ["--set", "instrument=1@0", "--set", "scale=0@0", "--note", "64:69:100:4000"])
            #expect(result.status == 0, "\(result.output)")
            #expect(SignalAnalysis.peak(samples, range: 0..<64) == 0, "sound before the note")
            // The note starts at its frame (the attack's first sample is 0, the next is not),
            // and is clearly heard within the node's 2 ms attack (96 frames at 48 kHz).
            #expect(result.number("first_nonzero").map { (64...65).contains($0) } == true, "first sound at \(result.stdout)")
            #expect(result.number("first_sound").map { (64...(64 + 96 + 16)).contains($0) } == true, "heard at \(result.stdout)")
            #expect(SignalAnalysis.rms(samples, range: 100..<4000) > 0.01)
        }
    }

    /// The state saved from one instance and restored into a new one plays the same samples.
    @Test
    func stateRoundTripGivesTheSameSamples() throws {
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state")
        let siren = LV2Tools.repository.appendingPathComponent("Sessions/siren.toneshaper").path
        // Load a document, let the worker build it, save.
        let (saved, _) = try Self.play(LV2Tools.monoURI, ["--load-file", "\(siren)@0", "--save-state", state.path])
        #expect(saved.status == 0 && saved.number("state_properties") == 1, "\(saved.output)")
        // The notify port said which file plays (patch:Set of urn:toneshaper:file).
        #expect(saved.report["notify_path"] == siren, "\(saved.stdout)")
        let text = try String(contentsOf: state, encoding: .utf8)
        #expect(text.hasPrefix("urn:toneshaper:document http://lv2plug.in/ns/ext/atom#String"))
        #expect(text.contains("\"siren\""))
        // Two new instances restore it; both play the same samples, and not the default shape's.
        let script = ["--note", "64:69:100:4000"]
        let (first, a) = try Self.play(LV2Tools.monoURI, ["--restore-state", state.path] + script)
        let (second, b) = try Self.play(LV2Tools.monoURI, ["--restore-state", state.path] + script)
        let (_, plain) = try Self.play(LV2Tools.monoURI, script)
        #expect(first.status == 0 && second.status == 0)
        let same = a == b
        let restored = a != plain
        #expect(same, "two instances restored from one state play different samples")
        #expect(restored, "the restored state sounds like the default document")
        #expect(SignalAnalysis.rms(a, range: 1000..<4000) > 0.01)
    }

    /// A control port's change is heard: amplitude halves the level.
    @Test
    func aControlPortChangeIsHeard() throws {
        // Scale "None" (index 0): a steady level, so the change alone moves it.
        let (_, loud) = try Self.play(LV2Tools.monoURI, ["--set", "scale=0@0", "--set", "amplitude=0.5@0"])
        let (_, quiet) = try Self.play(LV2Tools.monoURI, ["--set", "scale=0@0", "--set", "amplitude=0.5@0", "--set", "amplitude=0.25@2304"])
        let before = SignalAnalysis.rms(quiet, range: 1000..<2000)
        let after = SignalAnalysis.rms(quiet, range: 3000..<4500)
        #expect(abs(before - SignalAnalysis.rms(loud, range: 1000..<2000)) < 1e-6)
        #expect(before > 0.05 && abs(after / before - 0.5) < 0.05, "rms \(before) then \(after)")
    }

    /// `tune`, the port added after the first release (after the audio outputs, so at a
    /// different index in the mono and the stereo plugin): +100 cents plays a steady 440 Hz
    /// shape a semitone up, and the saved state keeps it under its document key.
    @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
    func theTunePortRetunesAndTheStateKeepsIt(uri: String) throws {
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let steady = directory.appendingPathComponent("steady.toneshaper")
        try #"{"points":[[0,440],[1,440]],"duration":1,"minFrequency":20,"maxFrequency":2000,"scaleType":"None","amplitude":0.5}"#
            .write(to: steady, atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state")
        let (plain, untuned) = try Self.play(uri, ["--load-file", "\(steady.path)@0"])
        // Moved after the document is in (a document loaded sets every parameter, the ports'
        // included, to its own values until they move again).
        let (tuned, up) = try Self.play(uri, ["--load-file", "\(steady.path)@0", "--set", "tune=100@1024", "--save-state", state.path])
        #expect(plain.status == 0 && tuned.status == 0 && tuned.number("log_errors") == 0, "\(tuned.output)")
        let before = try #require(SignalAnalysis.zeroCrossingFrequency(untuned, sampleRate: 48_000, range: 2048..<Self.frames))
        let after = try #require(SignalAnalysis.zeroCrossingFrequency(up, sampleRate: 48_000, range: 2048..<Self.frames))
        #expect(abs(before / 440 - 1) < 2e-3, "\(before) Hz")
        #expect(abs(after / before / ToneEngine.tuningFactor(cents: 100) - 1) < 2e-3, "\(before) Hz, then \(after) Hz")
        let text = try String(contentsOf: state, encoding: .utf8)
        #expect(text.contains("\"tune\" : 100"), "\(text)")
    }

    /// With the transport setting on, the plugin follows the host's transport (time:Position)
    /// as the node follows JACK's: silent while stopped, sounding from when it rolls, silent
    /// again once it stops (after the node's fade).
    @Test
    func itFollowsTheHostsTransport() throws {
        let steady = ["--set", "scale=0@0", "--set", "transport=1@0"]
        let (result, samples) = try Self.play(
            LV2Tools.monoURI, steady + ["--position", "0:0@0", "--position", "1:0@1024", "--position", "0:2048@3072"])
        #expect(result.status == 0 && result.number("log_errors") == 0, "\(result.output)")
        #expect(SignalAnalysis.peak(samples, range: 0..<1024) == 0, "sound while the transport is stopped")
        #expect(SignalAnalysis.rms(samples, range: 1536..<3072) > 0.05, "no sound while it rolls")
        #expect(SignalAnalysis.peak(samples, range: 3800..<Self.frames) == 0, "sound after it stopped")
        // Without a transport from the host, the setting silences nothing it cannot follow:
        // it waits, silent, as the node does for a stopped transport.
        let (_, waiting) = try Self.play(LV2Tools.monoURI, steady)
        #expect(SignalAnalysis.peak(waiting, range: 0..<Self.frames) == 0)
    }

    /// A change that needs a new plan (the wave) is built by the worker and swapped in
    /// without a gap: the level never drops to silence (the cross-fade between a sine and a
    /// sawtooth, whose fundamentals are of opposite sign, dips, as the node's does), and the
    /// sound becomes the new wave's. With the worker on a thread of its own the host runs
    /// faster than real time, so the plan may land after the last block: there, only that
    /// nothing breaks.
    @Test(arguments: ["", "--threaded-worker"])
    func aWorkerBuiltPlanSwapsInWithoutAGap(worker: String) throws {
        let steady = ["--set", "scale=0@0", "--set", "min_frequency=440@0", "--set", "max_frequency=440@0"]
        let (result, samples) = try Self.play(LV2Tools.monoURI, steady + ["--set", "wave=5@2304"] + (worker.isEmpty ? [] : [worker]))
        #expect(result.status == 0 && result.number("log_errors") == 0, "\(result.output)")
        #expect((result.number("worker_requests") ?? 0) >= 1)
        #expect(SignalAnalysis.allFinite(samples) && SignalAnalysis.peak(samples) <= 0.25 + 1e-6)
        // No gap: every window of two cycles (218 frames at 440 Hz: a sawtooth's level is
        // steady only over whole cycles) carries the tone once the start's fade-in is over
        // (the ports the host set are taken at activation, plans included).
        let quietest = stride(from: 256, to: Self.frames - 218, by: 16).map { SignalAnalysis.rms(samples, range: $0..<$0 + 218) }.min() ?? 0
        #expect(quietest > 0.05, "a window fell to rms \(quietest)")
        guard worker.isEmpty else { return }
        // The sine's crest factor (peak over rms) is the square root of 2; a sawtooth's, 3.
        func crest(_ range: Range<Int>) -> Double { SignalAnalysis.peak(samples, range: range) / SignalAnalysis.rms(samples, range: range) }
        #expect(abs(crest(400..<2362) - 2.0.squareRoot()) < 0.02, "before: crest \(crest(400..<2362))")
        #expect(abs(crest(3054..<4799) - 3.0.squareRoot()) < 0.05, "after: crest \(crest(3054..<4799))")
    }
}
