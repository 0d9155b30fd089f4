import Foundation
import Testing

/// `toneshaper --version` prints the one version string, from Sources/toneshaper/Version.swift.
@Suite struct VersionTests {
    @Test func versionFlagPrintsTheDefinedVersion() throws {
        let source = try String(contentsOfFile: repositoryRoot + "/Sources/toneshaper/Version.swift", encoding: .utf8)
        let defined = try #require(source.firstMatch(of: /static let string = "([^"]+)"/)).1

        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("toneshaper")
        process.arguments = ["--version"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed == "\(defined)\n")
        #expect(defined.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+/) != nil, "a version is MAJOR.MINOR.PATCH")
    }
}
