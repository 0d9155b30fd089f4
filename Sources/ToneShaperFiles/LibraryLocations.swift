import Foundation

/// Where documents live: the user's own library and the built-in `Sessions` directory.
public struct LibraryLocations: Equatable, Sendable {
    /// The user's library (it may not exist yet; saving creates it).
    public var userDirectory: String
    /// The built-in library, if one was found.
    public var sessionsDirectory: String?
    /// Every place the built-ins were looked for, for error messages.
    public var sessionsCandidates: [String]

    public init(userDirectory: String, sessionsDirectory: String?, sessionsCandidates: [String]? = nil) {
        self.userDirectory = userDirectory
        self.sessionsDirectory = sessionsDirectory
        self.sessionsCandidates = sessionsCandidates ?? sessionsDirectory.map { [$0] } ?? []
    }

    /// The locations for this process, from its environment and its executable's place.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> LibraryLocations {
        let (sessions, candidates) = findSessions(environment: environment)
        return LibraryLocations(userDirectory: userDirectory(environment: environment),
                                sessionsDirectory: sessions, sessionsCandidates: candidates)
    }

    /// TONESHAPER_LIBRARY, else $XDG_DATA_HOME/toneshaper/library, else
    /// ~/.local/share/toneshaper/library (the XDG base-directory rules).
    static func userDirectory(environment: [String: String]) -> String {
        if let explicit = environment["TONESHAPER_LIBRARY"], !explicit.isEmpty { return explicit }
        // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/toneshaper/library"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/toneshaper/library"
    }

    /// TONESHAPER_SESSIONS; else a `Sessions` folder of documents in the executable's
    /// directory or above it (so a build inside the repository finds the repository's);
    /// else the installed copies.
    static func findSessions(environment: [String: String]) -> (found: String?, searched: [String]) {
        if let explicit = environment["TONESHAPER_SESSIONS"], !explicit.isEmpty {
            return (explicit, [explicit])
        }
        var candidates: [String] = []
        var searched: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            searched.append("a Sessions folder in \(directory.path) or above it")
            while true {
                candidates.append(directory.appendingPathComponent("Sessions").path)
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        let installed = ["/usr/local/share/toneshaper/Sessions", "/usr/share/toneshaper/Sessions"]
        candidates += installed
        searched += installed
        if let found = candidates.first(where: holdsDocuments) { return (found, [found]) }
        return (nil, searched)
    }

    static func holdsDocuments(_ directory: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        return names.contains { $0.hasSuffix(DocumentLibrary.fileExtension) }
    }
}
