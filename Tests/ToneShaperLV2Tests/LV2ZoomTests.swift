import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

extension WithJackServer {
    /// The window's zoom control in jalv.gtk3, a real LV2 host, on a private X display: the
    /// UI asks the host for the zoomed size (ui:resize, which suil offers), and jalv's window
    /// grows to hold it.
    @Suite struct LV2ZoomTests {
        /// The zoom control clicked to 125 % and then 150 %: the editor becomes 1125 × 525
        /// and then 1350 × 630 (1.5 times 900 × 420), jalv's own window grows past that
        /// size, and the editor draws all of it.
        @Test(.enabled(if: LV2EditorWindowTests.available))
        func theZoomControlGrowsJalvsWindow() throws {
            try LV2Tools.prepare()
            let display = try XDisplay()
            let jack = try PrivateJackServer(prefix: "lv2zoom", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("jalv.log")
            func said() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
            let (_, _, editor) = try LV2EditorWindowTests.startEditor(jack, display: display, arguments: [], log: log)
            #expect(jack.waitFor({ said().contains("points at 900x420:") }, seconds: 120), "no first redraw at 900x420: \(said().suffix(2000))")
            let before = try #require(try EditorZoom.topLevel(of: editor.window, display: display.name), "no jalv window")
            #expect(before.id != editor.window, "the editor has no host's window around it")
            try EditorZoom.stepTo150(display: display.name) { width, height in
                let grown = jack.waitFor(
                    {
                        (try? EditorZoom.window(named: "^ToneShaper editor$", display: display.name)).flatMap { $0 }.map {
                            $0.width == width && $0.height == height
                        } == true
                    },
                    seconds: 120)
                if !grown { throw LV2TestError("the editor never became \(width)x\(height): \(said().suffix(2000))") }
            }
            var jalv: EditorZoom.Window?
            let held = jack.waitFor(
                {
                    jalv = try? EditorZoom.topLevel(of: editor.window, display: display.name)
                    return jalv.map { $0.width >= 1350 && $0.height >= 630 } == true
                }, seconds: 120)
            #expect(held, "jalv's window \(before) did not grow to hold 1350x630: \(String(describing: jalv))")
            #expect(jack.waitFor({ said().contains("points at 1350x630:") }, seconds: 120), "no redraw at 1350x630: \(said().suffix(2000))")
            let whole = try EditorZoom.drawnShare(directory.appendingPathComponent("zoom-150.png"), window: editor.window, display: display.name)
            let beyond = try EditorZoom.drawnShare(
                directory.appendingPathComponent("beyond.png"), window: editor.window, box: [0, 420, 1350, 210], display: display.name)
            #expect(whole > 0.5 && beyond > 0.3, "drawn shares: the window \(whole), below the old size \(beyond)")
            #expect(said().contains("zoom 150 %: asked the host for 1350x630, taken"), "\(said().suffix(2000))")
            #expect(!said().contains("toneshaper.lv2:"), "the plugin logged:\n\(said().suffix(2000))")
            print("jalv's window: \(before.width)x\(before.height) at 100 %, \(jalv.map { "\($0.width)x\($0.height)" } ?? "?") at 150 %")
        }
    }
}
