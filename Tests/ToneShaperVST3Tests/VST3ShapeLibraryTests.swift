import Foundation
import Testing
import ToneShaperModel
import ToneShaperTestSupport

/// The VST3 editor's shape library on a private X server: the user's shape clicked in the
/// panel (xdotool) plays whole through the VST3 shell's link, the host told to read the
/// values again (restartComponent); Ctrl+Z reopens the document as it was and Ctrl+Shift+Z
/// the shape again, which the state saved at the end holds.
@Suite struct VST3ShapeLibraryTests {
    static let available = TestTools.have("Xvfb", "xdotool")

    @Test(.enabled(if: available))
    func aShapeOpenedInTheWindowIsUndoneRedoneAndSaved() throws {
        try VST3Tools.prepare()
        let display = try PrivateXServer(width: 1600, height: 1200)
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shapes = directory.appendingPathComponent("data/toneshaper/shapes")
        try FileManager.default.createDirectory(at: shapes, withIntermediateDirectories: true)
        try ShapeFixture.mine.write(to: shapes.appendingPathComponent("mine.toneshaper"), atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state.vstpreset")
        let host = try RunningTool(
            VST3Tools.host.path, ["--vst3", VST3Tools.bundle.path, "--gui", "--save-state", state.path],
            environment: ["DISPLAY": display.name, "TONESHAPER_UI_TRACE": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path],
            directory: VST3Tools.repository)
        _ = try host.waitForReport("gui_shown")
        func xdotool(_ arguments: [String]) throws {
            let result = try ToolResult.run(try TestTools.require("xdotool"), arguments, environment: ["DISPLAY": display.name])
            guard result.status == 0 else { throw XServerError("xdotool \(arguments): \(result.output)") }
        }
        var geometry: [String: Int] = [:]
        try host.waitFor("the editor window mapped") {
            let search = try? ToolResult.run(
                try TestTools.require("xdotool"), ["search", "--onlyvisible", "--name", "^ToneShaper editor$"], environment: ["DISPLAY": display.name]
            )
            guard let window = search?.stdout.split(separator: "\n").first,
                let shell = try? ToolResult.run(
                    try TestTools.require("xdotool"), ["getwindowgeometry", "--shell", String(window)], environment: ["DISPLAY": display.name])
            else { return false }
            for line in shell.stdout.split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2 { geometry[String(parts[0])] = Int(parts[1]) }
            }
            return geometry["X"] != nil && geometry["WIDTH"] == 900
        }
        let x = try #require(geometry["X"])
        let y = try #require(geometry["Y"])
        // The Shapes button, then card 14 (after the 14 built-ins), as CLAPShapeLibraryTests reads the layout.
        try xdotool(["mousemove", "--sync", "\(x + 900 - 260 - 14 - 150)", "\(y + 40 + 14)", "click", "1"])
        try host.waitFor("the panel's listing") { host.stderr.contains("lists 15 shapes") }
        try xdotool(["mousemove", "--sync", "\(x + 52 + 12 + 4 * 110 + 55)", "\(y + 40 + 78 + 2 * 62 + 28)", "click", "1"])
        try host.waitFor("the shape opened and the host told") { host.stderr.contains("opens shape mine") && !host.reports("restart").isEmpty }
        try xdotool(["key", "ctrl+z"])
        try host.waitFor("the open undone") { host.stderr.components(separatedBy: "reopens a document").count == 2 }
        try xdotool(["key", "ctrl+shift+z"])
        try host.waitFor("the open redone") { host.stderr.components(separatedBy: "reopens a document").count == 3 }
        try host.send("quit")
        let result = try host.finish()
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        let saved = try ToneShapeDocument.decode(Array(try Data(contentsOf: state)), source: "state")
        let expected = try ToneShapeDocument.decode(ShapeFixture.mine, source: "mine")
        #expect(saved.points == expected.points && saved.minFrequency == expected.minFrequency && saved.amplitude == expected.amplitude, "\(saved)")
    }
}
