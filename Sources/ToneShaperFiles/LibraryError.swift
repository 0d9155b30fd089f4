import ToneShaperControl
import ToneShaperModel

/// Why a document could not be found, read or saved, in words a user can act on.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name found in none of the places searched. `pathsAccepted`: the asker (the
    /// command line) would also take a path, so the message may suggest one; OSC's
    /// `/load` takes names only.
    case notFound(name: String, searched: [String], pathsAccepted: Bool = false)
    /// A file that exists but cannot be read (missing, a directory, no permission, too large).
    case unreadable(path: String, reason: String)
    /// A file that was read but is not a usable document.
    case invalidDocument(DocumentError)
    /// A name that cannot be used to save (could escape the library, or is malformed).
    case invalidName(String, reason: String)
    /// Saving under the name of a built-in document, which would hide it.
    case builtInName(String)
    /// The file system refused the save.
    case saveFailed(path: String, reason: String)
    /// A rename that would lose or hide a document (a built-in, a name in use).
    case renameRefused(String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name, let searched, let pathsAccepted):
            let places = searched.isEmpty ? "no library directory was found" : "looked in " + searched.joined(separator: ", ")
            return "no tone shape named \"\(name)\" (\(places)); run `toneshaper presets` to see the names"
                + (pathsAccepted ? ", or give a path to a .toneshaper file" : "")
        case .unreadable(let path, let reason):
            return "\(path): \(reason)"
        case .invalidDocument(let error):
            return error.description
        case .invalidName(let name, let reason):
            return "cannot save as \"\(name)\": \(reason)"
        case .builtInName(let name):
            return "cannot save as \"\(name)\": a built-in tone shape has that name and would be hidden; choose another name, such as \"my-\(name)\""
        case .saveFailed(let path, let reason):
            return "\(path): \(reason)"
        case .renameRefused(let name, let reason):
            return "cannot rename \"\(name)\": \(reason)"
        }
    }
}
