import Foundation
import Testing
import ToneShaperLV2Description

/// The editor window in the project's own UI test host (Tests/LV2Host/lv2uihost.c) on a
/// private X display: the plugin plays on the host's audio thread (no JACK) while windows
/// open, close and take hostile input.
@Suite struct LV2EditorHostTests {
    static var available: Bool { LV2Tools.have("Xvfb", "cc") }

    /// The host's arguments for the mono plugin: its audio port and every control port at
    /// its default.
    static func pluginArguments(stereo: Bool = false) -> [String] {
        let controls = LV2Description.controlPorts(stereo: stereo).map { "\($0.index)=\(LV2Description.turtleNumber($0.defaultValue))" }
        return [
            LV2Tools.bundle.path, "--audio", String(LV2Description.audioPorts(stereo: stereo)[0]), "--controls", controls.joined(separator: ","),
            "--descriptor", stereo ? "1" : "0",
        ]
    }

    static func runHost(_ display: XDisplay, _ arguments: [String], timing: Bool = false, stereo: Bool = false) throws -> LV2Tools.ToolResult {
        try LV2Tools.prepare()
        let host = try LV2Tools.compiledTool("lv2uihost", ["-ldl", "-lm", "-lpthread", "-lcairo"])
        var environment = ["DISPLAY": display.name]
        if timing { environment["TONESHAPER_UI_TIMING"] = "1" }
        return try LV2Tools.run(host.path, pluginArguments(stereo: stereo) + arguments, environment: environment, timeout: 600)
    }

    /// Two plugins with a window each, both windows closed and opened again three times
    /// while the plugins play, and every window given malformed patch messages (cut short
    /// at every length, sizes that lie, other types), NaN and infinite numbers in the
    /// points and the ports, unknown ports and no buffer: nothing crashes, the plugins play
    /// finite samples throughout; for the mono plugin and the stereo one (whose later ports
    /// sit one further on).
    @Test(.enabled(if: available), arguments: [false, true])
    func twoWindowsReopenedWhilePlayingTakeHostileInput(stereo: Bool) throws {
        let display = try XDisplay()
        let result = try Self.runHost(display, ["--instances", "2", "--reopen", "3", "--hostile", "--seconds", "0.5"], stereo: stereo)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("windows: 2 open, 900x420"), "\(result.output)")
        #expect(result.stdout.contains("finite 1"), "\(result.output)")
        #expect(!result.stdout.contains("peak 0.0000"), "the plugins were silent: \(result.output)")
    }

    /// A curve of 100,000 points given to the window and drawn 21 times: the median redraw
    /// (the goal is under 4 ms, a 240 Hz screen's frame; a busy machine gets until a 60 Hz
    /// frame) and the resident memory are printed.
    @Test(.enabled(if: available))
    func aCurveOf100000PointsRedrawsWithinAFrame() throws {
        let display = try XDisplay()
        let result = try Self.runHost(display, ["--points", "100000", "--redraws", "21", "--seconds", "0.2"], timing: true)
        #expect(result.status == 0, "\(result.output)")
        let times = result.stderr.split(separator: "\n").filter { $0.contains("redraw of 100000 points") }.compactMap { line in
            line.split(separator: " ").dropLast().last.flatMap { Double($0) }
        }.sorted()
        try #require(times.count >= 21, "\(result.output)")
        let median = times[times.count / 2]
        print(String(format: "redraw of a 100,000-point curve at 900x420: median %.2f ms, fastest %.2f ms", median, times[0]))
        if let memory = result.stdout.split(separator: "\n").first(where: { $0.hasPrefix("resident:") }) { print(memory) }
        #expect(median < 16.7, "the median redraw took \(median) ms")
    }

    /// Ardour's inline display: the plugin asks for a redraw once its curve is known and
    /// draws a picture of it (the curve's color in every column) at the size asked.
    @Test(.enabled(if: available))
    func inlineDisplayDrawsTheCurve() throws {
        let display = try XDisplay()
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let picture = directory.appendingPathComponent("inline.png")
        let result = try Self.runHost(display, ["--inline", picture.path, "--seconds", "0.2"])
        #expect(result.status == 0, "\(result.output)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("inline:") }, "\(result.output)")
        #expect(line.hasPrefix("inline: 160x64,"), "\(line)")
        #expect(!line.contains("queue_draw 0,"), "the plugin never asked for a redraw: \(line)")
        let curve = Int(line.split(separator: " ").last ?? "") ?? 0
        #expect(curve >= 160 * 2, "\(line)")
        #expect(FileManager.default.fileExists(atPath: picture.path))
    }

    /// A document the host gives the plugin while the window is open (a file parameter, as
    /// a host's file button sends it) reaches the window: it draws the new curve's points.
    @Test(.enabled(if: available))
    func theWindowFollowsADocumentTheHostLoads() throws {
        let display = try XDisplay()
        let songbird = LV2Tools.repository.appendingPathComponent("Sessions/songbird.toneshaper")
        let count = try #require(try LV2DescriptionTests.builtInDocuments().first { $0.name == "songbird" }).shape.points.count
        let result = try Self.runHost(display, ["--document", songbird.path, "--seconds", "0.2"], timing: true)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("document: shown"), "\(result.output)")
        #expect(result.stderr.contains("redraw of \(count) points"), "the window did not draw songbird's \(count) points:\n\(result.output)")
    }

    /// On a HiDPI screen (the host's ui:scaleFactor 2) the window asks for twice the size
    /// (ui:resize) and draws at it.
    @Test(.enabled(if: available))
    func aScaleFactorOfTwoDoublesTheWindow() throws {
        let display = try XDisplay()
        let result = try Self.runHost(display, ["--scale", "2", "--seconds", "0.2"], timing: true)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("windows: 1 open, 1800x840"), "\(result.output)")
        #expect(result.stderr.contains("at 1800x840"), "\(result.output)")
    }
}
