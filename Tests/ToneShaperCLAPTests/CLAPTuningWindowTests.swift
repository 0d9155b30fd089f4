import Foundation
import Testing
import ToneShaperModel
import ToneShaperTestSupport

/// The editor window's tuning panel (TuningPanel.swift) through clap.gui, on a private X
/// display: it names the tuning the plugin plays, lists the Scala files in
/// `$XDG_DATA_HOME/toneshaper/tunings`, and a click on one (xdotool) has the plugin load it;
/// the window then shows the new tuning and the saved state carries the files' texts.
@Suite struct CLAPTuningWindowTests {
    /// At scale 1 and 900x420: the plot's right edge (EditorWindow's layout, as
    /// ``CLAPEditorTests/plotPoint(time:frequency:width:height:)`` reads it), the panel's
    /// button in its top right corner, the file rows from 112 pixels below its top, 24 apart.
    static func button(width: Int) -> (x: Int, y: Int) {
        let plotRight = Double(width - CLAPEditorTests.panelWidth) - 14
        return (Int(plotRight - 96 + 46), Int(CLAPEditorTests.plotTop + 4 + 10))
    }
    static func fileRow(_ index: Int) -> (x: Int, y: Int) { (200, Int(CLAPEditorTests.plotTop + 112 + 24 * Double(index) + 10)) }

    @Test(.enabled(if: CLAPEditorTests.available))
    func aTuningFileChosenInTheWindowPlaysAndTheWindowShowsIt() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tunings = directory.appendingPathComponent("data/toneshaper/tunings")
        try FileManager.default.createDirectory(at: tunings, withIntermediateDirectories: true)
        try TuningFixture.nineteenEDO.write(to: tunings.appendingPathComponent("19-edo.scl"), atomically: true, encoding: .utf8)
        try TuningFixture.twelveKeyMap.write(to: tunings.appendingPathComponent("twelve.kbm"), atomically: true, encoding: .utf8)
        try "not a tuning".write(to: tunings.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state.toneshaper")
        let host = try display.startHost(
            ["--save-state", state.path],
            environment: ["TONESHAPER_UI_TRACE": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path])
        let editor = try display.waitForEditor(of: host)
        try host.waitFor("the window's word that it shows no tuning") { host.stderr.contains("shows tuning 12-TET, 0 degrees") }

        let button = Self.button(width: editor.width)
        try display.xdotool(["mousemove", "--sync", "\(editor.x + button.x)", "\(editor.y + button.y)", "click", "1"])
        try display.drawn(host)
        try FileManager.default.createDirectory(at: CLAPEditorTests.shots, withIntermediateDirectories: true)
        _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("tuning-1-files.png"), window: editor.window)

        let scale = Self.fileRow(0)
        try display.xdotool(["mousemove", "--sync", "\(editor.x + scale.x)", "\(editor.y + scale.y)", "click", "1"])
        try host.waitFor("the window's word that it shows 19-EDO") {
            host.stderr.contains("loads tuning file 19-edo.scl") && host.stderr.contains("shows tuning 19 equal divisions of the octave, 19 degrees")
        }
        // The second row is the map: notes.txt (between them by name) is not listed.
        let map = Self.fileRow(1)
        try display.xdotool(["mousemove", "--sync", "\(editor.x + map.x)", "\(editor.y + map.y)", "click", "1"])
        try host.waitFor("the window's word that it shows the map") {
            host.stderr.contains("loads tuning file twelve.kbm")
                && host.stderr.components(separatedBy: "shows tuning 19 equal divisions of the octave, 19 degrees").count == 3
        }
        try display.drawn(host)
        _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("tuning-2-loaded.png"), window: editor.window)

        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        let saved = try ToneShapeDocument.decode(Array(try Data(contentsOf: state)), source: "state")
        #expect(
            saved.tuning == (try Tuning(scale: TuningFixture.nineteenEDO, keyboardMap: TuningFixture.twelveKeyMap)),
            "\(String(describing: saved.tuning))")
    }
}
