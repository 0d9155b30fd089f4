import Foundation
import JackTimeline
import Testing
import ToneShaperModel
import ToneShaperTestSupport

extension WithJackServer.LV2EditorWindowTests {
    /// The LV2 window's tuning panel in jalv.gtk3: a scale chosen in its list of
    /// `$XDG_DATA_HOME/toneshaper/tunings` goes to the plugin as a host's file chooser's
    /// would (a patch:Set of the scale file parameter, an atom:Path), the plugin's worker
    /// loads it (its log says so), and the plugin tells the window the tuning playing (a
    /// patch:Set of urn:toneshaper:tuning on the notify port), which shows it as the CLAP
    /// and VST3 windows do: 12-TET at first (the answer to its patch:Get), then the scale.
    @Test(.enabled(if: available))
    func aTuningFileChosenInTheLV2WindowIsLoadedByThePluginAndShown() throws {
        try LV2Tools.prepare()
        let display = try XDisplay()
        let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
        defer { jack.stop() }
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tunings = directory.appendingPathComponent("data/toneshaper/tunings")
        try FileManager.default.createDirectory(at: tunings, withIntermediateDirectories: true)
        try TuningFixture.nineteenEDO.write(to: tunings.appendingPathComponent("19-edo.scl"), atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("jalv.log")
        let (_, _, editor) = try Self.startEditor(
            jack, display: display, arguments: [], log: log, environment: ["XDG_DATA_HOME": directory.appendingPathComponent("data").path])
        func logged(_ text: String) -> Bool { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(text) }
        #expect(jack.waitFor({ logged("redraw of") }, seconds: 120), "the editor never drew")
        #expect(jack.waitFor({ logged("shows tuning 12-TET, 0 degrees") }, seconds: 120), "the window was not told the tuning at its start")
        // The tuning's button in the plot's top right corner, then the first file's row
        // (EditorWindow's layout at scale 1, as CLAPTuningWindowTests reads it).
        try display.xdotool([
            "mousemove", "--sync", "\(editor.x + editor.width - 260 - 14 - 50)", "\(editor.y + Self.plotTop + 14)", "click", "1",
        ])
        // The window reads its X events in order: the row's click finds the panel open.
        try display.xdotool(["mousemove", "--sync", "\(editor.x + 200)", "\(editor.y + Self.plotTop + 112 + 10)", "click", "1"])
        let loaded = jack.waitFor({ logged("loads tuning file 19-edo.scl") && logged("scale loaded") }, seconds: 120)
        #expect(loaded, "the plugin did not load the scale:\n\(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(2000))")
        let shown = jack.waitFor({ logged("shows tuning 19 equal divisions of the octave, 19 degrees") }, seconds: 120)
        #expect(shown, "the window does not show the scale:\n\(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(2000))")
    }
}
