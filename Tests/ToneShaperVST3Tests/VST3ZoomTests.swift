import Foundation
import Testing
import ToneShaperTestSupport

/// The window's zoom control in the project's VST3 host: the view asks its frame for the
/// zoomed size (IPlugFrame::resizeView), the host resizes its window and calls onSize, as a
/// DAW does, and the window draws at the new size.
@Suite struct VST3ZoomTests {
    static let available = TestTools.have("Xvfb", "xdotool")

    /// The zoom control clicked to 125 % and then 150 %: the frame is asked for 1125 × 525
    /// and then 1350 × 630 (1.5 times 900 × 420), the host's window and the editor in it take
    /// that size, and the editor draws all of it (the part beyond the old size too).
    @Test(.enabled(if: available))
    func theZoomControlResizesTheHostsWindow() throws {
        try VST3Tools.prepare()
        let display = try PrivateXServer(width: 1920, height: 1080)
        let host = try RunningTool(
            VST3Tools.host.path, ["--vst3", VST3Tools.bundle.path, "--gui"],
            environment: ["DISPLAY": display.name, "TONESHAPER_UI_TRACE": "1", "TONESHAPER_UI_TIMING": "1"], directory: VST3Tools.repository)
        _ = try host.waitForReport("gui_shown")
        try host.waitFor("the editor's first redraw at 900x420") { host.stderr.contains("points at 900x420:") }
        try EditorZoom.stepTo150(display: display.name) { width, height in
            try host.waitFor("the host's window resized to \(width)x\(height)") { host.reports("gui_resized").contains("\(width)x\(height)") }
        }
        var windows: (host: EditorZoom.Window?, editor: EditorZoom.Window?)
        try host.waitFor("the host's window and the editor at 1350x630") {
            windows = (
                try EditorZoom.window(named: "^vst3host$", display: display.name),
                try EditorZoom.window(named: "^ToneShaper editor$", display: display.name)
            )
            return windows.host?.width == 1350 && windows.host?.height == 630 && windows.editor?.width == 1350 && windows.editor?.height == 630
        }
        try host.waitFor("the editor's redraw at 1350x630") { host.stderr.contains("points at 1350x630:") }
        let grown = try #require(windows.editor)
        let directory = try VST3Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try EditorZoom.drawnShare(directory.appendingPathComponent("zoom-150.png"), window: grown.id, display: display.name)
        let beyond = try EditorZoom.drawnShare(
            directory.appendingPathComponent("beyond.png"), window: grown.id, box: [0, 420, 1350, 210], display: display.name)
        #expect(whole > 0.5 && beyond > 0.3, "drawn shares: the window \(whole), below the old size \(beyond)")
        print("VST 3 zoom 150 %: window 1350x630, drawn shares \(whole) (whole), \(beyond) (below the old size)")
        try host.send("quit")
        let result = try host.finish()
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        #expect(result.number("resizes") == 2, "\(result.stdout)")
        #expect(result.stderr.contains("zoom 150 %: asked the host for 1350x630, taken"), "\(result.stderr.suffix(2000))")
        #expect(!result.stdout.contains("x_error") && !result.stdout.contains("gui_resize_refused"), "\(result.stdout)")
        #expect(result.number("refcount_problems") == 0, "\(result.stdout)")
    }
}
