import ToneShaperCore

/// The library is where the controller's `load` and `save` commands go: names only, the
/// user's library first, then the built-ins.
extension DocumentLibrary: DocumentStore {
    public func loadDocument(named name: String) throws -> ToneShape { try load(named: name) }
    public func saveDocument(_ shape: ToneShape, named name: String) throws -> String { try save(shape, name: name) }
}
