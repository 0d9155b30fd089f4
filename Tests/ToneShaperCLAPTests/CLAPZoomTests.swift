import Foundation
import Testing
import ToneShaperTestSupport

/// The window's zoom control in the project's CLAP host: the plugin asks the host for the
/// zoomed size (clap.gui's request_resize), the host resizes its window and calls set_size,
/// as a DAW does, and the window draws at the new size.
@Suite struct CLAPZoomTests {
    /// The zoom control clicked to 125 % and then 150 %: the host is asked for 1125 × 525
    /// and then 1350 × 630 (1.5 times 900 × 420), its window and the editor in it take that
    /// size, and the editor draws all of it (the part beyond the old size too).
    @Test(.enabled(if: CLAPEditorTests.available))
    func theZoomControlResizesTheHostsWindow() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let host = try display.startHost([], environment: ["TONESHAPER_UI_TRACE": "1", "TONESHAPER_UI_TIMING": "1"])
        let editor = try display.waitForEditor(of: host)
        #expect(editor.width == 900 && editor.height == 420, "\(editor)")
        try display.drawn(host)
        try EditorZoom.stepTo150(display: display.name) { width, height in
            try host.waitFor("the host's window resized to \(width)x\(height)") { host.reports("gui_resized").contains("\(width)x\(height)") }
        }
        var windows: (host: EditorZoom.Window?, editor: EditorZoom.Window?)
        try host.waitFor("the host's window and the editor at 1350x630") {
            windows = (
                try EditorZoom.window(named: "^claphost$", display: display.name),
                try EditorZoom.window(named: "^ToneShaper editor$", display: display.name)
            )
            return windows.host?.width == 1350 && windows.host?.height == 630 && windows.editor?.width == 1350 && windows.editor?.height == 630
        }
        try host.waitFor("the editor's redraw at 1350x630") { host.stderr.contains("points at 1350x630:") }
        let grown = try #require(windows.editor)
        let whole = try EditorZoom.drawnShare(CLAPEditorTests.shots.appendingPathComponent("zoom-150.png"), window: grown.id, display: display.name)
        let beyond = try EditorZoom.drawnShare(
            CLAPEditorTests.shots.appendingPathComponent("zoom-150-beyond.png"), window: grown.id, box: [0, 420, 1350, 210], display: display.name)
        #expect(whole > 0.5 && beyond > 0.3, "drawn shares: the window \(whole), below the old size \(beyond)")
        print("CLAP zoom 150 %: window 1350x630, drawn shares \(whole) (whole), \(beyond) (below the old size)")
        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.number("gui_resizes") == 2, "\(result.stdout)")
        #expect(host.stderr.contains("zoom 150 %: asked the host for 1350x630, taken"), "\(host.stderr.suffix(2000))")
        #expect(!result.stdout.contains("x_error") && !result.stdout.contains("gui_resize_refused"), "\(result.stdout)")
    }
}
