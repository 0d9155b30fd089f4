import Foundation
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The built plugin and the tools the LV2 tests drive: the bundle (built with
/// Scripts/build-lv2.sh when missing), the project's C test host (built with cc when missing
/// or older than its source), and a runner for command-line tools.
enum LV2Tools {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `.build/lv2`: the directory to put on LV2_PATH.
    static let bundleParent = repository.appendingPathComponent(".build/lv2")
    static let bundle = bundleParent.appendingPathComponent("toneshaper.lv2")
    static let sharedObject = bundle.appendingPathComponent("toneshaper.so")
    static let host = repository.appendingPathComponent(".build/lv2-host/lv2host")

    /// `toneshaper-lv2-ttl`, built beside this test bundle.
    static var generator: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("toneshaper-lv2-ttl").path
    }

    static let monoURI = "urn:toneshaper:instrument"
    static let stereoURI = "urn:toneshaper:instrument-stereo"

    /// LV2_PATH for lilv's tools: the built bundle, then the installed specifications.
    static var lv2Path: [String: String] { ["LV2_PATH": bundleParent.path + ":/usr/lib/lv2"] }

    /// Builds what is missing, once per test run, before the first test that needs it: the
    /// plugin, and every C tool the LV2 suites run (the hosts, xshot); the error says what failed.
    static let prepared: Swift.Result<Void, LV2TestError> = {
        do {
            if !FileManager.default.fileExists(atPath: sharedObject.path) {
                let result = try run("/bin/bash", [repository.appendingPathComponent("Scripts/build-lv2.sh").path], timeout: 900)
                guard result.status == 0 else { throw LV2TestError("Scripts/build-lv2.sh failed:\n\(result.output)") }
            }
            _ = try compiledTool("lv2host", ["-ldl", "-lm", "-lpthread"])
            _ = try compiledTool("lv2uihost", ["-ldl", "-lm", "-lpthread", "-lcairo"])
            _ = try TestTools.xshot()
            return .success(())
        } catch let error as LV2TestError {
            return .failure(error)
        } catch {
            return .failure(LV2TestError("\(error)"))
        }
    }()

    static func prepare() throws { try prepared.get() }

    /// Tests/LV2Host/`name`.c compiled into .build/lv2-host/`name`, linked with `libraries`,
    /// once per test process (``TestTools/compiled(_:into:flags:)``).
    static func compiledTool(_ name: String, _ libraries: [String]) throws -> URL {
        try TestTools.compiled("Tests/LV2Host/\(name).c", into: ".build/lv2-host/\(name)", flags: libraries)
    }

    static func path(of name: String) -> String? { TestTools.path(of: name) }

    static func have(_ tools: String...) -> Bool { tools.allSatisfy { TestTools.path(of: $0) != nil } }

    typealias ToolResult = ToneShaperTestSupport.ToolResult

    /// Runs a tool (a name on PATH, or a path) to completion (killed after `timeout` seconds).
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws -> ToolResult {
        try ToolResult.run(tool.hasPrefix("/") ? tool : (path(of: tool) ?? tool), arguments, environment: environment, timeout: timeout)
    }

    /// Runs the C host on `so` (default: the built one) with `arguments` after --so and --uri.
    static func host(_ uri: String, _ arguments: [String], so: URL = sharedObject, timeout: Double = 60) throws -> ToolResult {
        try run(host.path, ["--so", so.path, "--uri", uri] + arguments, timeout: timeout)
    }

    /// Raw float32 samples written by the C host's --out.
    static func samples(_ url: URL) throws -> [Float] { try ToolResult.samples(url) }

    /// A fresh directory for one test, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("toneshaper-lv2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

struct LV2TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
