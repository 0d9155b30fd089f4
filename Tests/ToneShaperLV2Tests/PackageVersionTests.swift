import Foundation
import Testing
import ToneShaperLV2Description

/// One version for everything a user installs (issue 39): `toneshaper --version` prints the
/// string of Sources/toneshaper/Version.swift, `0.MINOR.MICRO`, where MINOR and MICRO are
/// the LV2 plugin's lv2:minorVersion and lv2:microVersion (the parameter table's version: a
/// release that adds a parameter raises both); Scripts/build-clap.sh compiles the same string
/// into the CLAP descriptors, and Scripts/package.sh names the packages by it and gives them
/// the plugins' maintainer and homepage.
@Suite struct PackageVersionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    static func programVersion() throws -> String {
        String(try #require(try text("Sources/toneshaper/Version.swift").firstMatch(of: /static let string = "([^"]+)"/)).1)
    }

    @Test func theProgramVersionIsTheLV2Version() throws {
        let version = try Self.programVersion()
        #expect(version == "0.\(LV2Description.minorVersion).\(LV2Description.microVersion)")
        #expect(LV2Description.minorVersion % 2 == 0, "a release's lv2:minorVersion is even")
        let turtle = try Self.text("Sources/ToneShaperLV2/Bundle/toneshaper.ttl")
        #expect(turtle.matches(of: /lv2:minorVersion ([0-9]+) ;/).map { Int($0.1) } == [LV2Description.minorVersion, LV2Description.minorVersion])
        #expect(turtle.matches(of: /lv2:microVersion ([0-9]+) ;/).map { Int($0.1) } == [LV2Description.microVersion, LV2Description.microVersion])
    }

    /// The descriptors take the version from the build (no literal of their own), and the
    /// plugin Scripts/build-clap.sh built holds it.
    @Test func theCLAPVersionIsTheProgramVersion() throws {
        let version = try Self.programVersion()
        let entry = try Self.text("Sources/CCLAP/entry.c")
        #expect(entry.matches(of: /TONESHAPER_VERSION, TONESHAPER_DESCRIPTION/).count == 2)
        #expect(entry.firstMatch(of: /"[0-9]+\.[0-9]+\.[0-9]+"/) == nil, "no version literal in entry.c")
        let plugin = Self.repository.appendingPathComponent(".build/clap/toneshaper.clap")
        let bytes = try #require(FileManager.default.contents(atPath: plugin.path), "no \(plugin.path): run Scripts/build-clap.sh")
        #expect(bytes.range(of: Data([0] + Array(version.utf8) + [0])) != nil, "\(plugin.path) does not hold the version \(version)")
    }

    /// The Debian package's Maintainer and Homepage are the plugins' doap:maintainer and
    /// homepage.
    @Test func thePackageNamesTheSameMaintainer() throws {
        let script = try Self.text("Scripts/package.sh")
        #expect(script.contains("maintainer='\(LV2Description.maintainerName) <\(LV2Description.maintainerMailbox)>'"))
        #expect(script.contains("homepage='\(LV2Description.homepage)'"))
    }
}
