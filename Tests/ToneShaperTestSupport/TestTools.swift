import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one way the tests find a program and build the project's C test tools.
///
/// Every suite asks here: which tools are installed (``path(of:)``, ``have(_:)``), and the
/// C hosts and helpers under Tests/ compiled once per test process, before the first test
/// that needs them (``compiled(_:into:flags:)``), never inside a test's timed window.
public enum TestTools {
    /// The repository's root (this file is Tests/ToneShaperTestSupport/TestTools.swift).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The full path of `name`: itself when it is a path, else the first executable of that
    /// name on PATH (then /usr/bin and /usr/local/bin, for a PATH that lacks them).
    public static func path(of name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return directories.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether every one of `names` is installed.
    public static func have(_ names: String...) -> Bool { names.allSatisfy { path(of: $0) != nil } }

    /// A program's path, or an error that names the package to install.
    public static func require(_ name: String) throws -> String {
        guard let found = path(of: name) else { throw TestToolError("\(name) is not installed (bash Scripts/setup.sh installs what the tests need)") }
        return found
    }

    private static let builds = Mutex<[String: Result<URL, TestToolError>]>([:])

    /// `source` (a path in the repository) compiled with cc into `binary` (a path in the
    /// repository, under .build/), once per test process: the first caller compiles when the
    /// binary is missing or older than its source, and every later caller, in any suite, gets
    /// that result (a failure too, with the compiler's words). The binary is renamed into
    /// place whole, so a tool another process is running is never half written.
    public static func compiled(_ source: String, into binary: String, flags: [String]) throws -> URL {
        try builds.withLock { done -> Result<URL, TestToolError> in
            if let result = done[binary] { return result }
            let result: Result<URL, TestToolError>
            do throws(TestToolError) {
                result = .success(try compile(source, into: binary, flags: flags))
            } catch {
                result = .failure(error)
            }
            done[binary] = result
            return result
        }.get()
    }

    private static func compile(_ source: String, into binary: String, flags: [String]) throws(TestToolError) -> URL {
        let input = repository.appendingPathComponent(source)
        let output = repository.appendingPathComponent(binary)
        let sourceDate = (try? input.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantFuture
        let binaryDate = (try? output.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
        if binaryDate >= sourceDate { return output }
        do {
            try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            let partial = output.path + ".\(getpid())"
            let result = try ToolResult.run(
                path(of: "cc") ?? "/usr/bin/cc", ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-o", partial, input.path] + flags,
                timeout: 300)
            guard result.status == 0 else { throw TestToolError("cc \(source) failed:\n\(result.output)") }
            guard rename(partial, output.path) == 0 else { throw TestToolError("could not move \(partial) to \(output.path)") }
            return output
        } catch let error as TestToolError {
            throw error
        } catch {
            throw TestToolError("cc \(source): \(error)")
        }
    }

    /// `Tests/LV2Host/xshot.c`: a window's picture as a PNG, and the share of its pixels that
    /// differ from the first one's.
    public static func xshot() throws -> URL {
        try compiled("Tests/LV2Host/xshot.c", into: ".build/test-tools/xshot", flags: ["-lX11", "-lcairo"])
    }

    /// An executable SwiftPM built beside the running test bundle (`toneshaper`): on Linux the
    /// bundle is an executable in the build directory; elsewhere a directory with the
    /// executable a few levels down.
    public static func builtProduct(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// A fresh directory for one test, removed by the caller.
    public static func temporaryDirectory(_ prefix: String = "toneshaper-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Seconds on the monotonic clock: for deadlines, never for placing audio events.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// What went wrong with a test tool: what failed and what to do.
public struct TestToolError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
