import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// Qtractor itself opens the CLAP plugin's editor window and it works there: Qtractor
    /// (Debian's 0.9.31) on a private X display (Xvfb, Qt's xcb platform) and a private dummy
    /// JACK server (``QtractorRig``), the stereo plugin on the Master bus.
    ///
    /// A Qtractor session never opens an editor: it keeps where one was (`editor-pos`) and
    /// nothing else. Qtractor opens one when a plugin is activated in a plugin list (a double
    /// click) with its option to open a plugin's editor rather than its form of parameters.
    /// So the rig starts Qtractor with that option and its mixer window shown, and the test
    /// double-clicks the plugin in the Master bus's output strip, found by its green LED.
    /// Qtractor then makes a window of its own (a QWidget) and gives its X window to the
    /// plugin as the parent (clap.gui, X11, embedded), and calls the plugin's timer
    /// (clap.timer-support, a QTimer) and its watch on the window's X connection
    /// (clap.posix-fd-support, a QSocketNotifier) from its event loop.
    ///
    /// Screenshots are kept in /tmp/qtractor-gui-shots.
    @Suite struct CLAPQtractorEditorTests {
        static var available: Bool {
            CLAPQtractorSessionTests.available && CLAPEditorTests.available
                && TestTools.have("xwininfo", "python3")
        }
        static let shots = URL(fileURLWithPath: "/tmp/qtractor-gui-shots")

        /// The editor tests' shape (``CLAPEditorTests/plotPoint(time:frequency:width:height:)``
        /// places its points): 110 to 440 Hz, a point at (1 s, 330 Hz); silent while JACK's
        /// transport stands (it follows the transport), so the mixer's meters stay dark.
        static let document = """
            {
              "name": "qtractor-editor",
              "duration": 2,
              "minFrequency": 110,
              "maxFrequency": 440,
              "componentType": "Sine",
              "scaleType": "None",
              "echoOffsetTimeSeconds": 0,
              "echoVolume": 1,
              "fidelity": 2000,
              "amplitude": 0.4,
              "transport": true,
              "beats": 0,
              "points": [[0, 220], [1, 330], [2, 220]]
            }
            """

        /// The curve's color (Painting.swift's paintCurve) and the activated plugin's LED in a
        /// Qtractor plugin list (a green unlike the pure greens of a bus strip's icon).
        static let curveColor = "59ccf2"
        static let ledColor = "30ec4d"

        /// Qtractor double-clicked opens the editor inside its own window, mapped, drawn; a
        /// point dragged and a click on the amplitude's bar reach the plugin (heard through
        /// JACK on the transport's timeline, and in the state Qtractor saves) and Qtractor (it
        /// shows the amplitude in its plugin list, where the plugin's amplitude is the
        /// direct-access parameter, and saves it as the plugin's parameter). Qtractor's window
        /// closed, the editor goes and a double-click opens it again, drawing the edited
        /// curve; Qtractor quits cleanly with the editor open.
        @Test(.enabled(if: available, "needs qtractor, jack_transport, Xvfb, xdotool, xwininfo, cc and python3"))
        func qtractorOpensTheEditorWhichDrawsAndTakesTheMouse() async throws {
            try CLAPTools.prepare()
            try FileManager.default.createDirectory(at: Self.shots, withIntermediateDirectories: true)
            let display = try CLAPDisplay()
            let rig = try QtractorRig(document: Self.document, display: display.name, directAccessParam: 6)
            defer { rig.stop() }
            _ = try rig.waitForMasterOutput()

            // The mixer window, and the plugin's LED in it (the upper half: the strips' names
            // and plugin lists; the meters are below).
            let found = try Self.waitFor("Qtractor's mixer window", rig) { try display.window(named: "^Mixer") }
            // Out of the way of the editor's window (Qtractor places it over the middle of the
            // screen's upper part): a window covered has no pixels to read.
            try display.xdotool(["windowmove", "--sync", found.window, "1000", "600"])
            let mixer = try Self.waitFor("the mixer window moved", rig) {
                try display.window(named: "^Mixer").flatMap { $0.x == 1000 ? $0 : nil }
            }
            let led = try Self.waitFor("the plugin in the mixer's Master strip", rig) { () -> (x: Int, y: Int)? in
                let spot = try Self.spot(
                    display, window: mixer.window, color: Self.ledColor, tolerance: 0x40, box: [0, 0, mixer.width, mixer.height / 2])
                return spot.count >= 10 ? (spot.x, spot.y) : nil
            }
            _ = try display.screenshot(Self.shots.appendingPathComponent("1-mixer.png"), window: mixer.window)
            // The plugin's row in the list: its LED, its name and the direct-access bar.
            let row = [max(0, led.x - 8), max(0, led.y - 12), min(70, mixer.width - max(0, led.x - 8)), 16]

            // Double-clicked on its name, right of the LED (the 80 ms between the clicks is the
            // double-click's own pace). The list takes a moment to fill after the window maps,
            // and a double-click before it has is lost: a double-click the editor has not
            // followed within 20 s is made again, twice at most; then the editor is waited for
            // up to the generous deadline. The test fails only when no editor ever shows.
            var editor: CLAPDisplay.Editor?
            for _ in 0..<3 where editor == nil {
                try display.xdotool([
                    "mousemove", "--sync", "\(mixer.x + led.x + 20)", "\(mixer.y + led.y - 4)", "click", "--repeat", "2", "--delay", "80", "1",
                ])
                editor = try? display.waitForEditor(timeout: 20) { rig.qtractorPID != 0 }
            }
            if editor == nil { editor = try? display.waitForEditor(timeout: 120) { rig.qtractorPID != 0 } }
            guard let editor else { throw CLAPTestError("Qtractor did not open the editor window:\n\(rig.log.suffix(3000))") }
            #expect(editor.width == 900 && editor.height == 420, "\(editor)")

            // Inside Qtractor's window tree: its parent is a top-level window of Qtractor's
            // process; and mapped.
            let tree = try CLAPTools.run(
                try TestTools.require("xwininfo"), ["-id", editor.window, "-tree"], environment: ["DISPLAY": display.name], timeout: 60)
            let parentLine = tree.stdout.split(separator: "\n").first { $0.contains("Parent window id:") }.map(String.init) ?? ""
            let parent = parentLine.split(separator: " ").first { $0.hasPrefix("0x") }.map(String.init) ?? ""
            #expect(parentLine.contains("Qtractor"), "the editor's parent is not a Qtractor window: \(tree.output)")
            let parentPID = try display.xdotool(["getwindowpid", parent]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(
                parentPID == String(rig.qtractorPID),
                "the editor's parent \(parentLine) belongs to process \(parentPID), not Qtractor's \(rig.qtractorPID)")
            let info = try CLAPTools.run(
                try TestTools.require("xwininfo"), ["-id", editor.window], environment: ["DISPLAY": display.name], timeout: 60)
            #expect(info.stdout.contains("Map State: IsViewable"), "\(info.output)")
            print("Qtractor's editor: \(editor), parent \(parentLine.trimmingCharacters(in: .whitespaces))")

            // Drawn: the curve's color on the plot, among other colors.
            let curve = try Self.waitFor("the curve drawn in the editor", rig) { () -> Int? in
                let spot = try Self.spot(display, window: editor.window, color: Self.curveColor, tolerance: 0x18)
                return spot.count >= 300 ? spot.count : nil
            }
            let share = try display.screenshot(Self.shots.appendingPathComponent("2-editor-opened.png"), window: editor.window)
            #expect(share > 0.3, "the editor's window is nearly one color (\(share) differs from its first pixel)")
            print("Qtractor's editor drawn: \(curve) pixels of the curve's color, \(share) of the window unlike its first pixel")

            // The point at 1 s, 330 Hz dragged down to 165 Hz; a click a tenth along the
            // amplitude's bar (0...1).
            let rowBefore = try Self.rowPicture(display, mixer: mixer.window, row: row, name: "row-before")
            try display.dragPoint(in: editor, time: 1, from: 330, to: 165)
            try display.clickAmplitude(in: editor, atFraction: 0.1)

            // Qtractor shows the amplitude it took from the plugin's events (its own copy of
            // the parameter, drawn as the plugin's direct-access bar in the mixer).
            let shown = try? Self.waitFor("the amplitude in Qtractor's plugin list", rig) { () -> Bool? in
                try Self.rowPicture(display, mixer: mixer.window, row: row, name: "row-after") != rowBefore ? true : nil
            }
            #expect(shown == true, "Qtractor's plugin list did not change with the amplitude")
            _ = try display.screenshot(Self.shots.appendingPathComponent("3-editor-edited.png"), window: editor.window)
            _ = try display.screenshot(Self.shots.appendingPathComponent("4-mixer-edited.png"), window: mixer.window)

            // Heard through JACK with the transport rolled from its start: about the dragged
            // point's 165 Hz a second into the cycle, at the clicked amplitude.
            let heard = try await CLAPQtractorSessionTests.withRecorderResult(rig) { recorder in
                try recorder.connect([try rig.waitForMasterOutput()])
                return try await Self.take(rig, recorder)
            }
            #expect(abs(heard.frequency / 165 - 1) < 0.04, "\(Int(heard.frequency)) Hz a second into the cycle, not about 165 Hz")
            #expect(abs(heard.level - 0.0975) < 0.012, "the level a second into the cycle is \(heard.level), not the clicked amplitude's")
            print("Qtractor's editor: heard \(heard.frequency) Hz at \(heard.level) a second into the cycle on JACK's transport")

            // Qtractor saves the session: the plugin's state (its points and amplitude) and
            // the amplitude as Qtractor's parameter. The edits reach the plugin within a
            // period or two; a save that came before them is followed by another, until the
            // state has the clicked amplitude or the deadline passes.
            var saved = ""
            var document: [String: Any] = [:]
            let saveDeadline = TestTools.monotonicSeconds() + 120
            repeat {
                saved = try rig.saveSession()
                document = try Self.state(in: saved)
            } while (document["amplitude"] as? Double).map({ abs($0 - 0.4) > 0.01 }) != true && TestTools.monotonicSeconds() < saveDeadline
            let points = try #require(document["points"] as? [[Double]], "\(document)")
            #expect(!points.contains { abs($0[1] - 330) < 1 }, "the point at 330 Hz was not moved: \(points)")
            #expect(points.contains { abs($0[0] - 1) < 0.05 && abs($0[1] - 165) < 12 }, "no point near (1 s, 165 Hz): \(points)")
            let stateAmplitude = try #require(document["amplitude"] as? Double, "\(document)")
            #expect(abs(stateAmplitude - 0.1) < 0.03, "the click a tenth along the bar gave the plugin \(stateAmplitude)")
            let param = saved.split(separator: "\n").first { $0.contains("<param ") && $0.contains("name=\"Amplitude\"") }.map(String.init) ?? ""
            let value = param.split(separator: ">").dropFirst().first.flatMap { Double($0.split(separator: "<").first ?? "") }
            #expect(
                value.map { abs($0 - stateAmplitude) < 1e-4 } == true, "Qtractor saved the amplitude as \(param), the plugin has \(stateAmplitude)")
            print(
                "Qtractor's editor: points \(points), amplitude \(stateAmplitude) in the state, Qtractor's parameter \(param.trimmingCharacters(in: .whitespaces))"
            )

            // Qtractor's window closed (as a window manager's close button does): Qtractor
            // destroys the editor, then its own window; a double-click opens a new editor,
            // which draws the edited curve.
            let closed = try CLAPTools.run(CLAPTools.xclose.path, [parent], environment: ["DISPLAY": display.name], timeout: 60)
            #expect(closed.status == 0, "\(closed.output)")
            _ = try Self.waitFor("the editor window gone", rig) { try display.window(named: "^ToneShaper editor$") == nil ? true : nil }
            try display.xdotool([
                "mousemove", "--sync", "\(mixer.x + led.x + 20)", "\(mixer.y + led.y - 4)", "click", "--repeat", "2", "--delay", "80", "1",
            ])
            let reopened = try display.waitForEditor { rig.qtractorPID != 0 }
            let redrawn = try Self.waitFor("the curve drawn in the reopened editor", rig) { () -> Int? in
                let spot = try Self.spot(display, window: reopened.window, color: Self.curveColor, tolerance: 0x18)
                return spot.count >= 300 ? spot.count : nil
            }
            _ = try display.screenshot(Self.shots.appendingPathComponent("5-editor-reopened.png"), window: reopened.window)
            print("Qtractor's editor closed and opened again: \(reopened), \(redrawn) pixels of the curve's color")

            #expect(rig.qtractorPID != 0, "Qtractor ended:\n\(rig.log.suffix(3000))")
            // Qtractor quits with the editor open (the session saved: nothing to ask): it
            // destroys the editor with the plugin and ends cleanly.
            let ended = rig.stopQtractor()
            #expect(
                ended.map { !$0.signalled && $0.status == 0 } == true, "Qtractor ended with \(String(describing: ended)):\n\(rig.log.suffix(3000))")
            #expect(!rig.log.contains("clap_log: Error"), "the plugin logged an error:\n\(rig.log.suffix(3000))")
            #expect(!rig.log.contains("could not"), "Qtractor could not open the editor as it should:\n\(rig.log.suffix(3000))")
        }

        /// The transport rolled from its start for 1.6 s: the pitch and level of the 0.1 s
        /// around the transport's second 1, judged against the position JACK gave in each period.
        static func take(_ rig: QtractorRig, _ recorder: TimelineRecorder) async throws -> (frequency: Double, level: Double) {
            let rate = recorder.rate
            return try await retryingOnBusyHost("Qtractor's editor: the edited shape on JACK transport") { _ in
                try rig.transport("stop")
                try rig.transport("locate 0")
                _ = try await recorder.start()
                try await recorder.wait(untilRecorded: Int(0.2 * rate))
                try rig.transport("play")
                guard await CLAPQtractorSessionTests.eventually(timeout: 60, { recorder.transportRolling }) else {
                    throw CLAPTestError("jack_transport did not roll")
                }
                try await recorder.wait(untilRecorded: recorder.framesRecorded + Int(1.6 * rate))
                try rig.transport("stop")
                guard await CLAPQtractorSessionTests.eventually(timeout: 60, { !recorder.transportRolling }) else {
                    throw CLAPTestError("jack_transport did not stop")
                }
                let recording = try await recorder.finish(atFrame: recorder.frameNow &+ UInt32(0.2 * rate))
                // The sample whose period JACK placed at 0.95 s, in a stretch with no jump and
                // no lost period up to 1.05 s.
                let window = Int(0.1 * rate)
                let first = Int(0.95 * rate)
                for block in recording.blocks
                where block.rolling && Int(block.transportFrame) <= first && first < Int(block.transportFrame) + block.count {
                    let start = block.index + first - Int(block.transportFrame)
                    let range = start..<(start + window)
                    guard range.upperBound <= recording.samples.count,
                        recording.trustedStretches(within: range).contains(where: { $0 == range })
                    else { continue }
                    let frequency = SignalAnalysis.zeroCrossingFrequency(recording.samples, sampleRate: recording.sampleRate, range: range) ?? 0
                    return (frequency, Double(SignalAnalysis.peak(recording.samples, range: range)))
                }
                throw HostTooBusy("no clean 0.1 s around the transport's second 1")
            }
        }

        /// `condition`'s value once it has one, polled (a tenth of a second between looks)
        /// until `seconds` pass (or Qtractor ends).
        static func waitFor<T>(_ what: String, _ rig: QtractorRig, seconds: Double = 120, _ condition: () throws -> T?) throws -> T {
            let deadline = TestTools.monotonicSeconds() + seconds
            repeat {
                if let value = try condition() { return value }
                guard rig.qtractorPID != 0 else { throw CLAPTestError("Qtractor ended while waiting for \(what):\n\(rig.log.suffix(3000))") }
                usleep(100_000)
            } while TestTools.monotonicSeconds() < deadline
            throw CLAPTestError("no \(what) within \(seconds) s:\n\(rig.log.suffix(3000))")
        }

        /// How many pixels of `window` (or of `box` in it) are near `color`, and the lowest one
        /// (Tests/QtractorSession/xspot.c).
        static func spot(_ display: CLAPDisplay, window: String, color: String, tolerance: Int, box: [Int] = []) throws -> (
            count: Int, x: Int, y: Int
        ) {
            let result = try CLAPTools.run(
                CLAPTools.xspot.path, [window, color, String(tolerance)] + box.map(String.init), environment: ["DISPLAY": display.name], timeout: 60)
            let numbers = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            guard result.status == 0, numbers.count == 3 else { throw CLAPTestError("xspot: \(result.output)") }
            return (numbers[0], numbers[1], numbers[2])
        }

        /// The plugin's row in the mixer's plugin list, as PNG bytes.
        static func rowPicture(_ display: CLAPDisplay, mixer: String, row: [Int], name: String) throws -> Data {
            let file = shots.appendingPathComponent("\(name).png")
            _ = try display.screenshot(file, window: mixer, box: row)
            return try Data(contentsOf: file)
        }

        /// The plugin's state in a session Qtractor saved: its `state` config, base64 of Qt's
        /// qCompress (a length, then zlib), which python3's zlib opens.
        static func state(in session: String) throws -> [String: Any] {
            guard let start = session.range(of: "<config key=\"state\">"),
                let end = session.range(of: "</config>", range: start.upperBound..<session.endIndex)
            else { throw CLAPTestError("no state in the saved session:\n\(session)") }
            let encoded = session[start.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            guard let compressed = Data(base64Encoded: String(encoded)), compressed.count > 4 else {
                throw CLAPTestError("the state is not base64: \(encoded)")
            }
            let file = try CLAPTools.temporaryDirectory().appendingPathComponent("state.zlib")
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            try compressed.dropFirst(4).write(to: file)
            let result = try CLAPTools.run(
                try TestTools.require("python3"),
                ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], 'rb').read()))", file.path], timeout: 60)
            guard result.status == 0, let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
                throw CLAPTestError("the state did not open: \(result.output)")
            }
            return document
        }
    }
}
