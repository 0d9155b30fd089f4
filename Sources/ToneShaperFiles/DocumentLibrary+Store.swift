import ToneShaperControl
import ToneShaperModel

/// The library is where the controller's `load` and `save` commands go: names only, the
/// user's library first, then the built-ins.
extension DocumentLibrary: DocumentStore {
    public func loadDocument(named name: String) throws -> ToneShape { try load(named: name) }
    public func saveDocument(_ shape: ToneShape, named name: String) throws -> String { try save(shape, name: name) }
    /// As `toneshaper presets` lists them: the built-ins by name, then the user's library by
    /// name (MIDI program change N loads the Nth, from 0).
    public func documentNames() -> [String] { entries(.builtIn).map(\.name) + entries(.user).map(\.name) }
}
