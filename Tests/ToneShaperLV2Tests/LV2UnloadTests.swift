import Foundation
import Testing

/// The plugin loaded, run and unloaded again and again in one process (the C host's
/// --cycles: dlopen, instantiate, run, cleanup, dlclose), as a host does that rescans its
/// plugins or closes and reopens projects: what an instance built goes with the last
/// instance, the Fourier tables (about 11 MB) included, and resident memory stays flat.
@Suite struct LV2UnloadTests {
    /// The default document, then the three Fourier waves in turn (Sawtooth, Triangle,
    /// Square Fourier: every table set built).
    static let script = ["--frames", "19200", "--block", "256", "--set", "wave=6@4800", "--set", "wave=4@9600", "--set", "wave=2@14400"]

    static func figures(_ result: LV2Tools.ToolResult, _ key: String) -> [Double] {
        (result.report[key] ?? "").split(separator: " ").compactMap { Double($0) }
    }

    @Test(arguments: [1, 2])
    func loadRunUnloadTwentyTimesLeavesResidentMemoryFlat(instances: Int) throws {
        try LV2Tools.prepare()
        let cycles = 20
        let result = try LV2Tools.host(
            LV2Tools.monoURI, Self.script + ["--cycles", String(cycles), "--instances", String(instances)], timeout: 120)
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        #expect(result.number("log_errors") == 0, "\(result.stderr)")
        let loaded = Self.figures(result, "rss_loaded_kb")
        let unloaded = Self.figures(result, "rss_unloaded_kb")
        try #require(loaded.count == cycles && unloaded.count == cycles, "\(result.stdout)")
        let report =
            "loaded \(loaded.map { Int($0) }) kB, unloaded \(unloaded.map { Int($0) }) kB, the library unloaded by dlclose: \(result.report["so_unloaded_every_cycle"] ?? "?")"
        // While an instance lives it holds the tables (11 MB for the three waves); after the
        // last cleanup they are gone: at least 8 MB less in every cycle.
        for cycle in 0..<cycles {
            #expect(loaded[cycle] - unloaded[cycle] >= 8 * 1024, "cycle \(cycle + 1): the tables were not freed; \(report)")
        }
        // Flat: after the first cycle, at most 1 MB more over the 19 others (a set of tables
        // left behind would be 2.2 MB or more a cycle; what grows is the allocator's own
        // bookkeeping, a few kB).
        #expect(unloaded.max()! - unloaded[0] <= 1024, "resident memory grew; \(report)")
        #expect(loaded.max()! - loaded[0] <= 1024, "resident memory grew; \(report)")
    }
}
