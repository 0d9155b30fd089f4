import Foundation
import Testing
import ToneShaperTestSupport

/// The VST3 editor (IPlugView on X11) in the project's VST3 host, on a private X server: the
/// host's IPlugFrame gives the view a Linux IRunLoop, whose timers and descriptors the host
/// serves.
@Suite struct VST3EditorTests {
    static let available = TestTools.have("Xvfb")

    /// 20 views made, attached, driven for 5 timer calls each, removed and released: no
    /// descriptor is left open, no timer or descriptor handler stays registered, every view's
    /// last release reaches 0, and the second ten windows add no more than a small bound of
    /// resident memory.
    @Test(.enabled(if: available))
    func twentyEditorWindowsOpenAndCloseWithoutALeak() throws {
        try VST3Tools.prepare()
        let display = try PrivateXServer(width: 1600, height: 1200)
        let result = try VST3Tools.run(
            VST3Tools.host.path, ["--vst3", VST3Tools.bundle.path, "--frames", "4800", "--gui-reopen", "20"],
            environment: ["DISPLAY": display.name], timeout: 300)
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        #expect(result.number("gui_reopened") == 20, "\(result.stdout)")
        #expect(result.number("gui_fds_before") == result.number("gui_fds_after"), "a window left files open: \(result.stdout)")
        #expect(result.number("gui_timers_live") == 0 && result.number("gui_fds_watched") == 0, "\(result.stdout)")
        #expect((result.number("timers_registered") ?? 0) >= 20, "the editor registered no timer with the run loop: \(result.stdout)")
        #expect(result.number("refcount_problems") == 0 && result.number("host_refs_leaked") == 0, "\(result.stdout)")
        let resident = (result.report["gui_resident_kb"] ?? "").split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .punctuationCharacters))
        }
        print(
            "VST3 editor, 20 windows: resident KB \(result.report["gui_resident_kb"] ?? "?"), fds \(result.report["gui_fds_before"] ?? "?") -> \(result.report["gui_fds_after"] ?? "?")"
        )
        #expect(resident.count == 4 && resident[3] - resident[2] < 2_000, "\(result.report["gui_resident_kb"] ?? result.stdout)")
    }

    /// The editor kept open while the plugin plays in real time: its timers are served (the
    /// host's "ticks" acknowledged once they came), a parameter sent while it is open plays,
    /// and quitting removes it cleanly.
    @Test(.enabled(if: available))
    func theEditorRunsOnTheHostsRunLoopWhileThePluginPlays() throws {
        try VST3Tools.prepare()
        let display = try PrivateXServer(width: 1600, height: 1200)
        let host = try RunningTool(
            VST3Tools.host.path, ["--vst3", VST3Tools.bundle.path, "--gui"], environment: ["DISPLAY": display.name], directory: VST3Tools.repository)
        let shown = try host.waitForReport("gui_shown")
        #expect(shown.contains("x"), "\(shown)")
        try host.send("ticks 10")
        #expect(try host.waitForReport("ticked") == "10")
        try host.send("param 6=0.5")
        #expect(try host.waitForReport("param_sent").hasPrefix("6 0.5"))
        try host.send("quit")
        let result = try host.finish()
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        #expect(result.number("gui_timers_live") == 0 && result.number("gui_fds_watched") == 0, "\(result.stdout)")
        #expect(result.number("refcount_problems") == 0 && result.number("host_refs_leaked") == 0, "\(result.stdout)")
        #expect(result.number("nonfinite") == 0, "\(result.stdout)")
    }
}

/// The plugin in pedalboard (Spotify's scripted host over JUCE's VST3 hosting),
/// Tests/VST3Host/pedalboard_check.py: its parameters by name, one set and read back, a
/// note rendered at its pitch.
@Suite struct VST3PedalboardTests {
    static let available = (try? ToolResult.run("/usr/bin/env", ["python3", "-c", "import pedalboard, mido"]))?.status == 0

    /// The report the script prints (one JSON object).
    static func check(_ arguments: [String]) throws -> (result: ToolResult, report: [String: Any]) {
        try VST3Tools.prepare()
        let result = try VST3Tools.run("/usr/bin/env", ["python3", VST3Tools.pedalboardCheck.path, VST3Tools.bundle.path] + arguments, timeout: 300)
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        return (result, report)
    }

    /// Instrument mode on a flat 220 Hz shape (set by name, as pedalboard's user does: the
    /// parameter's name and unit, min_frequency_hz), scale None, amplitude 0.5: key 81, an octave above the root note 69, plays 440 Hz; each value
    /// set reads back.
    @Test(.enabled(if: available))
    func pedalboardLoadsThePluginSetsParametersByNameAndPlaysANoteAtItsPitch() throws {
        let settings = ["instrument=true", "scale=None", "max_frequency_hz=220", "min_frequency_hz=220", "amplitude=0.5"]
        let (result, report) = try Self.check(["--plugin-name", "ToneShaper", "--note", "81"] + settings.flatMap { ["--set", $0] })
        #expect(result.status == 0 && report["loaded"] as? Bool == true, "\(result.output)")
        let names = report["parameter_names"] as? [String] ?? []
        for name in ["min_frequency_hz", "max_frequency_hz", "wave", "scale", "amplitude", "instrument", "program"] {
            #expect(names.contains(name), "pedalboard names no \(name): \(names)")
        }
        #expect((report["plugin_names"] as? [String]).map(Set.init) == ["ToneShaper", "ToneShaper (stereo)"], "\(report["plugin_names"] ?? "")")
        let back = report["read_back"] as? [String: Any] ?? [:]
        #expect((back["amplitude"] as? Double).map { abs($0 - 0.5) < 1e-3 } == true, "amplitude read back as \(back["amplitude"] ?? "nothing")")
        #expect((back["min_frequency_hz"] as? Double).map { abs($0 - 220) < 0.5 } == true, "\(back)")
        let pitch = report["pitch_hz"] as? Double ?? 0
        let crossings = report["zero_crossing_hz"] as? Double ?? 0
        print("pedalboard: key 81 on a flat 220 Hz shape: \(pitch) Hz (FFT), \(crossings) Hz (zero crossings), peak \(report["peak"] ?? "?")")
        #expect(abs(pitch - 440) / 440 < 0.002 && abs(crossings - 440) / 440 < 0.002, "\(result.stdout)")
        #expect(report["finite"] as? Bool == true && (report["peak"] as? Double).map { $0 > 0.05 && $0 <= 1 } == true, "\(result.stdout)")
    }
}
