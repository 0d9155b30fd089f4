import Foundation
import JackTimeline
import Testing
import ToneShaperLV2Description
import ToneShaperTestSupport

extension LV2EditorHostTests {
    /// A shape opened in the LV2 window, in the project's own UI host (which holds the
    /// control ports as a host does and answers "controls" and "save FILE" on its standard
    /// input): the host's ports take the shape's values (the window writes them as a knob
    /// would), and the plugin's state is the shape's; Ctrl+Z plays the document from before
    /// again (the snapshot the plugin wrote of it when the window asked) with the ports back
    /// at their old values; Ctrl+Shift+Z the shape again; Save as writes what plays into the
    /// user's folder. The window's snapshots are gone once it closes.
    @Test(.enabled(if: available && LV2Tools.have("xdotool")))
    func aShapeOpenedInTheWindowMovesTheHostsPortsAndIsOneUndoStep() throws {
        try LV2Tools.prepare()
        let display = try XDisplay()
        let host = try LV2Tools.compiledTool("lv2uihost", ["-ldl", "-lm", "-lpthread", "-lcairo"])
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shapes = directory.appendingPathComponent("data/toneshaper/shapes")
        try FileManager.default.createDirectory(at: shapes, withIntermediateDirectories: true)
        try ShapeFixture.mine.write(to: shapes.appendingPathComponent("mine.toneshaper"), atomically: true, encoding: .utf8)
        let runtime = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let tool = try RunningTool(
            host.path, Self.pluginArguments() + ["--commands", "--seconds", "0.1"],
            environment: [
                "DISPLAY": display.name, "TONESHAPER_UI_TRACE": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
                "XDG_RUNTIME_DIR": runtime.path,
            ])
        try tool.waitFor("the window") { tool.stdout.contains("windows: 1 open") }
        let editor = try #require(try display.editor(), "no editor window")
        let plotTop = WithJackServer.LV2EditorWindowTests.plotTop
        let symbols = Dictionary(uniqueKeysWithValues: LV2Description.controlPorts.map { ($0.index, $0.symbol) })
        var asked = 0
        func ports() throws -> [String: Double] {
            asked += 1
            try tool.send("controls")
            let line = try tool.waitForReport("controls", count: asked)
            var values: [String: Double] = [:]
            for pair in line.split(separator: ",") {
                let parts = pair.split(separator: "=")
                if parts.count == 2, let index = Int(parts[0]), let value = Double(parts[1]), let symbol = symbols[index] { values[symbol] = value }
            }
            return values
        }
        // The window writes the ports once the plugin says it loaded the document (its notify
        // port), so they follow a little after the load: asked until they hold what they should.
        func ports(becoming wanted: ([String: Double]) -> Bool, _ what: String) throws -> [String: Double] {
            var values: [String: Double] = [:]
            try tool.waitFor(what) {
                values = try ports()
                return wanted(values)
            }
            return values
        }
        var saves = 0
        func state() throws -> [String: Any] {
            saves += 1
            let file = directory.appendingPathComponent("state-\(saves).json")
            try tool.send("save \(file.path)")
            try tool.waitForReport("state_saved", count: saves)
            return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        }
        func loads() -> Int { tool.stderr.components(separatedBy: "document loaded").count - 1 }
        let shape: [String: Double] = ["duration": 1.5, "min_frequency": 200, "max_frequency": 900, "amplitude": 0.25]

        let before = try ports()
        let stateBefore = try state()
        #expect(shape.contains { before[$0.key] != $0.value }, "the default already has the shape's values: \(before)")
        _ = try display.xdotool([
            "mousemove", "--sync", "\(editor.x + editor.width - 260 - 14 - 150)", "\(editor.y + plotTop + 14)",
            "click", "1",
        ])
        try tool.waitFor("the panel's listing") { tool.stderr.contains("lists 1 shapes") }
        _ = try display.xdotool([
            "mousemove", "--sync", "\(editor.x + 52 + 12 + 55)", "\(editor.y + plotTop + 78 + 28)", "click",
            "1",
        ])
        try tool.waitFor("the shape opened and played") { tool.stderr.contains("opens shape mine") && loads() == 1 }
        let opened = try ports(becoming: { values in shape.allSatisfy { values[$0.key] == $0.value } }, "the shape's values in the host's ports")
        let stateOpened = try state()
        #expect((stateOpened["points"] as? [Any])?.count == 4 && stateOpened["duration"] as? Double == 1.5, "\(stateOpened)")

        _ = try display.xdotool(["key", "ctrl+z"])
        try tool.waitFor("the open undone") { tool.stderr.contains("reopens a document kept in") && loads() == 2 }
        _ = try ports(becoming: { $0 == before }, "the ports back at their values from before the open")
        let stateUndone = try state()
        for key in ["points", "duration", "minFrequency", "maxFrequency", "amplitude"] {
            #expect("\(stateUndone[key] ?? "none")" == "\(stateBefore[key] ?? "none")", "\(key) after Ctrl+Z")
        }

        _ = try display.xdotool(["key", "ctrl+shift+z"])
        try tool.waitFor("the open redone") { tool.stderr.components(separatedBy: "reopens a document kept in").count == 3 && loads() == 3 }
        _ = try ports(becoming: { $0 == opened }, "the shape's values in the ports again")
        #expect((try state()["points"] as? [Any])?.count == 4)

        // Save as: the LV2 window has no document of its own to write; it asks the plugin for a
        // snapshot of what plays and saves that into the user's folder under the name typed.
        _ = try display.xdotool([
            "mousemove", "--sync", "\(editor.x + editor.width - 260 - 14 - 150)", "\(editor.y + plotTop + 14)",
            "click", "1",
        ])
        try tool.waitFor("the panel's second listing") { tool.stderr.components(separatedBy: "lists 1 shapes").count == 3 }
        _ = try display.xdotool([
            "mousemove", "--sync", "\(editor.x + 52 + 57)", "\(editor.y + plotTop + 40)", "click", "1",
        ])
        _ = try display.xdotool(["type", "kept"])
        _ = try display.xdotool(["key", "Return"])
        try tool.waitFor("the shape saved") { tool.stderr.contains("saves shape kept") }
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: shapes.appendingPathComponent("kept.toneshaper"))) as? [String: Any]
        #expect((kept?["points"] as? [Any])?.count == 4 && kept?["duration"] as? Double == 1.5, "\(kept ?? [:])")

        try tool.send("quit")
        let result = try tool.finish()
        #expect(result.status == 0, "\(result.output.suffix(3000))")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: runtime.appendingPathComponent("toneshaper").path)) ?? []
        #expect(left.isEmpty, "snapshots left after the window closed: \(left)")
    }
}
