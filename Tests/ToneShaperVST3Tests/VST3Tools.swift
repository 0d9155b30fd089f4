import Foundation
import ToneShaperTestSupport

/// The built VST3 plugin and the tools its tests drive: the bundle (built with
/// Scripts/build-vst3.sh when missing), the project's VST3 test host (Tests/VST3Host, its own
/// declarations of the ABI), and, to compare with, the CLAP plugin (Scripts/build-clap.sh)
/// in the project's CLAP host; all compiled once per test process
/// (``TestTools/compiled(_:into:flags:)``) by ``prepare()``, before the first test starts a host.
///
/// TONESHAPER_VST3_BUNDLE names another bundle to test (a build of another worktree, say),
/// and TONESHAPER_CLAP_PLUGIN the CLAP plugin to compare it with; neither is rebuilt here.
enum VST3Tools {
    static let repository = TestTools.repository
    static let bundleOverride = ProcessInfo.processInfo.environment["TONESHAPER_VST3_BUNDLE"].flatMap { $0.isEmpty ? nil : $0 }
    static let bundle = bundleOverride.map { URL(fileURLWithPath: $0) } ?? repository.appendingPathComponent(".build/vst3/toneshaper.vst3")
    static let sharedObject = bundle.appendingPathComponent("Contents/x86_64-linux/toneshaper.so")
    /// The CLAP plugin to compare with; TONESHAPER_CLAP_PLUGIN names another build (the one
    /// beside the VST3 bundle under test, made from the same sources), never rebuilt here.
    static let clapOverride = ProcessInfo.processInfo.environment["TONESHAPER_CLAP_PLUGIN"].flatMap { $0.isEmpty ? nil : $0 }
    static let clapPlugin = clapOverride.map { URL(fileURLWithPath: $0) } ?? repository.appendingPathComponent(".build/clap/toneshaper.clap")
    static let clapMonoID = "org.toneshaper.instrument"

    /// The class ids the plugin gives its two classes, for good (Sources/CVST3/entry.c:
    /// a project saved with one finds the plugin by it; each the MD5 of the CLAP plugin's id),
    /// as the host prints them: the TUID's 16 bytes in order, in hex.
    static let monoClassID = "F86493AAEECFBCDBB7CADF1A73D55927"
    static let stereoClassID = "920414C73A90F8264F903663FEDFF65F"

    static let host = repository.appendingPathComponent(".build/vst3-host/vst3host")
    static let clapHost = repository.appendingPathComponent(".build/clap-host/claphost")
    static let pedalboardCheck = repository.appendingPathComponent("Tests/VST3Host/pedalboard_check.py")

    /// Each tool's source, binary and compiler flags: the VST3 test host, and the CLAP test
    /// host as the CLAP suites compile it.
    static let tools: [(source: String, binary: String, flags: [String])] = [
        ("Tests/VST3Host/vst3host.c", ".build/vst3-host/vst3host", ["-ldl", "-lm", "-lX11"]),
        ("Tests/CLAPHost/claphost.c", ".build/clap-host/claphost", ["-std=gnu11", "-ldl", "-lm", "-lpthread", "-lX11"]),
    ]

    /// The plugins built when missing, then the hosts compiled: once per test process,
    /// whichever test comes first; the error says what failed.
    static let prepared: Swift.Result<Void, VST3TestError> = {
        do {
            var builds: [(URL, String)] = clapOverride == nil ? [(clapPlugin, "build-clap.sh")] : []
            if bundleOverride == nil { builds.insert((sharedObject, "build-vst3.sh"), at: 0) }
            for (product, script) in builds where !FileManager.default.fileExists(atPath: product.path) {
                let result = try run("/bin/bash", [repository.appendingPathComponent("Scripts/\(script)").path], timeout: 1_200)
                guard result.status == 0 else { throw VST3TestError("Scripts/\(script) failed:\n\(result.output.suffix(4000))") }
            }
            guard FileManager.default.fileExists(atPath: sharedObject.path) else {
                throw VST3TestError("no VST3 plugin at \(sharedObject.path)")
            }
            for tool in tools { _ = try TestTools.compiled(tool.source, into: tool.binary, flags: tool.flags) }
            return .success(())
        } catch let error as VST3TestError {
            return .failure(error)
        } catch {
            return .failure(VST3TestError("\(error)"))
        }
    }()

    static func prepare() throws { try prepared.get() }

    /// Runs a tool to completion (killed after `timeout` seconds), in the repository.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) throws -> ToolResult {
        try ToolResult.run(tool, arguments, environment: environment, directory: repository, timeout: timeout)
    }

    static func temporaryDirectory() throws -> URL { try TestTools.temporaryDirectory("toneshaper-vst3") }

    /// The VST3 host's run of `arguments` (after --vst3, --class, --frames, --block and --out)
    /// and its output, one array of samples a channel (the WAV file it wrote).
    static func play(
        _ which: String = "mono", _ arguments: [String], frames: Int = 4_800, block: Int = 256, environment: [String: String] = [:]
    ) throws -> (result: ToolResult, channels: [[Float]]) {
        try prepare()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.wav")
        let result = try run(
            host.path,
            ["--vst3", bundle.path, "--class", which, "--frames", String(frames), "--block", String(block), "--out", out.path] + arguments,
            environment: environment)
        guard let wave = try? WaveFile(contentsOf: out) else { return (result, []) }
        return (result, (0..<wave.channels).map { wave.channel($0) })
    }

    /// The first channel of ``play(_:_:frames:block:)``.
    static func playMono(
        _ which: String = "mono", _ arguments: [String], frames: Int = 4_800, block: Int = 256, environment: [String: String] = [:]
    ) throws -> (result: ToolResult, samples: [Float]) {
        let (result, channels) = try play(which, arguments, frames: frames, block: block, environment: environment)
        return (result, channels.first ?? [])
    }

    /// The CLAP host's run of the mono CLAP plugin and its output samples.
    static func playCLAP(_ arguments: [String], frames: Int = 4_800, block: Int = 256) throws -> (result: ToolResult, samples: [Float]) {
        try prepare()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.f32")
        let result = try run(
            clapHost.path,
            ["--clap", clapPlugin.path, "--id", clapMonoID, "--frames", String(frames), "--block", String(block), "--out", out.path] + arguments)
        return (result, (try? ToolResult.samples(out)) ?? [])
    }

    /// The largest difference of two runs' samples, and where the first difference is
    /// (nil when they are the same, sample for sample).
    static func difference(_ a: [Float], _ b: [Float]) -> (largest: Float, first: Int?) {
        guard a.count == b.count else { return (.infinity, 0) }
        var largest: Float = 0
        var first: Int?
        for i in a.indices where a[i] != b[i] {
            largest = max(largest, abs(a[i] - b[i]))
            if first == nil { first = i }
        }
        return (largest, first)
    }

    /// The report's lines that start with `key: `, their values.
    static func lines(_ result: ToolResult, _ key: String) -> [String] {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }
}

struct VST3TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
