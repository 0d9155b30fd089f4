import Foundation
import JackTimeline
import Synchronization
import Testing
import ToneShaperControl
import ToneShaperLV2Description
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// The plugin's editor window (toneshaper_ui.so) in jalv.gtk3, a real host that embeds it
/// through suil, on a private X display (Xvfb) and a private dummy JACK server; gestures
/// made with xdotool, the plugin recorded on JACK's timeline.
extension WithJackServer {
    @Suite struct LV2EditorWindowTests {
        static var available: Bool { PrivateJackServer.available && LV2Tools.have("jalv.gtk3", "Xvfb", "xdotool", "stdbuf", "cc") }

        /// Where the curve's plot lies in the window at scale 1 (EditorWindow's layout):
        /// its left and top edges, and how far its bottom is from the window's bottom.
        static let plotLeft = 52
        static let plotTop = 40
        static let plotBottomMargin = 30

        /// The middle of the amplitude's bar on the screen and its width (EditorWindow's
        /// layout at scale 1: rows of 36 pixels from 10 down the panel of the right 260
        /// pixels, each bar 12 pixels in from the panel's sides, halfway down its row).
        static func amplitudeBar(_ editor: EditorGeometry) -> (x: Int, y: Int, width: Int) {
            // The editor's rows are the table's editor rows, in their places (ControlRow.rows()).
            let row = ParameterTable.editorRows.firstIndex { $0.id == .amplitude }!
            let panel = editor.x + editor.width - 260
            return (panel + 12, editor.y + 10 + row * 36 + 18 + 6, 260 - 24)
        }

        /// The window of the editor and its place on the screen.
        struct EditorGeometry {
            let window: String
            let x: Int
            let y: Int
            let width: Int
            let height: Int
        }

        /// A constant 300 Hz shape (one point) over a 300-600 Hz range.
        static var constantShape: ToneShape {
            var shape = ToneShape.defaultShape
            shape.points = [CurvePoint(time: 0, frequency: 300)]
            shape.duration = 1
            shape.minFrequency = 300
            shape.maxFrequency = 600
            shape.scale = .none
            shape.amplitude = 0.5
            return shape
        }

        /// `shape` as a state directory jalv loads with -l: the document and the ports' values.
        static func state(of shape: ToneShape, in directory: URL) throws -> URL {
            let state = directory.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            let json = String(decoding: ToneShapeDocument.encode(shape), as: UTF8.self)
            let ports = LV2Description.controlPorts.map { port in
                "[ lv2:symbol \"\(port.symbol)\" ; pset:value \(LV2Description.turtleNumber(LV2Description.portValues(of: shape)[port.row])) ]"
            }
            let prefixes = """
                @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
                @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
                @prefix state: <http://lv2plug.in/ns/ext/state#> .

                """
            try (prefixes + "<state.ttl> a pset:Preset ; lv2:appliesTo <\(LV2Tools.monoURI)> ; rdfs:seeAlso <state.ttl> .\n")
                .write(to: state.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
            let escaped = json.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            try
                (prefixes + "<> a pset:Preset ; lv2:appliesTo <\(LV2Tools.monoURI)> ; lv2:port \(ports.joined(separator: " , ")) ;\n"
                + "    state:state [ <\(LV2Description.documentURI)> \"\"\"\(escaped)\"\"\" ] .\n")
                .write(to: state.appendingPathComponent("state.ttl"), atomically: true, encoding: .utf8)
            return state
        }

        /// jalv.gtk3 showing the editor on `display`; its JACK name, console and the editor's window.
        static func startEditor(
            _ jack: PrivateJackServer, display: XDisplay, arguments: [String], log: URL, environment: [String: String] = [:]
        ) throws -> (
            name: String, input: FileHandle, editor: EditorGeometry
        ) {
            let name = "ui-\(jack.name)"
            let (_, input) = try jack.startClient(
                "stdbuf", ["-o0", "-e0", "jalv.gtk3", "-x", "-n", name] + arguments + [LV2Tools.monoURI],
                environment: LV2Tools.lv2Path.merging(["DISPLAY": display.name, "TONESHAPER_UI_TIMING": "1", "TONESHAPER_UI_TRACE": "1"]) { $1 }
                    .merging(environment) { $1 },
                output: log)
            guard jack.waitFor({ jack.ports()?.contains("\(name):out") == true }, seconds: 120) else {
                throw LV2TestError("jalv.gtk3 did not register its ports: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            var found: EditorGeometry?
            _ = jack.waitFor(
                {
                    found = try? display.editor()
                    return found != nil
                }, seconds: 120)
            guard let editor = found else {
                throw LV2TestError("no editor window appeared: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            return (name, input, editor)
        }

        /// The editor appears in jalv.gtk3 with the curve of the state jalv restored (the
        /// songbird's, asked for with patch:Get) and draws it (a screenshot, not blank, kept
        /// in .build/lv2-editor.png; with TONESHAPER_UPDATE_REFERENCE=1 it becomes the plugin
        /// article's picture); made smaller, it redraws at its new size.
        @Test(.enabled(if: available))
        func editorAppearsAndRedrawsWhenResized() throws {
            try LV2Tools.prepare()
            let display = try XDisplay()
            let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("jalv.log")
            let songbird = try #require(try LV2DescriptionTests.builtInDocuments().first { $0.name == "songbird" }).shape
            let state = try Self.state(of: songbird, in: directory)
            let (_, _, editor) = try Self.startEditor(jack, display: display, arguments: ["-l", state.path], log: log)
            #expect(editor.width >= 600 && editor.height >= 300, "the editor's size: \(editor.width)x\(editor.height)")
            let shown = jack.waitFor(
                { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("redraw of \(songbird.points.count) points") }, seconds: 120)
            #expect(shown, "the editor did not draw the songbird's \(songbird.points.count) points")
            // The redraw's line comes after its pixels went to the X server: the picture has them.
            let shot = LV2Tools.repository.appendingPathComponent(".build/lv2-editor.png")
            let drawn = try display.screenshot(to: shot, window: editor.window)
            #expect(drawn > 0.5, "the editor's window is mostly one color: \(drawn) of its pixels differ from the first")
            if ProcessInfo.processInfo.environment["TONESHAPER_UPDATE_REFERENCE"] == "1" {
                let picture = LV2Tools.repository.appendingPathComponent("Sources/ToneShaperManual/ToneShaper.docc/Resources/plugin-editor.png")
                try? FileManager.default.removeItem(at: picture)
                try FileManager.default.copyItem(at: shot, to: picture)
            }
            // Smaller: every pixel of the new size drawn again (an undrawn window is black).
            try display.xdotool(["windowsize", editor.window, "640", "360"])
            let redrawnSmaller = jack.waitFor({ ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("at 640x360") }, seconds: 120)
            #expect(redrawnSmaller, "no redraw at 640x360")
            let resized = try #require(try display.editor())
            #expect(resized.width == 640 && resized.height == 360)
            let small = directory.appendingPathComponent("small.png")
            let redrawn = try display.screenshot(to: small, window: editor.window)
            #expect(redrawn > 0.5, "after the resize \(redrawn) of the pixels differ from the first")
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(text.contains("at 640x360"), "no redraw at the new size:\n\(text.suffix(2000))")
            #expect(!text.contains("toneshaper.lv2:"), "the plugin logged:\n\(text.suffix(2000))")
        }

        /// On a constant 300 Hz shape over 300-600 Hz, the point dragged to the top of the
        /// plot makes the plugin play 600 Hz; Ctrl+Z, typed as a user types it (the click took
        /// the keyboard), brings 300 Hz back. Each change is found
        /// in the recording by its effect, within a bound after the frame the gesture began
        /// at (an X event cannot be placed on JACK's timeline); the time from there to the
        /// end of the first 20 ms nearer the new pitch than the old is printed: the
        /// edit-to-sound time at 256 frames, xdotool's own start included.
        @Test(.enabled(if: available))
        func draggingThePointChangesThePitchAndUndoRestoresIt() async throws {
            try LV2Tools.prepare()
            let display = try XDisplay()
            let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("jalv.log")
            let state = try Self.state(of: Self.constantShape, in: directory)
            let (name, _, editor) = try Self.startEditor(jack, display: display, arguments: ["-l", state.path], log: log)
            let recorder = try TimelineRecorder(serverName: jack.name, name: "uirec")
            try recorder.connect(["\(name):out"])
            let rate = Double(jack.rate)
            func frames(_ seconds: Double) -> UInt32 { UInt32(seconds * rate) }
            // The editor has the restored state (its range and its one point, which the default
            // shape's one point is not) once it has said so and drawn after it.
            let restored = ["shows min-frequency 300.0000", "shows max-frequency 600.0000", "shows 1 points"]
            let drawnRestored = jack.waitFor(
                {
                    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    let last = restored.compactMap { text.range(of: $0, options: .backwards)?.upperBound }
                    return last.count == restored.count && text[last.max()!...].contains("redraw of 1 points")
                }, seconds: 120)
            guard drawnRestored else {
                throw LV2TestError("the editor never drew the restored shape: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            let x = editor.x + Self.plotLeft
            let bottom = editor.y + editor.height - Self.plotBottomMargin
            let top = editor.y + Self.plotTop

            /// Makes the gesture, and returns the pitch before it, the pitch after it and
            /// how long after the gesture's end the new pitch was heard.
            func change(_ what: String, expecting: Double, prepare: () throws -> Void = {}, gesture: () throws -> Void) async throws -> (
                Double, Double, Double
            ) {
                try await retryingOnBusyHost(what) { _ in
                    let first = try await recorder.start()
                    try await recorder.wait(untilRecorded: Int(frames(0.6)))
                    try prepare()
                    let sent = recorder.frameNow
                    try gesture()
                    let done = recorder.frameNow
                    let recording = try await recorder.finish(atFrame: done &+ frames(1.5))
                    let samples = recording.samples
                    let before = try RecordingAnalysis.medianFrequency(
                        samples, sampleRate: rate,
                        stretches: recording.trustedStretches(within: recording.indices(from: first &+ frames(0.1), to: sent)),
                        piece: Int(frames(0.1)), minimumPieces: 2)
                    let sentAt = try recording.requireIndex(ofFrame: sent, "the gesture's start")
                    let window = Int(frames(0.01))
                    let heard = try #require(
                        stride(from: sentAt, to: samples.count - window * 2, by: window / 2).first { start in
                            guard let f = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: rate, range: start..<(start + window * 2)) else {
                                return false
                            }
                            return abs(f - expecting) < abs(f - before)
                        }, "\(what): the pitch never moved towards \(expecting) Hz")
                    let delay = Double(heard + window * 2 - sentAt) / rate
                    if delay > 0.5 { throw HostTooBusy(String(format: "%@: heard %.3f s after the gesture", what, delay)) }
                    let after = try RecordingAnalysis.medianFrequency(
                        samples, sampleRate: rate,
                        stretches: recording.trustedStretches(within: recording.indices(from: done &+ frames(0.6), to: recording.endFrame)),
                        piece: Int(frames(0.1)), minimumPieces: 3)
                    return (before, after, delay)
                }
            }

            // Pressed on the point first; the drag itself is one move to the top and the release.
            let (start, dragged, dragDelay) = try await change(
                "drag to the top", expecting: 600,
                prepare: { try display.xdotool(["mousemove", "--sync", "\(x)", "\(bottom)", "mousedown", "1", "sleep", "0.1"]) },
                gesture: { try display.xdotool(["mousemove", "\(x)", "\(top)", "sleep", "0.05", "mouseup", "1"]) })
            #expect(abs(start - 300) < 0.5, "the constant shape played \(start) Hz")
            #expect(abs(dragged - 600) < 0.5, "the point dragged to the top played \(dragged) Hz")
            print(String(format: "edit to sound (a drag to the top to the new pitch, jalv, 256 frames): %.1f ms", dragDelay * 1000))

            let (_, undone, undoDelay) = try await change(
                "Ctrl+Z", expecting: 300, gesture: { try display.xdotool(["key", "ctrl+z"]) })
            #expect(abs(undone - 300) < 0.5, "Ctrl+Z played \(undone) Hz")
            print(String(format: "edit to sound (Ctrl+Z to the old pitch): %.1f ms", undoDelay * 1000))

            // A port the window writes reaches the plugin through the host: a click at a tenth
            // of the amplitude's bar (0...1, the table's range) takes the level from 0.5 to 0.1.
            let ratio = try await retryingOnBusyHost("amplitude bar") { _ in
                let first = try await recorder.start()
                try await recorder.wait(untilRecorded: Int(frames(0.5)))
                let sent = recorder.frameNow
                let bar = Self.amplitudeBar(editor)
                try display.xdotool(["mousemove", "--sync", "\(bar.x + bar.width / 10)", "\(bar.y)", "click", "1"])
                let recording = try await recorder.finish(atFrame: sent &+ frames(1.0))
                let loud = recording.contiguousStretch(within: recording.indices(from: first &+ frames(0.05), to: sent))
                let quiet = recording.contiguousStretch(within: recording.indices(from: sent &+ frames(0.5), to: recording.endFrame))
                guard loud.count > 4_800, quiet.count > 4_800 else { throw HostTooBusy("no 0.1 s without a missed period on both sides") }
                return SignalAnalysis.rms(recording.samples, range: quiet) / SignalAnalysis.rms(recording.samples, range: loud)
            }
            #expect(abs(ratio - 0.2) < 0.02, "amplitude 0.1 against 0.5 gave a level ratio of \(ratio)")
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(!text.contains("toneshaper.lv2:"), "the plugin logged:\n\(text.suffix(2000))")
        }
    }
}

/// A private X display (Xvfb) for a test, stopped with it; xdotool and screenshots on it.
/// Tests that run at once each get their own: a number no other display holds, taken in turn
/// within the process, and tried again with the next one if Xvfb finds it taken.
final class XDisplay {
    private let server: PrivateXServer
    var number: Int { server.number }
    var name: String { server.name }

    init() throws { server = try PrivateXServer(width: 1280, height: 800) }

    @discardableResult
    func xdotool(_ arguments: [String]) throws -> String {
        let result = try LV2Tools.run("xdotool", arguments, environment: ["DISPLAY": name], timeout: 20)
        guard result.status == 0 else { throw LV2TestError("xdotool \(arguments.joined(separator: " ")): \(result.output)") }
        return result.stdout
    }

    /// The editor's window (named "ToneShaper editor") and where it is on the screen.
    func editor() throws -> LV2EditorWindowTests_Geometry? {
        let found = try LV2Tools.run(
            "xdotool", ["search", "--onlyvisible", "--name", "^ToneShaper editor$"], environment: ["DISPLAY": name], timeout: 20)
        guard found.status == 0, let window = found.stdout.split(separator: "\n").first.map(String.init) else { return nil }
        let shell = try xdotool(["getwindowgeometry", "--shell", window])
        var values: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        guard let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"] else { return nil }
        return LV2EditorWindowTests_Geometry(window: window, x: x, y: y, width: w, height: h)
    }

    /// Writes `window` as a PNG (Tests/LV2Host/xshot.c) and returns the share of its pixels
    /// that differ from the first one's color.
    func screenshot(to file: URL, window: String) throws -> Double {
        let tool = try TestTools.xshot()
        let result = try LV2Tools.run(tool.path, [file.path, window], environment: ["DISPLAY": name], timeout: 20)
        guard result.status == 0, let share = Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw LV2TestError("xshot: \(result.output)")
        }
        return share
    }
}

typealias LV2EditorWindowTests_Geometry = WithJackServer.LV2EditorWindowTests.EditorGeometry
