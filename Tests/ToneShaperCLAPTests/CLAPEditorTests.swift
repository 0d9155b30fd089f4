import Foundation
import Synchronization
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The editor window through clap.gui, in the project's CLAP host (Tests/CLAPHost) on a
/// private X display (Xvfb): embedded in the host's window, driven by the host's timers,
/// used with the mouse (xdotool) while the plugin plays; screenshots of it are kept in
/// /tmp/clap-gui-shots.
@Suite struct CLAPEditorTests {
    static var available: Bool { TestTools.have("Xvfb", "xdotool", "cc") }
    static let shots = URL(fileURLWithPath: "/tmp/clap-gui-shots")

    /// The editor's layout at scale 1 (EditorWindow's, 900x420): the plot's left and top
    /// edges and its bottom margin, the panel of controls on the right 260 pixels, rows of 36.
    static let plotLeft = 52.0
    static let plotTop = 40.0
    static let plotBottomMargin = 30.0
    static let panelWidth = 260

    /// Where the default shape's point (1 s, 330 Hz) is, and where 165 Hz is, on the plot
    /// (2 s across; 110 to 440 Hz up, logarithmic).
    static func plotPoint(time: Double, frequency: Double, width: Int, height: Int) -> (x: Int, y: Int) {
        let plotWidth = Double(width - panelWidth) - plotLeft - 14
        let plotHeight = Double(height) - plotTop - plotBottomMargin
        let x = plotLeft + time / 2 * plotWidth
        let y = plotTop + plotHeight - log(frequency / 110) / log(4) * plotHeight
        return (Int(x.rounded()), Int(y.rounded()))
    }

    /// The amplitude's row (the eighth control) of the panel: its bar's middle, and the
    /// rectangle of the row (label, value and bar) for a screenshot.
    static func amplitudeRow(width: Int) -> (barX: Int, barY: Int, barWidth: Int, box: [Int]) {
        let row = 7
        let panel = width - panelWidth
        return (panel + 12, 10 + row * 36 + 18 + 6, panelWidth - 24, [panel, 10 + row * 36, panelWidth, 36])
    }

    /// A point dragged with the mouse reaches the plugin (its state holds it), a click on a
    /// control reaches the host as a value between a gesture's begin and end, and a value
    /// the host sets is shown (the control's row on the screen changes, and the window says
    /// what it shows). Each step waits for the host's report of what it waits for (the
    /// click's value out of the plugin, the editor's timer calls, the host's value sent),
    /// never for a time.
    @Test(.enabled(if: available))
    func editsInTheWindowReachThePluginAndTheHostAndTheWindowFollowsTheHost() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: Self.shots, withIntermediateDirectories: true)
        let state = directory.appendingPathComponent("state.toneshaper")
        let host = try display.startHost(["--save-state", state.path], environment: ["TONESHAPER_UI_TRACE": "1"])
        let editor = try display.waitForEditor(of: host)
        #expect(editor.width == 900 && editor.height == 420, "\(editor)")
        try display.drawn(host)
        _ = try display.screenshot(Self.shots.appendingPathComponent("1-opened.png"), window: editor.window)

        // The point at 1 s, 330 Hz dragged down to 165 Hz; a click a tenth along the
        // amplitude's bar (0...1): about 0.1. The click has reached the host once the plugin
        // sent the amplitude's value and the gesture's end.
        try display.dragPoint(in: editor, time: 1, from: 330, to: 165)
        try display.clickAmplitude(in: editor, atFraction: 0.1)
        try host.waitFor("the click's amplitude sent to the host") {
            host.reports("out_value").contains { $0.hasPrefix("6 ") } && host.reports("out_gesture").contains("end 6")
        }
        try display.drawn(host)
        _ = try display.screenshot(Self.shots.appendingPathComponent("2-edited.png"), window: editor.window)
        let amplitude = Self.amplitudeRow(width: editor.width)
        let rowBefore = directory.appendingPathComponent("row-before.png")
        let rowSteady = directory.appendingPathComponent("row-steady.png")
        _ = try display.screenshot(rowBefore, window: editor.window, box: amplitude.box)
        // Ten more chances to redraw, with nothing moving the amplitude: the row stays.
        try display.drawn(host, ticks: 10)
        _ = try display.screenshot(rowSteady, window: editor.window, box: amplitude.box)
        #expect(try Data(contentsOf: rowBefore) == Data(contentsOf: rowSteady), "the amplitude's row changed with nothing moving it")

        // The host sets the amplitude to 0.9 in its next block; the window says it shows it,
        // and its row changes.
        try host.send("param 6=0.9")
        try host.waitForReport("param_sent")
        try host.waitFor("the window's word that it shows the host's amplitude") { host.stderr.contains("shows amplitude 0.9000") }
        try display.drawn(host)
        let rowAfter = directory.appendingPathComponent("row-after.png")
        _ = try display.screenshot(rowAfter, window: editor.window, box: amplitude.box)
        _ = try display.screenshot(Self.shots.appendingPathComponent("3-host-set-amplitude.png"), window: editor.window)
        #expect(try Data(contentsOf: rowBefore) != Data(contentsOf: rowAfter), "the amplitude's row did not change with the host's value")

        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        // The host got the click as a value within one gesture.
        #expect(result.number("out_gesture_begins") ?? 0 >= 1, "\(result.stdout)")
        #expect(result.number("out_gesture_begins") == result.number("out_gesture_ends"), "\(result.stdout)")
        #expect(result.number("out_values_outside_gesture") == 0, "\(result.stdout)")
        #expect(result.number("out_unmatched_ends") == 0, "\(result.stdout)")
        let clicked = try #require(result.number("out_last_6"), "no amplitude reached the host: \(result.stdout)")
        #expect(abs(clicked - 0.1) < 0.03, "the click a tenth along the bar gave \(clicked)")
        #expect(result.number("flush_requests") ?? 0 >= 3, "the plugin never asked the host to flush: \(result.stdout)")
        #expect(result.number("out_in_process") ?? 0 >= 3, "the edits did not come out of process(): \(result.stdout)")
        #expect(result.number("gui_timers_live") == 0, "destroy left a timer: \(result.stdout)")
        // The host watched the window's display connection and called on_fd as events came.
        #expect(result.number("fds_registered") == 1 && result.number("fds_watched") == 0, "\(result.stdout)")
        #expect(result.number("fd_calls") ?? 0 >= 3, "\(result.stdout)")
        #expect(result.number("log_messages") == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("x_error"), "\(result.stdout)")
        // The plugin plays the dragged curve: its state has the point at 1 s moved to about
        // 165 Hz, and the host's amplitude.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let points = try #require(document["points"] as? [[Double]], "\(document)")
        #expect(!points.contains { abs($0[1] - 330) < 1 }, "the point at 330 Hz was not moved: \(points)")
        #expect(points.contains { abs($0[0] - 1) < 0.05 && abs($0[1] - 165) < 12 }, "no point near (1 s, 165 Hz): \(points)")
        #expect((document["amplitude"] as? Double).map { abs($0 - 0.9) < 1e-9 } == true, "\(document)")
    }

    /// A host that flushes when the plugin asks (as one does while it is not processing)
    /// gets the window's edits out of params.flush, within their gestures: a click, and a
    /// drag along the bar. This host offers no clap.posix-fd-support: the window's events
    /// are read on the timer alone.
    @Test(.enabled(if: available))
    func editsReachTheHostThroughParamsFlush() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let host = try display.startHost(["--gui-flush", "--no-fd-support"])
        let editor = try display.waitForEditor(of: host)
        let amplitude = Self.amplitudeRow(width: editor.width)
        let y = "\(editor.y + amplitude.barY)"
        try display.xdotool(["mousemove", "--sync", "\(editor.x + amplitude.barX + amplitude.barWidth / 2)", y, "click", "1"])
        // A drag at a hand's pace: the "sleep 0.1"s between pressing, moving and letting go are
        // the gesture's own (a hand's moves come apart in time), not a wait for the host.
        try display.xdotool([
            "mousemove", "--sync", "\(editor.x + amplitude.barX + amplitude.barWidth / 4)", y, "mousedown", "1", "sleep", "0.1", "mousemove",
            "\(editor.x + amplitude.barX + amplitude.barWidth / 3)", y, "sleep", "0.1", "mousemove",
            "\(editor.x + amplitude.barX + amplitude.barWidth * 3 / 10)",
            y, "sleep", "0.1", "mouseup", "1",
        ])
        // Both gestures (the click's and the drag's) have ended at the host.
        try host.waitFor("the two gestures' ends at the host") { host.reports("out_gesture").filter { $0 == "end 6" }.count >= 2 }
        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.number("out_gesture_begins") == 2 && result.number("out_gesture_ends") == 2, "\(result.stdout)")
        #expect(result.number("out_values") ?? 0 >= 3, "\(result.stdout)")
        #expect(result.number("out_values_outside_gesture") == 0 && result.number("out_unmatched_ends") == 0, "\(result.stdout)")
        #expect(result.number("flushes") ?? 0 >= 1 && result.number("out_in_process") == 0, "\(result.stdout)")
        #expect(result.number("fds_registered") == 0 && result.number("fd_calls") == 0, "\(result.stdout)")
        let last = try #require(result.number("out_last_6"), "\(result.stdout)")
        #expect(abs(last - 0.3) < 0.03, "the drag ended at 0.3 of the bar, the host got \(last)")
    }

    /// A preset the host loads while the window is open (on the main thread, as a preset
    /// browser does) reaches the window: it shows the preset's curve and its values.
    @Test(.enabled(if: available))
    func theWindowFollowsAPresetTheHostLoads() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let songbird = CLAPTools.repository.appendingPathComponent("Sessions/songbird.toneshaper")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: songbird)) as? [String: Any])
        let count = try #require((document["points"] as? [Any])?.count)
        let duration = try #require(document["duration"] as? Double)
        let host = try display.startHost([], environment: ["TONESHAPER_UI_TRACE": "1"])
        let editor = try display.waitForEditor(of: host)
        // What the window says from here on is the preset's doing.
        let before = host.stderr.utf8.count
        try host.send("preset songbird")
        #expect(try host.waitForReport("gui_preset_loaded") == "1", "\(host.output)")
        let points = "shows \(count) points"
        let durationLine = "shows duration \(String(format: "%.4f", duration))"
        try host.waitFor("the window's word that it shows songbird's \(count) points and its duration \(duration)") {
            let said = String(decoding: host.stderr.utf8.dropFirst(before), as: UTF8.self)
            return said.contains(points) && said.contains(durationLine)
        }
        try display.drawn(host)
        _ = try display.screenshot(Self.shots.appendingPathComponent("4-preset-songbird.png"), window: editor.window)
        let result = try host.finish()
        #expect(result.status == 0 && result.number("gui_preset_loaded") == 1, "\(result.output)")
        #expect(!result.stdout.contains("x_error"), "\(result.stdout)")
    }

    /// Calls out of turn and malformed ones are refused (set_parent, show or get_size before
    /// create; another API, a floating window, a second create, a size of 0 or too large,
    /// a parent of another API or none, a scale not a number or after the window is made);
    /// then the window is made, shown at scale 2 and destroyed 20 times: every X connection
    /// and every timer it opened is closed again, and memory does not grow by a window each time.
    @Test(.enabled(if: available))
    func theWindowRefusesCallsOutOfTurnAndIsMadeAgainWithoutLeaks() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let result = try CLAPTools.run(
            CLAPTools.host.path,
            ["--clap", CLAPTools.plugin.path, "--frames", "4800", "--gui-hostile", "--gui-reopen", "20", "--gui-scale", "2"],
            environment: ["DISPLAY": display.name], timeout: 120)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.report["gui_hostile_refused"] == "22 of 22", "\(result.stdout)")
        #expect(result.number("gui_reopened") == 20, "\(result.stdout)")
        #expect(result.report["gui_size"] == "1800x840", "scale 2 doubles the window: \(result.stdout)")
        #expect(result.number("gui_fds_before") == result.number("gui_fds_after"), "a window left files open: \(result.stdout)")
        #expect(result.number("gui_timers_live") == 0 && result.number("fds_watched") == 0, "\(result.stdout)")
        #expect(result.number("fds_registered") == 21, "one watch a window (the hostile calls' one, then 20): \(result.stdout)")
        // Memory: the first windows load Xlib's and cairo's fonts and caches, and the
        // allocator keeps the largest images' memory; from then on it stays (the second ten
        // windows may not add a window's worth: 1800x840 pixels are 6 MB).
        let resident = (result.report["gui_resident_kb"] ?? "").split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .punctuationCharacters))
        }
        #expect(resident.count == 4 && resident[3] - resident[2] < 2_000, "\(result.report["gui_resident_kb"] ?? result.stdout)")
        print("clap.gui, 20 windows at scale 2: resident KB \(result.report["gui_resident_kb"] ?? "?")")
        #expect(result.number("timers_registered") == 21, "\(result.stdout)")
        #expect(result.number("nonfinite") == 0 && result.number("log_errors") == 0, "\(result.output)")
    }

    /// A host that destroys its own window (the editor's parent, and with it the editor's
    /// window) before it destroys the editor, and calls the editor's timers meanwhile: the
    /// editor's X requests on a window that is gone fail, and Xlib's default handler of an
    /// error ends the process, the host's. The editor takes the errors of its own X
    /// connection, lives on, and opens again in the host's next window.
    @Test(.enabled(if: available))
    func theHostsProcessOutlivesAParentWindowDestroyedFirst() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let result = try CLAPTools.run(
            CLAPTools.host.path, ["--clap", CLAPTools.plugin.path, "--frames", "4800", "--gui-parent-gone"],
            environment: ["DISPLAY": display.name], timeout: 60)
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        #expect(result.number("gui_outlived_its_parent") == 1, "\(result.output)")
        // No error reached Xlib's default handler, nor the host's own (x_error): the editor's
        // connection took its errors itself.
        #expect(!result.output.contains("X Error") && !result.stdout.contains("x_error"), "\(result.output)")
        #expect(result.number("gui_timers_live") == 0 && result.number("fds_watched") == 0, "\(result.stdout)")
        #expect(result.number("nonfinite") == 0, "\(result.output)")
    }
}

/// A private X display (Xvfb) for a test, stopped with it (``PrivateXServer``); the CLAP test
/// host's window on it, xdotool and screenshots (``TestTools/xshot()``).
final class CLAPDisplay {
    private let server: PrivateXServer
    var number: Int { server.number }
    var name: String { server.name }

    init() throws { server = try PrivateXServer(width: 1920, height: 1080) }

    /// The CLAP test host with the editor window (`--gui`) on this display, the mono plugin,
    /// `arguments` added, in the repository; it runs until ``RunningTool/finish(timeout:)``.
    func startHost(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningTool {
        try RunningTool(
            CLAPTools.host.path, ["--clap", CLAPTools.plugin.path, "--gui"] + arguments, environment: environment.merging(["DISPLAY": name]) { $1 },
            directory: CLAPTools.repository)
    }

    /// The editor has drawn what it knew when this was called: the host's next `ticks`
    /// timer calls (its chances to read what changed and draw) are waited for.
    func drawn(_ host: RunningTool, ticks: Int = 2) throws {
        let asked = host.reports("ticked").count + 1
        try host.send("ticks \(ticks)")
        try host.waitForReport("ticked", count: asked)
    }

    /// Drags the curve's point at `time` from `from` to `to` Hz in `editor`, at a hand's
    /// pace: pressed, moved in two steps, released; the "sleep"s between are the gesture's
    /// own (a hand's moves come apart in time), not a wait for the window.
    func dragPoint(in editor: Editor, time: Double, from: Double, to: Double) throws {
        let start = CLAPEditorTests.plotPoint(time: time, frequency: from, width: editor.width, height: editor.height)
        let end = CLAPEditorTests.plotPoint(time: time, frequency: to, width: editor.width, height: editor.height)
        try xdotool([
            "mousemove", "--sync", "\(editor.x + start.x)", "\(editor.y + start.y)", "mousedown", "1", "sleep", "0.1", "mousemove",
            "\(editor.x + start.x)", "\(editor.y + (start.y + end.y) / 2)", "sleep", "0.05", "mousemove", "\(editor.x + end.x)",
            "\(editor.y + end.y)", "sleep", "0.1", "mouseup", "1",
        ])
    }

    /// A click `fraction` of the way along the amplitude's bar in `editor`.
    func clickAmplitude(in editor: Editor, atFraction fraction: Double) throws {
        let amplitude = CLAPEditorTests.amplitudeRow(width: editor.width)
        let x = editor.x + amplitude.barX + Int(Double(amplitude.barWidth) * fraction)
        try xdotool(["mousemove", "--sync", "\(x)", "\(editor.y + amplitude.barY)", "click", "1"])
    }

    @discardableResult
    func xdotool(_ arguments: [String]) throws -> String {
        let result = try CLAPTools.run(try TestTools.require("xdotool"), arguments, environment: ["DISPLAY": name], timeout: 60)
        guard result.status == 0 else { throw CLAPTestError("xdotool \(arguments.joined(separator: " ")): \(result.output)") }
        return result.stdout
    }

    struct Editor: CustomStringConvertible {
        let window: String
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        var description: String { "window \(window) at \(x),\(y) \(width)x\(height)" }
    }

    /// The editor's window that the test host shows, once the host has reported it shown
    /// and it is mapped, and where it is.
    func waitForEditor(of host: RunningTool, timeout: Double = 120) throws -> Editor {
        try host.waitForReport("gui_shown", timeout: timeout)
        var found: Editor?
        try host.waitFor("the editor window mapped", timeout: timeout) {
            found = try window(named: "^ToneShaper editor$")
            return found != nil
        }
        guard let found else { throw CLAPTestError("no editor window") }
        return found
    }

    /// The editor's window once it is mapped, shown by whatever program `alive` watches,
    /// polled until `timeout` seconds pass.
    func waitForEditor(timeout: Double = 120, alive: () -> Bool) throws -> Editor {
        let deadline = TestTools.monotonicSeconds() + timeout
        while true {
            guard alive() else { throw CLAPTestError("the host ended before its editor window appeared") }
            if let editor = try window(named: "^ToneShaper editor$") { return editor }
            guard TestTools.monotonicSeconds() < deadline else { throw CLAPTestError("the editor window did not appear within \(Int(timeout)) s") }
            usleep(50_000)
        }
    }

    /// The first visible window whose name matches `pattern`, and where it is; nil when none is.
    func window(named pattern: String) throws -> Editor? {
        let found = try CLAPTools.run(
            try TestTools.require("xdotool"), ["search", "--onlyvisible", "--name", pattern], environment: ["DISPLAY": name], timeout: 60)
        guard found.status == 0, let window = found.stdout.split(separator: "\n").first.map(String.init) else { return nil }
        let geometry = try CLAPTools.run(
            try TestTools.require("xdotool"), ["getwindowgeometry", "--shell", window], environment: ["DISPLAY": name], timeout: 60)
        // A window gone between the search and this is not there.
        guard geometry.status == 0 else { return nil }
        var values: [String: Int] = [:]
        for line in geometry.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"] else { return nil }
        return Editor(window: window, x: x, y: y, width: width, height: height)
    }

    /// Writes `window` (or the rectangle `box`: x, y, width, height of it) as a PNG and
    /// returns the share of its pixels that differ from the first one's color. The file's
    /// directory is made first: xshot prints the share, then fails to write the PNG into a
    /// directory that is not there (a fresh machine's /tmp, when a test that does not make it
    /// comes first).
    @discardableResult
    func screenshot(_ file: URL, window: String, box: [Int] = []) throws -> Double {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try CLAPTools.run(
            try TestTools.xshot().path, [file.path, window] + box.map(String.init), environment: ["DISPLAY": name], timeout: 60)
        guard result.status == 0, let share = Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CLAPTestError("xshot \(file.path) (status \(result.status)): \(result.output)")
        }
        return share
    }
}
