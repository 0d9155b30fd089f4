import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer.LV2EditorWindowTests {
    /// The LV2 window's shape library in jalv.gtk3: the panel lists the bundle's built-in
    /// shapes, then `$XDG_DATA_HOME/toneshaper/shapes`; a click on the user's shape goes to
    /// the plugin as a host's file chooser's document would (a patch:Set of its file
    /// parameter): the plugin loads the document (its log says so) and sends the window its
    /// curve (four points, where the default shape has three). (The host's ports following
    /// the document, the undo and Save as: ``LV2EditorHostTests``, in the project's own host,
    /// which tells the ports' values.)
    @Test(.enabled(if: available))
    func aShapeOpenedInTheLV2WindowIsPlayedWhole() throws {
        try LV2Tools.prepare()
        let display = try XDisplay()
        let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
        defer { jack.stop() }
        let directory = try LV2Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shapes = directory.appendingPathComponent("data/toneshaper/shapes")
        try FileManager.default.createDirectory(at: shapes, withIntermediateDirectories: true)
        try ShapeFixture.mine.write(to: shapes.appendingPathComponent("mine.toneshaper"), atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("jalv.log")
        let (_, _, editor) = try Self.startEditor(
            jack, display: display, arguments: [], log: log, environment: ["XDG_DATA_HOME": directory.appendingPathComponent("data").path])
        func logged(_ text: String) -> Bool { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(text) }
        func tail() -> String { String(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(2000)) }
        #expect(jack.waitFor({ logged("redraw of") }, seconds: 120), "the editor never drew")
        // The Shapes button left of the tuning's, then card 14 (after the 14 built-ins), as
        // CLAPShapeLibraryTests reads EditorWindow's layout at scale 1.
        try display.xdotool([
            "mousemove", "--sync", "\(editor.x + editor.width - 260 - 14 - 150)", "\(editor.y + Self.plotTop + 14)", "click", "1",
        ])
        #expect(jack.waitFor({ logged("lists 15 shapes") }, seconds: 120), "the panel did not list the shapes:\n\(tail())")
        try display.xdotool([
            "mousemove", "--sync", "\(editor.x + 52 + 12 + 4 * 110 + 55)", "\(editor.y + Self.plotTop + 78 + 2 * 62 + 28)", "click", "1",
        ])
        let opened = jack.waitFor({ logged("opens shape mine") && logged("document loaded") && logged("shows 4 points") }, seconds: 120)
        #expect(opened, "the plugin did not play the shape:\n\(tail())")
    }
}
