import Foundation
import Testing
import ToneShaperTestSupport

/// Issue 43's "copy in the window and paste in the browser gives the same curve", through the
/// display's real CLIPBOARD: the plugin's editor window (the CLAP test host on Xvfb, driven by
/// xdotool) and the node's editor page in Chromium on the same display (not headless: a
/// headless Chromium has a clipboard of its own), driven by Tests/Browser/clipboard_test.py.
@Suite struct CLAPClipboardTests {
    static var available: Bool {
        CLAPEditorTests.available && PrivateJackServer.available && TestTools.have("chromium", "chromedriver", "python3")
            && ((try? ToolResult.run(try TestTools.require("python3"), ["-c", "import selenium"]).status) == 0)
    }

    /// The plugin's curve: its 2 s and 110...440 Hz (the plugin's defaults, and the node's
    /// document's, so no point is moved to fit), two of its three segments bent.
    static let windowsCurve: (points: [[Double]], curvatures: [Double]) = ([[0, 220], [0.5, 380], [1.25, 150], [2, 300]], [0.5, -0.25, 0])
    /// What the page copies back: another curve over the same span, one segment bent.
    static let pagesCurve: (points: [[Double]], curvatures: [Double]) = ([[0, 330], [1, 180], [2, 400]], [0, 0.75])

    static func document(_ curve: (points: [[Double]], curvatures: [Double])) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "points": curve.points, "curvatures": curve.curvatures, "duration": 2, "minFrequency": 110, "maxFrequency": 440,
        ])
    }

    /// The window selects all and copies (Ctrl+A, Ctrl+C: it owns the CLIPBOARD); the page
    /// pastes (Ctrl+V) and the node's curve is the plugin's, points and curvatures. Then the
    /// other way: the page copies another curve, the window pastes it, and the plugin's state
    /// is that curve.
    @Test(.enabled(if: available, "needs Xvfb, xdotool, jackd, chromium, chromedriver and python3 with selenium"))
    func aCurveCopiedInTheWindowPastesInTheBrowserAndBack() throws {
        try CLAPTools.prepare()
        let scratch = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bent = scratch.appendingPathComponent("bent.toneshaper")
        try Self.document(Self.windowsCurve).write(to: bent)
        // The node starts with a flat curve over the same span.
        let flat = scratch.appendingPathComponent("flat.toneshaper")
        try Self.document(([[0, 200], [2, 200]], [0])).write(to: flat)

        let display = try CLAPDisplay()
        let jack = try PrivateJackServer()
        let node = try RunningTool(
            TestTools.builtProduct("toneshaper"), ["run", flat.path, "--no-auto-connect", "--osc-port", "0", "--http-port", "0"],
            environment: jack.environment.merging(["TONESHAPER_LIBRARY": scratch.path]) { $1 })
        let state = scratch.appendingPathComponent("state.toneshaper")
        let host = try display.startHost(["--load-state", bent.path, "--save-state", state.path], environment: ["TONESHAPER_UI_TRACE": "1"])
        let editor = try display.waitForEditor(of: host)
        try display.drawn(host)

        // Keys for the window: the X focus given to it first (Chromium takes the focus when
        // its window opens, and no window manager hands it back), the pointer over an empty
        // part of the plot. The display, and so its CLIPBOARD, is this test's alone.
        let keys = { (chords: [String]) in
            try display.xdotool(
                ["windowfocus", editor.window, "mousemove", "\(editor.x + 300)", "\(editor.y + 60)", "key", "--delay", "50"]
                    + chords)
        }
        try keys(["ctrl+a", "ctrl+c"])
        try host.waitFor("the window owning the CLIPBOARD") { host.stderr.contains("owns the CLIPBOARD: copied 4 points") }

        // The page, on the same display, pastes what the window copied.
        let url = try node.waitForReport("Editor", timeout: 60)
        let script = TestTools.repository.appendingPathComponent("Tests/Browser/clipboard_test.py").path
        let page = try RunningTool(try TestTools.require("python3"), [script, url], environment: ["DISPLAY": display.name])
        try page.waitForReport("ready", timeout: 120)
        try page.send("paste")
        let pasted = try JSONSerialization.jsonObject(with: Data(try page.waitForReport("pasted", timeout: 60).utf8)) as? [String: Any]
        #expect(pasted?["points"] as? [[Double]] == Self.windowsCurve.points, "\(String(describing: pasted))")
        #expect(pasted?["curvatures"] as? [Double] == Self.windowsCurve.curvatures, "\(String(describing: pasted))")

        // The other way: the page copies, the window pastes.
        var arguments: [Any] = Array(Self.pagesCurve.points.joined())
        arguments.append("curvatures")
        arguments += Self.pagesCurve.curvatures as [Any]
        try page.send("copy " + String(decoding: try JSONSerialization.data(withJSONObject: arguments), as: UTF8.self))
        _ = try page.waitForReport("copied", timeout: 60)
        let sent = host.stderr.components(separatedBy: "sends 3 points, 1 curved segments").count
        try keys(["ctrl+v"])
        try host.waitFor("the window's pasted curve sent to the plugin") {
            host.stderr.components(separatedBy: "sends 3 points, 1 curved segments").count > sent
        }
        let pageResult = try page.finish()
        #expect(pageResult.status == 0, "\(pageResult.output)")
        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        #expect(saved["points"] as? [[Double]] == Self.pagesCurve.points, "\(saved)")
        #expect(saved["curvatures"] as? [Double] == Self.pagesCurve.curvatures, "\(saved)")
        node.process.terminate()
        node.process.waitUntilExit()
    }
}
