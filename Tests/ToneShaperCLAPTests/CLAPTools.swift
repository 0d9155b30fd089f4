import Foundation
import ToneShaperTestSupport

/// The built CLAP plugin and the tools its tests drive: the plugin (built with
/// Scripts/build-clap.sh when missing), the project's CLAP test host, its LV2 test host, and
/// the window tools (xshot, xspot, xclose) and Qtractor's stand-in sequencer, all compiled
/// once per test process (``TestTools/compiled(_:into:flags:)``) by ``prepare()``, before the
/// first test starts a host; and a runner.
enum CLAPTools {
    static let repository = TestTools.repository
    static let plugin = repository.appendingPathComponent(".build/clap/toneshaper.clap")
    static let lv2SharedObject = repository.appendingPathComponent(".build/lv2/toneshaper.lv2/toneshaper.so")
    static let monoID = "org.toneshaper.instrument"
    static let stereoID = "org.toneshaper.instrument-stereo"

    /// The tools, compiled by ``prepare()`` (their source and flags in ``tools``).
    static let host = repository.appendingPathComponent(".build/clap-host/claphost")
    static let lv2Host = repository.appendingPathComponent(".build/lv2-host/lv2host")
    static let xspot = repository.appendingPathComponent(".build/qtractor-session/xspot")
    static let xclose = repository.appendingPathComponent(".build/qtractor-session/xclose")
    static let sequencerStandin = repository.appendingPathComponent(".build/qtractor-session/sequencer_standin.so")

    /// Each tool's source, binary and compiler flags: the CLAP test host; the LV2 suites' host
    /// (compiled as they compile it); how many pixels of a window are near a color (xspot) and
    /// a window closed as a window manager closes it (xclose), for Qtractor's editor; an empty
    /// ALSA sequencer for Qtractor (the stand-in).
    static let tools: [(source: String, binary: String, flags: [String], needs: String?)] = [
        ("Tests/CLAPHost/claphost.c", ".build/clap-host/claphost", ["-std=gnu11", "-ldl", "-lm", "-lpthread", "-lX11"], nil),
        ("Tests/LV2Host/lv2host.c", ".build/lv2-host/lv2host", ["-ldl", "-lm", "-lpthread"], nil),
        ("Tests/QtractorSession/xspot.c", ".build/qtractor-session/xspot", ["-lX11"], "Xvfb"),
        ("Tests/QtractorSession/xclose.c", ".build/qtractor-session/xclose", ["-lX11"], "Xvfb"),
        (
            "Tests/QtractorSession/sequencer_standin.c", ".build/qtractor-session/sequencer_standin.so", ["-std=gnu11", "-shared", "-fPIC"],
            "qtractor"
        ),
    ]

    /// The plugins built when missing, then every tool the suites run compiled: once per test
    /// process, whichever test comes first; the error says what failed.
    static let prepared: Swift.Result<Void, CLAPTestError> = {
        do {
            for (product, script) in [(plugin, "build-clap.sh"), (lv2SharedObject, "build-lv2.sh")]
            where !FileManager.default.fileExists(atPath: product.path) {
                let result = try run("/bin/bash", [repository.appendingPathComponent("Scripts/\(script)").path], timeout: 900)
                guard result.status == 0 else { throw CLAPTestError("Scripts/\(script) failed:\n\(result.output)") }
            }
            for tool in tools where tool.needs.map({ TestTools.have($0) }) ?? true {
                _ = try TestTools.compiled(tool.source, into: tool.binary, flags: tool.flags)
            }
            if TestTools.have("Xvfb") { _ = try TestTools.xshot() }
            return .success(())
        } catch let error as CLAPTestError {
            return .failure(error)
        } catch {
            return .failure(CLAPTestError("\(error)"))
        }
    }()

    static func prepare() throws { try prepared.get() }

    /// Runs a tool to completion (killed after `timeout` seconds), in the repository (the
    /// hostile states read Sessions/).
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws -> ToolResult {
        try ToolResult.run(tool, arguments, environment: environment, directory: repository, timeout: timeout)
    }

    /// Raw float32 samples a host wrote with --out.
    static func samples(_ url: URL) throws -> [Float] { try ToolResult.samples(url) }

    static func temporaryDirectory() throws -> URL { try TestTools.temporaryDirectory("toneshaper-clap") }

    /// The CLAP host's run of `arguments` (after --clap and --id) and its output samples.
    static func play(
        _ id: String = monoID, _ arguments: [String], clap: URL = plugin, frames: Int = 4_800, block: Int = 256,
        environment: [String: String] = [:]
    ) throws -> (result: ToolResult, samples: [Float]) {
        try prepare()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.f32")
        let result = try run(
            host.path,
            ["--clap", clap.path, "--id", id, "--frames", String(frames), "--block", String(block), "--out", out.path] + arguments,
            environment: environment)
        return (result, (try? samples(out)) ?? [])
    }

    /// The LV2 test host's run of the mono plugin.
    static func playLV2(
        _ arguments: [String], frames: Int = 4_800, block: Int = 256, environment: [String: String] = [:]
    ) throws -> (result: ToolResult, samples: [Float]) {
        try prepare()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.f32")
        let result = try run(
            lv2Host.path,
            [
                "--so", lv2SharedObject.path, "--uri", "urn:toneshaper:instrument", "--frames", String(frames), "--block", String(block), "--out",
                out.path,
            ]
                + arguments, environment: environment)
        return (result, (try? samples(out)) ?? [])
    }
}

struct CLAPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
