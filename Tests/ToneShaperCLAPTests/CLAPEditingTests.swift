import Foundation
import Testing
import ToneShaperTestSupport

/// Issue 43's editing in the plugin's window, through real input (xdotool on Xvfb) in the
/// project's CLAP host, then played: a segment's curvature handle dragged up raises the
/// pitch at the segment's middle; a selection's box stretched by two doubles the points'
/// distances from its centre; a point's frequency typed as `A4+12` plays 443.06 Hz.
@Suite struct CLAPEditingTests {
    static var available: Bool { CLAPEditorTests.available }

    /// Where (time, frequency) is on the plot of a 900x420 window showing a 2 s cycle over
    /// `low`...`high` Hz (logarithmic), unzoomed.
    static func plotPoint(time: Double, frequency: Double, low: Double = 110, high: Double = 440) -> (x: Int, y: Int) {
        let plotWidth = 900.0 - Double(CLAPEditorTests.panelWidth) - CLAPEditorTests.plotLeft - 14
        let plotHeight = 420.0 - CLAPEditorTests.plotTop - CLAPEditorTests.plotBottomMargin
        let x = CLAPEditorTests.plotLeft + time / 2 * plotWidth
        let y = CLAPEditorTests.plotTop + plotHeight - log(frequency / low) / log(high / low) * plotHeight
        return (Int(x.rounded()), Int(y.rounded()))
    }

    /// The document the host saved.
    static func document(_ state: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
    }

    /// The pitch the mono plugin plays `at` seconds into a note (key 69) held from the
    /// start, loaded from `state` (nil: the default shape), over 40 ms around it.
    static func pitch(at seconds: Double, state: URL?) throws -> Double {
        let frames = Int((seconds + 0.1) * 48_000)
        let load = state.map { ["--load-state", $0.path] } ?? []
        let (result, samples) = try CLAPTools.play(CLAPTools.monoID, load + ["--note", "0:69:100"], frames: frames)
        #expect(result.status == 0, "\(result.output)")
        let centre = Int(seconds * 48_000)
        return try #require(SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48_000, range: (centre - 960)..<(centre + 960)))
    }

    /// A CLAP host with its editor open, saving its state into a folder of its own, driven by
    /// `drive`; the host then finishes (status 0 expected) and the state's file comes back.
    static func editing(
        _ arguments: [String] = [], _ drive: (CLAPDisplay, RunningTool, CLAPDisplay.Editor) throws -> Void
    ) throws -> URL {
        try CLAPTools.prepare()
        let display = try CLAPDisplay()
        try FileManager.default.createDirectory(at: CLAPEditorTests.shots, withIntermediateDirectories: true)
        let state = try CLAPTools.temporaryDirectory().appendingPathComponent("state.toneshaper")
        let host = try display.startHost(["--save-state", state.path] + arguments, environment: ["TONESHAPER_UI_TRACE": "1"])
        try drive(display, host, try display.waitForEditor(of: host))
        let result = try host.finish()
        #expect(result.status == 0, "\(result.output)")
        return state
    }

    /// The default shape's first segment (220 Hz at 0 s to 330 Hz at 1 s) bent by dragging
    /// its handle 50 pixels up: c = -0.5, so the middle plays 220 + 110 × 0.75 = 302.5 Hz
    /// where the straight segment plays 275 Hz; the picture's handle went up, so does the pitch.
    @Test(.enabled(if: available))
    func aCurvatureDragMovesThePitchAtTheSegmentsMiddle() throws {
        let state = try Self.editing { display, host, editor in
            try display.drawn(host)
            let handle = Self.plotPoint(time: 0.5, frequency: 275)
            let (x, y) = (editor.x + handle.x, editor.y + handle.y)
            try display.xdotool([
                "mousemove", "--sync", "\(x)", "\(y)", "mousedown", "1", "sleep", "0.1", "mousemove", "\(x)", "\(y - 25)", "sleep", "0.05",
                "mousemove", "\(x)", "\(y - 50)", "sleep", "0.1", "mouseup", "1",
            ])
            try host.waitFor("the window's bent curve sent") { host.stderr.contains("sends 3 points, 1 curved segments") }
            try display.drawn(host)
            _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("curvature-drag.png"), window: editor.window)
        }
        defer { try? FileManager.default.removeItem(at: state.deletingLastPathComponent()) }
        let curvatures = try #require(Self.document(state)["curvatures"] as? [Double], "no curvatures saved")
        #expect(curvatures == [-0.5, 0], "\(curvatures)")
        let straight = try Self.pitch(at: 0.5, state: nil)
        let bent = try Self.pitch(at: 0.5, state: state)
        #expect(abs(straight / 275 - bent / 302.5) < 0.01, "straight \(straight) Hz, bent \(bent) Hz")
        #expect(bent > straight * 1.08, "straight \(straight) Hz, bent \(bent) Hz")
    }

    /// Two points added by clicks (0.75 s, 250 Hz and 1.25 s, 300 Hz), selected with a click
    /// and a Shift-click, stretched by two in time by the selection box's right handle: about
    /// their centre (1 s) they go to 0.5 and 1.5 s, their distances from it doubled.
    @Test(.enabled(if: available))
    func aSelectionStretchedByTwoDoublesItsTimes() throws {
        let state = try Self.editing { display, host, editor in
            try display.drawn(host)
            let a = Self.plotPoint(time: 0.75, frequency: 250)
            let b = Self.plotPoint(time: 1.25, frequency: 300)
            func at(_ p: (x: Int, y: Int)) -> [String] { ["mousemove", "--sync", "\(editor.x + p.x)", "\(editor.y + p.y)"] }
            try display.xdotool(at(a) + ["click", "1"] + at(b) + ["click", "1"])
            try host.waitFor("the two points added") { host.stderr.contains("sends 5 points") }
            try display.xdotool(at(a) + ["click", "1"] + at(b) + ["keydown", "shift", "click", "1", "keyup", "shift"])
            try display.drawn(host)
            // The box's right handle: 6 pixels right of the later point, halfway up the box.
            let centre = Double(a.x + b.x) / 2
            let handle = (x: b.x + 6, y: Int((Double(a.y + b.y) / 2).rounded()))
            let target = (x: Int((centre + 2 * (Double(handle.x) - centre)).rounded()), y: handle.y)
            try display.xdotool(
                at(handle) + [
                    "mousedown", "1", "sleep", "0.1", "mousemove", "\(editor.x + (handle.x + target.x) / 2)", "\(editor.y + handle.y)", "sleep",
                    "0.05",
                ]
                    + at(target) + ["sleep", "0.1", "mouseup", "1"])
            try display.drawn(host, ticks: 4)
            _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("stretched.png"), window: editor.window)
        }
        defer { try? FileManager.default.removeItem(at: state.deletingLastPathComponent()) }
        let points = try #require(Self.document(state)["points"] as? [[Double]])
        #expect(points.count == 5, "\(points)")
        let early = points.first { abs($0[1] - 250) < 3 }
        let late = points.first { abs($0[1] - 300) < 3 }
        #expect(early.map { abs($0[0] - 0.5) < 0.015 } == true, "\(points)")
        #expect(late.map { abs($0[0] - 1.5) < 0.015 } == true, "\(points)")
    }

    /// Each of the default shape's three points double-clicked and given `A4+12` (the range
    /// widened to 880 Hz first, so that it fits): the curve is flat at 440 · 2^(12/1200) =
    /// 443.06 Hz, and the plugin plays that.
    @Test(.enabled(if: available))
    func aTypedNoteWithCentsPlaysItsFrequency() throws {
        let state = try Self.editing(["--flush", "1=880"]) { display, host, editor in
            try host.waitFor("the window's wider range") { host.stderr.contains("shows max-frequency 880") }
            try display.drawn(host)
            // The plugin drew the points over the new range (110...440 Hz mapped onto 110...880 Hz).
            func widened(_ f: Double) -> Double { 110 + (f - 110) * 770 / 330 }
            for (k, point) in [(1.0, 330.0), (0, 220), (2, 220)].enumerated() {
                let p = Self.plotPoint(time: point.0, frequency: widened(point.1), high: 880)
                try display.xdotool([
                    "mousemove", "--sync", "\(editor.x + p.x)", "\(editor.y + p.y)", "click", "--repeat", "2", "--delay", "120", "1", "type",
                    "--delay",
                    "30", "A4+12",
                ])
                try display.xdotool(["key", "Return"])
                try host.waitFor("point \(k) typed") { host.stderr.components(separatedBy: "placed a point at").count == k + 2 }
            }
            try display.drawn(host)
            _ = try display.screenshot(CLAPEditorTests.shots.appendingPathComponent("typed.png"), window: editor.window)
        }
        defer { try? FileManager.default.removeItem(at: state.deletingLastPathComponent()) }
        let points = try #require(Self.document(state)["points"] as? [[Double]])
        #expect(points.count == 3 && points.allSatisfy { abs($0[1] - 443.0604) < 0.01 }, "\(points)")
        let played = try Self.pitch(at: 1, state: state)
        #expect(abs(played - 443.06) < 0.3, "typed A4+12 plays \(played) Hz")
    }
}
