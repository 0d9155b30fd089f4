import Foundation
import Testing

@testable import ToneShaperFiles

/// Where an installed program finds its built-in shapes (Scripts/install.sh puts them in
/// PREFIX/share/toneshaper/Sessions). The whole install is tested by Scripts/test-install.sh.
@Suite struct InstalledLocationsTests {
    /// A prefix laid out as install.sh lays it out, under a temporary directory.
    private struct Prefix {
        let dir: TemporaryDirectory
        var root: String { dir.file("prefix") }
        var executable: String { root + "/bin/toneshaper" }
        var sessions: String { root + "/share/toneshaper/Sessions" }

        init(withShapes: Bool = true) throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
            if withShapes {
                try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
                try dir.write("prefix/share/toneshaper/Sessions/bell.toneshaper", "{}")
            }
        }

        /// A folder of shapes above the prefix, which walking up from bin/ would reach.
        func addSessionsAbove() throws -> String {
            let above = dir.file("Sessions")
            try FileManager.default.createDirectory(atPath: above, withIntermediateDirectories: true)
            try dir.write("Sessions/decoy.toneshaper", "{}")
            return above
        }
    }

    @Test func anInstalledProgramFindsItsPrefixsShapes() throws {
        let prefix = try Prefix()
        defer { prefix.dir.remove() }
        let found = LibraryLocations.findSessions(environment: [:], executable: prefix.executable)
        #expect(found.found == prefix.sessions)
    }

    @Test func thePrefixsShapesComeBeforeAFolderAboveIt() throws {
        let prefix = try Prefix()
        defer { prefix.dir.remove() }
        _ = try prefix.addSessionsAbove()
        #expect(LibraryLocations.findSessions(environment: [:], executable: prefix.executable).found == prefix.sessions)
    }

    @Test func withoutInstalledShapesTheWalkUpStillWorks() throws {
        let prefix = try Prefix(withShapes: false)
        defer { prefix.dir.remove() }
        let above = try prefix.addSessionsAbove()
        #expect(LibraryLocations.findSessions(environment: [:], executable: prefix.executable).found == above)
    }

    @Test func theEnvironmentStillComesFirst() throws {
        let prefix = try Prefix()
        defer { prefix.dir.remove() }
        let found = LibraryLocations.findSessions(environment: ["TONESHAPER_SESSIONS": "/s"], executable: prefix.executable)
        #expect(found.found == "/s")
    }

    @Test func nothingFoundNamesThePrefixsFolder() throws {
        let prefix = try Prefix(withShapes: false)
        defer { prefix.dir.remove() }
        let found = LibraryLocations.findSessions(environment: [:], executable: prefix.executable)
        // A folder above the temporary directory could hold shapes on some machine; on this
        // one nothing should, but only the searched list is asserted.
        if found.found == nil {
            #expect(found.searched.first == prefix.sessions)
            #expect(found.searched.contains("/usr/share/toneshaper/Sessions"))
        }
    }

    /// An installed program's own folder of shapes is in the user's data home, whatever the
    /// prefix: `$XDG_DATA_HOME/toneshaper/shapes`, the older `library` folder beside it read
    /// after it; TONESHAPER_LIBRARY alone, when set.
    @Test func theUsersShapesAreInTheDataHome() throws {
        let prefix = try Prefix()
        defer { prefix.dir.remove() }
        let data = prefix.dir.file("data")
        let standard = LibraryLocations.standard(environment: ["XDG_DATA_HOME": data, "TONESHAPER_SESSIONS": prefix.sessions])
        #expect(standard.userDirectory == data + "/toneshaper/shapes")
        #expect(standard.olderUserDirectory == data + "/toneshaper/library")
        let chosen = LibraryLocations.standard(environment: ["XDG_DATA_HOME": data, "TONESHAPER_LIBRARY": prefix.dir.file("mine")])
        #expect(chosen.userDirectory == prefix.dir.file("mine") && chosen.olderUserDirectory == nil)
    }
}
