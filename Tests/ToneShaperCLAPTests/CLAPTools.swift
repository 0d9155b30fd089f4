import Foundation
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The built CLAP plugin and the hosts its tests drive: the plugin (built with
/// Scripts/build-clap.sh when missing), the project's CLAP test host and its LV2 test host
/// (each built with cc when missing or older than its source), and a runner.
enum CLAPTools {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let plugin = repository.appendingPathComponent(".build/clap/toneshaper.clap")
    static let host = repository.appendingPathComponent(".build/clap-host/claphost")
    static let lv2SharedObject = repository.appendingPathComponent(".build/lv2/toneshaper.lv2/toneshaper.so")
    static let lv2Host = repository.appendingPathComponent(".build/lv2-host/lv2host")
    static let monoID = "org.toneshaper.instrument"
    static let stereoID = "org.toneshaper.instrument-stereo"

    static let prepared: Swift.Result<Void, CLAPTestError> = {
        do {
            for (product, script) in [(plugin, "build-clap.sh"), (lv2SharedObject, "build-lv2.sh")]
            where !FileManager.default.fileExists(atPath: product.path) {
                let result = try run("/bin/bash", [repository.appendingPathComponent("Scripts/\(script)").path], timeout: 900)
                guard result.status == 0 else { throw CLAPTestError("Scripts/\(script) failed:\n\(result.output)") }
            }
            try compile(repository.appendingPathComponent("Tests/CLAPHost/claphost.c"), into: host)
            try compile(repository.appendingPathComponent("Tests/LV2Host/lv2host.c"), into: lv2Host)
            return .success(())
        } catch let error as CLAPTestError {
            return .failure(error)
        } catch {
            return .failure(CLAPTestError("\(error)"))
        }
    }()

    static func prepare() throws { try prepared.get() }

    /// Compiles a test host when it is missing or older than its source.
    static func compile(_ source: URL, into binary: URL, libraries: [String] = ["-ldl", "-lm", "-lpthread", "-lX11"]) throws {
        let sourceDate = try source.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? .distantFuture
        let binaryDate = (try? binary.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
        guard binaryDate < sourceDate else { return }
        try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = binary.path + ".\(getpid())"
        let result = try run(
            "/usr/bin/cc", ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-o", partial, source.path] + libraries)
        guard result.status == 0 else { throw CLAPTestError("cc \(source.lastPathComponent) failed:\n\(result.output)") }
        _ = rename(partial, binary.path)
    }

    typealias ToolResult = ToneShaperTestSupport.ToolResult

    /// Runs a tool to completion (killed after `timeout` seconds), in the repository (the
    /// hostile states read Sessions/).
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws -> ToolResult {
        try ToolResult.run(tool, arguments, environment: environment, directory: repository, timeout: timeout)
    }

    /// Raw float32 samples a host wrote with --out.
    static func samples(_ url: URL) throws -> [Float] { try ToolResult.samples(url) }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("toneshaper-clap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The CLAP host's run of `arguments` (after --clap and --id) and its output samples.
    static func play(
        _ id: String = monoID, _ arguments: [String], clap: URL = plugin, frames: Int = 4_800, block: Int = 256
    ) throws -> (result: ToolResult, samples: [Float]) {
        try prepare()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.f32")
        let result = try run(
            host.path, ["--clap", clap.path, "--id", id, "--frames", String(frames), "--block", String(block), "--out", out.path] + arguments)
        return (result, (try? samples(out)) ?? [])
    }

    /// The LV2 test host's run of the mono plugin.
    static func playLV2(_ arguments: [String], frames: Int = 4_800, block: Int = 256) throws -> (result: ToolResult, samples: [Float]) {
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
                + arguments)
        return (result, (try? samples(out)) ?? [])
    }
}

struct CLAPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
