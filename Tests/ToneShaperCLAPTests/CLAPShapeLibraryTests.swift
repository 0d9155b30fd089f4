import Foundation
import Testing
import ToneShaperModel
import ToneShaperTestSupport

/// Issue 43's shape library in the plugin's window (ShapePanel.swift) through clap.gui, on a
/// private X display with real input (xdotool): the panel lists the built-in shapes, then
/// the user's (`$XDG_DATA_HOME/toneshaper/shapes`), then the old folder's; a click on the
/// user's shape has the plugin play that document whole (its saved state is it, the host
/// told with mark_dirty); Ctrl+Z reopens the document as it was, Ctrl+Shift+Z the shape
/// again; Save as with a typed name writes the document as a new file in the shapes folder
/// (a name taken is refused), and Rename renames it.
@Suite struct CLAPShapeLibraryTests {
    /// The built-in shapes the CLAP plugin carries (Sessions/, in name order).
    static var builtIns: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: CLAPTools.repository.appendingPathComponent("Sessions").path))?.filter {
            $0.hasSuffix(".toneshaper")
        }.count ?? 0
    }

    /// At scale 1 and 900x420 (EditorWindow's layout): the Shapes button left of the tuning's,
    /// the Save as button, and card `index` (five to a row, 110 x 62 pixels, from 78 below
    /// the plot's top).
    static func shapesButton(width: Int) -> (x: Int, y: Int) {
        let plotRight = Double(width - CLAPEditorTests.panelWidth) - 14
        return (Int(plotRight - 196 + 46), Int(CLAPEditorTests.plotTop + 14))
    }
    static let saveAs = (x: Int(CLAPEditorTests.plotLeft + 12 + 45), y: Int(CLAPEditorTests.plotTop + 40))
    static let rename = (x: saveAs.x + 96, y: saveAs.y)
    static func card(_ index: Int, width: Int) -> (x: Int, y: Int) {
        let plotWidth = Double(width - CLAPEditorTests.panelWidth) - 14 - CLAPEditorTests.plotLeft
        let cardWidth = (plotWidth - 24) / 5
        let x = CLAPEditorTests.plotLeft + 12 + Double(index % 5) * cardWidth + cardWidth / 2
        return (Int(x), Int(CLAPEditorTests.plotTop + 78 + Double(index / 5) * 62 + 28))
    }

    static func decoded(_ file: URL) throws -> ToneShape { try ToneShapeDocument.decode(Array(try Data(contentsOf: file)), source: file.path) }

    /// Whether `saved` plays `expected`: its points and the parameters compared.
    static func same(_ saved: ToneShape, _ expected: ToneShape) -> Bool {
        saved.points == expected.points && saved.duration == expected.duration && saved.minFrequency == expected.minFrequency
            && saved.maxFrequency == expected.maxFrequency && saved.amplitude == expected.amplitude && saved.scale == expected.scale
    }

    @Test(.enabled(if: CLAPEditorTests.available))
    func aShapeOpenedInTheWindowIsSavedUndoneRedoneAndSavedAs() throws {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shapes = directory.appendingPathComponent("data/toneshaper/shapes")
        let old = directory.appendingPathComponent("data/toneshaper/library")
        for folder in [shapes, old] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try ShapeFixture.mine.write(to: shapes.appendingPathComponent("mine.toneshaper"), atomically: true, encoding: .utf8)
        try ShapeFixture.mine.write(to: old.appendingPathComponent("earlier.toneshaper"), atomically: true, encoding: .utf8)
        let expected = try ToneShapeDocument.decode(ShapeFixture.mine, source: "mine")
        let state = directory.appendingPathComponent("state.toneshaper")
        let host = try display.startHost(
            ["--save-state", state.path],
            environment: ["TONESHAPER_UI_TRACE": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path])
        let editor = try display.waitForEditor(of: host)
        try display.drawn(host)
        let click = { (point: (x: Int, y: Int)) in
            _ = try display.xdotool(["mousemove", "--sync", "\(editor.x + point.x)", "\(editor.y + point.y)", "click", "1"])
        }
        /// The state saved now, decoded.
        var saves = 0
        let saved = { () throws -> ToneShape in
            saves += 1
            let file = directory.appendingPathComponent("state-\(saves).toneshaper")
            try host.send("save \(file.path)")
            try host.waitForReport("state_saved", count: saves)
            return try Self.decoded(file)
        }
        let before = try saved()
        #expect(!Self.same(before, expected))

        // The panel: the built-ins, mine, then the old folder's.
        try click(Self.shapesButton(width: editor.width))
        try host.waitFor("the window's listing") { host.stderr.contains("lists \(Self.builtIns + 2) shapes") }
        try display.drawn(host)
        try FileManager.default.createDirectory(at: CLAPEditorTests.shots, withIntermediateDirectories: true)
        _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("shapes-1-panel.png"), window: editor.window)

        try click(Self.card(Self.builtIns, width: editor.width))
        try host.waitFor("the shape opened and the host told") { host.stderr.contains("opens shape mine") && !host.reports("state_dirty").isEmpty }
        try display.drawn(host)
        _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("shapes-2-opened.png"), window: editor.window)
        let opened = try saved()
        #expect(Self.same(opened, expected), "\(opened)")

        _ = try display.xdotool(["key", "ctrl+z"])
        try host.waitFor("the open undone") { host.stderr.components(separatedBy: "reopens a document").count == 2 }
        let undone = try saved()
        #expect(Self.same(undone, before), "\(undone)")

        _ = try display.xdotool(["key", "ctrl+shift+z"])
        try host.waitFor("the open redone") { host.stderr.components(separatedBy: "reopens a document").count == 3 }
        #expect(Self.same(try saved(), expected))

        // Save as: a name typed, the document playing written beside mine; the same name again is refused.
        try click(Self.shapesButton(width: editor.width))
        try click(Self.saveAs)
        _ = try display.xdotool(["type", "kept"])
        _ = try display.xdotool(["key", "Return"])
        try host.waitFor("the shape saved") { host.stderr.contains("saves shape kept") }
        #expect(Self.same(try Self.decoded(shapes.appendingPathComponent("kept.toneshaper")), expected))
        // The pointer is on Save as still (mousemove --sync to where it is waits out xdotool's timeout).
        _ = try display.xdotool(["click", "1"])
        _ = try display.xdotool(["type", "kept"])
        _ = try display.xdotool(["key", "Return"])
        try display.drawn(host)
        _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("shapes-3-exists.png"), window: editor.window)
        #expect(host.stderr.components(separatedBy: "saves shape kept").count == 2)
        // Rename of the shape saved (the card chosen): its name offered, replaced by the one typed.
        try click(Self.rename)
        _ = try display.xdotool(["type", "renamed"])
        _ = try display.xdotool(["key", "Return"])
        try host.waitFor("the shape renamed") { host.stderr.contains("renames shape to renamed") }

        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.same(try Self.decoded(state), expected))
        let listed = try FileManager.default.contentsOfDirectory(atPath: shapes.path).sorted()
        #expect(listed == ["mine.toneshaper", "renamed.toneshaper"], "\(listed)")
        #expect(Self.same(try Self.decoded(shapes.appendingPathComponent("renamed.toneshaper")), expected))
    }
}
