import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `toneshaper plot`, run as a user runs it.
@Suite struct PlotCommandTests {
    static var executable: String {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("toneshaper").path
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
    }

    /// Counts the elements of a well-formed SVG by name.
    final class ElementCounter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            counts[name, default: 0] += 1
        }
    }

    static func elements(_ svg: Data) -> [String: Int]? {
        let parser = XMLParser(data: svg)
        let counter = ElementCounter()
        parser.delegate = counter
        return parser.parse() ? counter.counts : nil
    }

    @Test func plotsTheCurveTheScalingAndTheWave() throws {
        let (status, svg, stderr) = try Self.run(["plot", "siren", "-o", "-"])
        #expect(status == 0, "\(stderr)")
        let counts = try #require(Self.elements(svg), "well-formed SVG")
        #expect(counts["svg"] == 1)
        #expect(counts["polyline"] == 3, "v(t), the scaling, the wave")
        #expect(counts["circle"] == 3, "the siren's three points")
        #expect(String(decoding: svg, as: UTF8.self).contains("fidelity 500"))
    }

    @Test func aCoarseGridShowsItsCellsAndTheEchoItsVoice() throws {
        let (status, svg, _) = try Self.run(["plot", "siren", "-o", "-", "--fidelity", "4", "--echo-offset", "1", "--echo-volume", "0.5"])
        #expect(status == 0)
        let counts = try #require(Self.elements(svg))
        #expect(counts["circle"] == 3 + 5, "the points and the five grid nodes")
        #expect(counts["polyline"] == 4, "and the echo's scaling")
    }

    @Test func writesAFileAndRefusesWhatItCannotRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plot-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Self.run(["plot", "chirp", "-o", path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        let missing = try Self.run(["plot", "no-such-shape", "-o", path])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("toneshaper plot:"))
    }
}
