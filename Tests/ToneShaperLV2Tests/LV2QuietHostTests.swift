import Foundation
import JackTimeline
import Testing
import ToneShaperModel
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A musician reads the host's log: what every host does with a new instance (restore its
/// empty default state, run it, save it) and jalv's habits must leave nothing there. Only
/// what is wrong is logged.
extension WithJackServer {
    @Suite struct LV2QuietHostTests {
        /// Instantiated, an empty state restored (a file without properties, as a host restores
        /// the plugin's default state, and a state without any property), run with notes, saved:
        /// not a line in the log, and the state saved holds the document.
        @Test(arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
        func aNewInstanceRestoredRunAndSavedLogsNothing(uri: String) throws {
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let empty = directory.appendingPathComponent("empty-state")
            try Data().write(to: empty)
            let saved = directory.appendingPathComponent("saved-state")
            let script = ["--set", "instrument=1@0", "--set", "scale=0@0", "--note", "64:69:100:3000", "--save-state", saved.path]
            for restore in [["--restore-state", empty.path], ["--hostile", "state-missing"]] {
                let (result, samples) = try LV2HostTests.play(uri, restore + script)
                #expect(result.status == 0, "\(restore): \(result.output)")
                #expect(result.stderr.contains("restore returned 0"), "\(restore): the restore failed: \(result.stderr)")
                #expect(result.number("log_messages") == 0, "\(restore): logged \(result.stderr)")
                #expect(result.number("state_properties") == 1, "\(restore): \(result.stdout)")
                #expect(result.number("first_nonzero").map { (64...65).contains($0) } == true, "\(restore): \(result.stdout)")
                #expect(SignalAnalysis.rms(samples, range: 200..<3000) > 0.003)
            }
        }

        /// jalv.gtk3 (a UI, so it restores the plugin's default state and sends a patch:Get at
        /// the block's length when it starts) on a private JACK server and a private X display:
        /// the plugin logs nothing while it starts and plays.
        @Test(.enabled(if: PrivateJackServer.available && LV2Tools.have("jalv.gtk3", "Xvfb", "stdbuf")))
        func jalvGtkStartsWithoutAWord() throws {
            try LV2Tools.prepare()
            // (Made first, so stopped last: jalv is stopped before its display goes.)
            let xserver = try PrivateXServer(width: 1024, height: 768)
            defer { withExtendedLifetime(xserver) {} }
            let display = xserver.number
            let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("jalv.log")
            let name = "quiet-\(jack.name)"
            try jack.startClient(
                "stdbuf", ["-o0", "-e0", "jalv.gtk3", "-n", name, LV2Tools.monoURI],
                environment: LV2Tools.lv2Path.merging(["DISPLAY": ":\(display)"]) { $1 }, output: log)
            guard jack.waitFor({ jack.ports()?.contains("\(name):out") == true }, seconds: 120) else {
                throw LV2TestError("jalv.gtk3 did not register its ports: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            // Blocks run (and the UI's first messages reach the plugin) while this records.
            let samples = try jack.record("\(name):out", seconds: 1).samples
            #expect(samples.count > 20_000 && SignalAnalysis.allFinite(samples))
            // A problem the plugin meets is handed to its worker after the block and logged
            // then, or, for a kind logged less than a second before, once that second is out:
            // the plugin plays 1.2 s more on JACK's timeline (this recording waits for its
            // frames, however slow the host), so anything it met is in the log by then.
            _ = try jack.record("\(name):out", seconds: 1.2)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(text.contains("JACK Name:"), "jalv.gtk3 did not start: \(text)")
            #expect(!text.contains("toneshaper.lv2"), "the plugin logged in jalv.gtk3:\n\(text)")
        }
    }
}
