import Foundation
import ToneShaperControl
import ToneShaperModel

/// Finds, reads and saves tone-shape documents by name or path (SPEC 2, 10).
///
/// A name (`siren`) is looked up in the user's folder of shapes first, then in the folder
/// earlier versions saved into (read only), then among the built-ins in `Sessions/`; a path
/// (anything with a slash, or ending in .toneshaper or .json) is read as given. Saving goes
/// to the user's folder of shapes only, atomically, and never under the name of a built-in.
public struct DocumentLibrary: Sendable {
    public static let fileExtension = ".toneshaper"
    public static let maximumNameLength = 64

    public let locations: LibraryLocations

    public init(locations: LibraryLocations = .standard()) {
        self.locations = locations
    }

    /// A document found in a library.
    public struct Entry: Sendable {
        public enum Origin: Sendable, Equatable { case builtIn, user }
        public var name: String
        public var path: String
        public var origin: Origin
        /// In the folder earlier versions saved into: read, never written (so not renamed).
        public var inOlderFolder = false
        /// The document, or why it could not be used.
        public var shape: Result<ToneShape, LibraryError>
    }

    // MARK: Finding and reading

    /// Whether `reference` is a path rather than a library name.
    public static func isPath(_ reference: String) -> Bool {
        reference.contains("/") || reference.hasSuffix(fileExtension) || reference.hasSuffix(".json")
    }

    /// The file a name or path refers to.
    public func locate(_ reference: String) throws(LibraryError) -> String {
        if DocumentLibrary.isPath(reference) { return reference }
        do { return try locate(named: reference) } catch {
            if case .notFound(let name, let searched, _) = error { throw .notFound(name: name, searched: searched, pathsAccepted: true) }
            throw error
        }
    }

    /// The file of a library name; never a path, so a name cannot reach outside the
    /// library directories.
    public func locate(named name: String) throws(LibraryError) -> String {
        let notFound = LibraryError.notFound(name: name, searched: userDirectories + locations.sessionsCandidates)
        guard (try? DocumentLibrary.checkName(name)) != nil else { throw notFound }
        for directory in searchDirectories {
            let path = AtomicFile.join(directory, name + DocumentLibrary.fileExtension)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        throw notFound
    }

    /// Reads the document a name or path refers to (the command line's way).
    public func load(_ reference: String) throws(LibraryError) -> ToneShape {
        try DocumentLibrary.read(path: locate(reference))
    }

    /// Reads a document by library name only, never a path: for remote control (OSC),
    /// where a path would let a controller read files anywhere on the machine.
    public func load(named name: String) throws(LibraryError) -> ToneShape {
        try DocumentLibrary.read(path: locate(named: name))
    }

    /// Reads and checks one document file; files over `ToneShapeDocument.maximumSize`
    /// are refused before anything is read.
    public static func read(path: String) throws(LibraryError) -> ToneShape {
        let bytes = try DocumentFile.readBytes(path: path, limit: ToneShapeDocument.maximumSize)
        do { return try ToneShapeDocument.decode(bytes, source: path) } catch { throw .invalidDocument(error) }
    }

    // MARK: Listing

    /// The built-in documents that load, sorted by name.
    public func listBuiltIns() -> [(name: String, shape: ToneShape)] {
        loaded(entries(.builtIn))
    }

    /// The documents in the user's folders that load: the shapes folder's by name, then those
    /// of the older folder it does not hide.
    public func listUserLibrary() -> [(name: String, shape: ToneShape)] {
        loaded(entries(.user))
    }

    /// Every document of one library that can be asked for by name, including those that
    /// fail to load, sorted by name. Files whose names are not library names ("with
    /// space.toneshaper") are left out: `load` could never find them (see
    /// `unnamedFiles`). The user's are the shapes folder's, then the older folder's whose
    /// names the shapes folder does not have (a name finds the shapes folder's first).
    public func entries(_ origin: Entry.Origin) -> [Entry] {
        var listed: [Entry] = []
        for directory in directories(of: origin) {
            let taken = Set(listed.map(\.name))
            listed += documentFiles(in: directory)
                .map { String($0.dropLast(DocumentLibrary.fileExtension.count)) }
                .filter { (try? DocumentLibrary.checkName($0)) != nil && !taken.contains($0) }
                .map { name in
                    let path = AtomicFile.join(directory, name + DocumentLibrary.fileExtension)
                    let shape = Result { () throws(LibraryError) in try DocumentLibrary.read(path: path) }
                    var entry = Entry(name: name, path: path, origin: origin, shape: shape)
                    entry.inOlderFolder = directory == locations.olderUserDirectory
                    return entry
                }
        }
        return listed
    }

    /// The document files of one library whose names cannot be used as library names
    /// (spaces, other characters): loadable only by path.
    public func unnamedFiles(_ origin: Entry.Origin) -> [String] {
        directories(of: origin).flatMap { directory in
            documentFiles(in: directory)
                .filter { (try? DocumentLibrary.checkName(String($0.dropLast(DocumentLibrary.fileExtension.count)))) == nil }
                .map { AtomicFile.join(directory, $0) }
        }
    }

    /// The user's folders, in the order names are looked up: the shapes folder, then the
    /// older one (read only).
    public var userDirectories: [String] { [locations.userDirectory] + (locations.olderUserDirectory.map { [$0] } ?? []) }

    private func directories(of origin: Entry.Origin) -> [String] {
        origin == .builtIn ? (locations.sessionsDirectory.map { [$0] } ?? []) : userDirectories
    }

    private func documentFiles(in directory: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(DocumentLibrary.fileExtension) && !$0.hasPrefix(".") }.sorted()
    }

    // MARK: Saving

    /// Saves `shape` as `name` in the user's library, creating the library if needed.
    /// The file is replaced atomically: readers see the old document or the new one.
    /// The document is named as saved (`savedCopy`). Returns the path written.
    @discardableResult
    public func save(_ shape: ToneShape, name: String) throws(LibraryError) -> String {
        try DocumentLibrary.checkName(name)
        if let sessions = locations.sessionsDirectory,
            FileManager.default.fileExists(atPath: AtomicFile.join(sessions, name + DocumentLibrary.fileExtension))
        {
            throw .builtInName(name)
        }
        let directory = locations.userDirectory
        let path = AtomicFile.join(directory, name + DocumentLibrary.fileExtension)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .saveFailed(
                path: path,
                reason:
                    "cannot create the library directory \(directory) (\(error.localizedDescription)); set TONESHAPER_LIBRARY to a writable directory"
            )
        }
        do {
            let file = try AtomicFile(targetPath: path)
            try file.writeAll(ToneShapeDocument.encode(DocumentLibrary.savedCopy(of: shape, as: name)))
            try file.commit()
        } catch {
            throw .saveFailed(path: path, reason: error.message)
        }
        return path
    }

    /// What is saved as `name`: a document that says it is `name`. One that had another
    /// name ("siren", played and changed, saved as "my-siren") keeps its description,
    /// marked as derived from the original, so `presets` does not describe the copy as
    /// the original.
    public static func savedCopy(of shape: ToneShape, as name: String) -> ToneShape {
        var copy = shape
        copy.name = name
        guard let original = shape.name, original != name else { return copy }
        var description = shape.description ?? ""
        // A copy of a copy names only its nearest original.
        if description.hasPrefix(derivedMarker), let colon = description.range(of: ": ") {
            description = String(description[colon.upperBound...])
        } else if description.hasPrefix(derivedMarker) {
            description = ""
        }
        copy.description = "\(derivedMarker)\"\(original)\"" + (description.isEmpty ? "" : ": \(description)")
        return copy
    }

    static let derivedMarker = "Derived from "

    /// A library name is one plain file name: letters, digits, '.', '_' and '-', not
    /// starting with '.', at most 64 characters. Anything else could leave the library
    /// directory ("../x", "a/b") or hide the file (".x").
    public static func checkName(_ name: String) throws(LibraryError) {
        func refuse(_ reason: String) -> LibraryError { .invalidName(name, reason: reason) }
        guard !name.isEmpty else { throw refuse("the name is empty") }
        guard name.count <= maximumNameLength else { throw refuse("names are at most \(maximumNameLength) characters") }
        guard !name.hasPrefix(".") else { throw refuse("names may not start with '.'") }
        guard !name.hasSuffix(fileExtension) else {
            throw refuse("give the name without the \(fileExtension) extension, such as \"\(name.dropLast(fileExtension.count))\"")
        }
        let allowed = name.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "_" || c == "-"
        }
        guard allowed else { throw refuse("use only letters, digits, '.', '_' and '-' (no spaces or slashes)") }
    }

    // MARK: Private

    /// Where names are looked up, in order: the user's folders win.
    private var searchDirectories: [String] { directories(of: .user) + directories(of: .builtIn) }

    private func loaded(_ entries: [Entry]) -> [(name: String, shape: ToneShape)] {
        entries.compactMap { entry in (try? entry.shape.get()).map { (entry.name, $0) } }
    }
}

extension DocumentLibrary {
    /// Renames a document of the user's library: it is saved under `newName` (and named so
    /// inside, as `save` names it) before the old file is removed, so a failure leaves the
    /// document where it was. The built-ins are read-only, and a name in use (the user's or
    /// a built-in's) is never taken over. Returns the new file's path.
    @discardableResult
    public func rename(_ name: String, to newName: String) throws(LibraryError) -> String {
        try DocumentLibrary.checkName(name)
        try DocumentLibrary.checkName(newName)
        let old = AtomicFile.join(locations.userDirectory, name + DocumentLibrary.fileExtension)
        guard FileManager.default.fileExists(atPath: old) else {
            if let older = locations.olderUserDirectory,
                FileManager.default.fileExists(atPath: AtomicFile.join(older, name + DocumentLibrary.fileExtension))
            {
                throw .renameRefused(
                    name,
                    reason: "it is in \(older), the folder earlier versions saved into, which is only read; open it and save it under another name")
            }
            if (try? locate(named: name)) != nil {
                throw .renameRefused(name, reason: "it is a built-in shape; open it and save it under another name")
            }
            throw .notFound(name: name, searched: userDirectories)
        }
        guard newName != name else { return old }
        if (try? locate(named: newName)) != nil {
            throw .renameRefused(name, reason: "a shape named \"\(newName)\" exists already; choose another name")
        }
        var shape = try DocumentLibrary.read(path: old)
        // The document becomes the new name's own, its description unchanged (a rename is
        // not a copy: no "Derived from").
        shape.name = newName
        let path = try save(shape, name: newName)
        do { try FileManager.default.removeItem(atPath: old) } catch {
            throw .saveFailed(path: old, reason: "saved as \(path) but could not remove the old file (\(error.localizedDescription))")
        }
        return path
    }
}
