import Foundation

/// Where documents live: the user's own folder of shapes and the built-in `Sessions` directory.
public struct LibraryLocations: Equatable, Sendable {
    /// The user's folder of shapes, where documents are saved (it may not exist yet; saving
    /// creates it).
    public var userDirectory: String
    /// The folder earlier versions saved into (`$XDG_DATA_HOME/toneshaper/library`): read
    /// after ``userDirectory`` so no document saved there is stranded, never written. Nil
    /// when TONESHAPER_LIBRARY names the user's folder.
    public var olderUserDirectory: String?
    /// The built-in library, if one was found.
    public var sessionsDirectory: String?
    /// Every place the built-ins were looked for, for error messages.
    public var sessionsCandidates: [String]

    public init(userDirectory: String, olderUserDirectory: String? = nil, sessionsDirectory: String?, sessionsCandidates: [String]? = nil) {
        self.userDirectory = userDirectory
        self.olderUserDirectory = olderUserDirectory == userDirectory ? nil : olderUserDirectory
        self.sessionsDirectory = sessionsDirectory
        self.sessionsCandidates = sessionsCandidates ?? sessionsDirectory.map { [$0] } ?? []
    }

    /// The locations for this process, from its environment and its executable's place.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> LibraryLocations {
        let (sessions, candidates) = findSessions(environment: environment)
        return LibraryLocations(
            userDirectory: userDirectory(environment: environment), olderUserDirectory: olderUserDirectory(environment: environment),
            sessionsDirectory: sessions, sessionsCandidates: candidates)
    }

    /// TONESHAPER_LIBRARY, else $XDG_DATA_HOME/toneshaper/shapes, else
    /// ~/.local/share/toneshaper/shapes (the XDG base-directory rules).
    static func userDirectory(environment: [String: String]) -> String {
        if let explicit = environment["TONESHAPER_LIBRARY"], !explicit.isEmpty { return explicit }
        return dataDirectory(environment: environment) + "/shapes"
    }

    /// The folder earlier versions used, `library` beside `shapes`; none when
    /// TONESHAPER_LIBRARY is set (a folder chosen so is the only one).
    static func olderUserDirectory(environment: [String: String]) -> String? {
        if let explicit = environment["TONESHAPER_LIBRARY"], !explicit.isEmpty { return nil }
        return dataDirectory(environment: environment) + "/library"
    }

    /// $XDG_DATA_HOME/toneshaper, else ~/.local/share/toneshaper.
    private static func dataDirectory(environment: [String: String]) -> String {
        // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/toneshaper" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/toneshaper"
    }

    /// TONESHAPER_SESSIONS; else the installed copies beside the executable
    /// (`<prefix>/bin/toneshaper` finds `<prefix>/share/toneshaper/Sessions`, for any prefix
    /// `Scripts/install.sh` was given); else a `Sessions` folder of documents in the
    /// executable's directory or above it (so a build inside the repository finds the
    /// repository's); else the copies installed under /usr/local or /usr.
    ///
    /// The prefix's own copies come before the walk up, so an installed binary never takes
    /// a user's `~/Sessions` (or any other folder that happens to be above it) for its
    /// built-ins. `executable` is the running program's path, symbolic links resolved.
    static func findSessions(
        environment: [String: String],
        executable: String? = currentExecutable()
    ) -> (found: String?, searched: [String]) {
        if let explicit = environment["TONESHAPER_SESSIONS"], !explicit.isEmpty {
            return (explicit, [explicit])
        }
        var candidates: [String] = []
        var searched: [String] = []
        if let executable {
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL
            let installed = directory.deletingLastPathComponent()
                .appendingPathComponent("share/toneshaper/Sessions").standardizedFileURL.path
            candidates.append(installed)
            searched.append(installed)
            searched.append("a Sessions folder in \(directory.path) or above it")
            while true {
                candidates.append(directory.appendingPathComponent("Sessions").path)
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        let installed = ["/usr/local/share/toneshaper/Sessions", "/usr/share/toneshaper/Sessions"]
        for path in installed where !candidates.contains(path) {
            candidates.append(path)
            searched.append(path)
        }
        if let found = candidates.first(where: holdsDocuments) { return (found, [found]) }
        return (nil, searched)
    }

    /// The running program, symbolic links resolved (`/proc/self/exe`).
    static func currentExecutable() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    static func holdsDocuments(_ directory: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        return names.contains { $0.hasSuffix(DocumentLibrary.fileExtension) }
    }
}
