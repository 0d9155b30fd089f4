import Foundation
import Synchronization

extension LV2Tools {
    /// Tests/LV2Host/`name`.c compiled (when missing or older than its source) into
    /// .build/lv2-host/`name`, linked with `libraries`.
    static func compiledTool(_ name: String, _ libraries: [String]) throws -> URL {
        // Once per tool and process, under a lock: tests run in parallel, and two compiling
        // one tool at once would write one file while another test runs it ("Text file busy").
        try compiledTools.withLock { compiled throws(LV2TestError) -> URL in
            if let tool = compiled[name] { return tool }
            let tool: URL
            do { tool = try compile(name, libraries) } catch let error as LV2TestError { throw error } catch {
                throw LV2TestError("cc \(name).c: \(error)")
            }
            compiled[name] = tool
            return tool
        }
    }

    private static let compiledTools = Mutex<[String: URL]>([:])

    private static func compile(_ name: String, _ libraries: [String]) throws -> URL {
        let source = repository.appendingPathComponent("Tests/LV2Host/\(name).c")
        let tool = repository.appendingPathComponent(".build/lv2-host/\(name)")
        let sourceDate = try source.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? .distantFuture
        let toolDate = (try? tool.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
        if toolDate < sourceDate {
            try FileManager.default.createDirectory(at: tool.deletingLastPathComponent(), withIntermediateDirectories: true)
            let partial = tool.path + ".\(getpid())"
            let result = try run(
                "/usr/bin/cc", ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2", "-g", "-o", partial, source.path] + libraries, timeout: 120)
            guard result.status == 0 else { throw LV2TestError("cc \(name).c failed:\n\(result.output)") }
            _ = rename(partial, tool.path)
        }
        return tool
    }
}
