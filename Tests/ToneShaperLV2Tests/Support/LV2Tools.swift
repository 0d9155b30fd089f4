import Foundation

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
    static let hostSource = repository.appendingPathComponent("Tests/LV2Host/lv2host.c")
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

    /// Builds what is missing, once per test run; the error says what failed.
    static let prepared: Swift.Result<Void, LV2TestError> = {
        do {
            if !FileManager.default.fileExists(atPath: sharedObject.path) {
                let result = try run("/bin/bash", [repository.appendingPathComponent("Scripts/build-lv2.sh").path], timeout: 600)
                guard result.status == 0 else { throw LV2TestError("Scripts/build-lv2.sh failed:\n\(result.output)") }
            }
            let sourceDate = try hostSource.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? .distantFuture
            let hostDate = (try? host.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            if hostDate < sourceDate {
                try FileManager.default.createDirectory(at: host.deletingLastPathComponent(), withIntermediateDirectories: true)
                let partial = host.path + ".\(getpid())"
                let result = try run(
                    "/usr/bin/cc",
                    ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-o", partial, hostSource.path, "-ldl", "-lm", "-lpthread"])
                guard result.status == 0 else { throw LV2TestError("cc lv2host.c failed:\n\(result.output)") }
                _ = rename(partial, host.path)
            }
            return .success(())
        } catch let error as LV2TestError {
            return .failure(error)
        } catch {
            return .failure(LV2TestError("\(error)"))
        }
    }()

    static func prepare() throws { try prepared.get() }

    /// The full path of `name` on PATH (or in /usr/bin), if it is there.
    static func path(of name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func have(_ tools: String...) -> Bool { tools.allSatisfy { path(of: $0) != nil } }

    struct ToolResult: Sendable {
        var status: Int32
        /// True when the process ended by a signal (a crash), not an exit.
        var signalled: Bool
        var stdout: String
        var stderr: String
        var output: String { stdout + stderr }

        /// The C host's report: "key: value" lines of standard output.
        var report: [String: String] {
            var values: [String: String] = [:]
            for line in stdout.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                values[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return values
        }

        func number(_ key: String) -> Double? { report[key].flatMap(Double.init) }
    }

    /// Runs a tool to completion (killed after `timeout` seconds), its output collected in files.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws -> ToolResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : (path(of: tool) ?? tool))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ToolResult(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "", stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Runs the C host on `so` (default: the built one) with `arguments` after --so and --uri.
    static func host(_ uri: String, _ arguments: [String], so: URL = sharedObject, timeout: Double = 60) throws -> ToolResult {
        try run(host.path, ["--so", so.path, "--uri", uri] + arguments, timeout: timeout)
    }

    /// Raw float32 samples written by the C host's --out.
    static func samples(_ url: URL) throws -> [Float] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

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
