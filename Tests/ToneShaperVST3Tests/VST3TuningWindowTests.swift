import Foundation
import Testing
import ToneShaperTestSupport

/// The VST3 editor's tuning panel on a private X server: a Scala file chosen in the window's
/// list (xdotool) reaches the plugin through the VST3 shell's link, and the window shows
/// the tuning the plugin then plays.
@Suite struct VST3TuningWindowTests {
    static let available = TestTools.have("Xvfb", "xdotool")

    @Test(.enabled(if: available))
    func aTuningFileChosenInTheWindowReachesThePlugin() throws {
        try VST3Tools.prepare()
        let display = try PrivateXServer(width: 1600, height: 1200)
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tunings = directory.appendingPathComponent("data/toneshaper/tunings")
        try FileManager.default.createDirectory(at: tunings, withIntermediateDirectories: true)
        try TuningFixture.nineteenEDO.write(to: tunings.appendingPathComponent("19-edo.scl"), atomically: true, encoding: .utf8)
        let host = try RunningTool(
            VST3Tools.host.path, ["--vst3", VST3Tools.bundle.path, "--gui"],
            environment: ["DISPLAY": display.name, "TONESHAPER_UI_TRACE": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path],
            directory: VST3Tools.repository)
        _ = try host.waitForReport("gui_shown")
        try host.waitFor("the window's word that it shows no tuning") { host.stderr.contains("shows tuning 12-TET, 0 degrees") }
        // The window's place on the screen, then its tuning button and first file row (the
        // layout at scale 1 and 900x420, as CLAPTuningWindowTests reads it).
        func xdotool(_ arguments: [String]) throws -> String {
            let result = try ToolResult.run(try TestTools.require("xdotool"), arguments, environment: ["DISPLAY": display.name])
            guard result.status == 0 else { throw XServerError("xdotool \(arguments): \(result.output)") }
            return result.stdout
        }
        var geometry: [String: Int] = [:]
        try host.waitFor("the editor window mapped") {
            guard let window = try? xdotool(["search", "--onlyvisible", "--name", "^ToneShaper editor$"]).split(separator: "\n").first,
                let shell = try? xdotool(["getwindowgeometry", "--shell", String(window)])
            else { return false }
            for line in shell.split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2 { geometry[String(parts[0])] = Int(parts[1]) }
            }
            return geometry["X"] != nil && geometry["WIDTH"] == 900
        }
        let x = try #require(geometry["X"])
        let y = try #require(geometry["Y"])
        _ = try xdotool(["mousemove", "--sync", "\(x + 900 - 260 - 14 - 50)", "\(y + 40 + 14)", "click", "1"])
        try host.send("ticks 2")
        _ = try host.waitForReport("ticked")
        _ = try xdotool(["mousemove", "--sync", "\(x + 200)", "\(y + 40 + 112 + 10)", "click", "1"])
        try host.waitFor("the window's word that it shows 19-EDO") {
            host.stderr.contains("loads tuning file 19-edo.scl") && host.stderr.contains("shows tuning 19 equal divisions of the octave, 19 degrees")
        }
        try host.send("quit")
        let result = try host.finish()
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        #expect(result.number("refcount_problems") == 0, "\(result.stdout)")
    }
}
