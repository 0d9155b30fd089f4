import ToneShaperModel
import ToneShaperParameters

/// How the editor window reaches its plugin, whatever the format: the plugin's shell (the
/// LV2 UI, the CLAP plugin's clap.gui) implements it over its own messages. Parameters are
/// named by their row of ``ParameterTable/all``; a change made with the mouse comes between
/// ``beginGesture(row:)`` and ``endGesture(row:)`` (a click or a wheel step too, as a gesture
/// of one value), so a host records one automation pass and one undo step for it.
///
/// The other way, the shell calls the window: ``EditorWindow/parameterChanged(row:value:)``,
/// ``EditorWindow/pointsChanged(_:)``, ``EditorWindow/playheadMoved(_:)``,
/// ``EditorWindow/idle()``, ``EditorWindow/setSize(_:_:)`` (the host's answer to
/// ``requestSize(width:height:)`` too). What the shell tells the window
/// is shown and never sent back, so there is no echo loop.
///
/// Class-bound: the window holds it as `any EditorLink`, which Embedded Swift allows of a
/// class-bound protocol only.
public protocol EditorLink: AnyObject {
    /// The user took hold of a control (the mouse button went down on it).
    func beginGesture(row: Int)
    /// A control's new value, within the row's range.
    func setParameter(row: Int, value: Double)
    /// The user let go of the control.
    func endGesture(row: Int)
    /// The curve as edited (seconds within the cycle, Hz as heard) and each segment's
    /// curvature (one a segment; empty: all straight), for the plugin to play.
    func sendPoints(_ points: [CurvePoint], curvatures: [Double])
    /// The window wants the curve the plugin plays (it answers through
    /// ``EditorWindow/pointsChanged(_:)``, now or later).
    func requestPoints()
    /// The window wants this size (its zoom control changed the zoom) and asks the host, as
    /// the format's convention says (CLAP's request_resize, VST 3's IPlugFrame::resizeView,
    /// LV2's ui:resize). True when the host took it: it gives the window the size through
    /// ``EditorWindow/setSize(_:_:)`` now or later (or the window takes it itself when the
    /// host has not); false when it keeps its size (the window is then drawn larger in it).
    func requestSize(width: Int, height: Int) -> Bool
    /// The user chose a Scala file from the window's list of tunings: the plugin reads and
    /// plays it (a `.kbm` over the scale there is) and tells the window the tuning then.
    func loadTuningFile(path: String, keyboardMap: Bool)
    /// The shapes the plugin carries (its built-in documents), in the order it lists them.
    func builtInShapes() -> [BuiltInShape]
    /// The document the plugin plays now, whole (curve and every parameter), as it would save
    /// it; nil when the shell cannot tell (then opening a shape is no undo step).
    func currentDocument() -> [UInt8]?
    /// The user opened a shape: the plugin plays `document` whole, as it loads a preset, and
    /// tells the host its state changed; false (nothing changed) when it refuses it.
    func openDocument(_ document: [UInt8], what: String) -> Bool
    /// The same by the document's file, for a shell whose window has no way to hand the
    /// plugin bytes (the LV2 UI sends its file parameter's patch:Set, as a host's chooser
    /// does); false when it does not.
    func openDocumentFile(_ path: String) -> Bool
    /// A copy of the document the plugin plays now, kept for an undo step (before an open, and
    /// before an undo or redo of one); nil when the shell cannot keep one (opening a shape is
    /// then no undo step). By default its bytes (``currentDocument()``).
    func keepDocument() -> KeptDocument?
    /// The plugin plays a kept document again (an undo or redo of an open); false, nothing
    /// changed, when it refuses it. By default ``openDocument(_:what:)`` or ``openDocumentFile(_:)``.
    func reopen(_ kept: KeptDocument) -> Bool
}

/// A document kept for the window's undo: its bytes, when the shell can hand them over at
/// once (CLAP, VST 3), or the file of a snapshot the plugin writes of it (LV2, whose UI
/// cannot ask its plugin for anything and wait: ``DocumentSnapshot``).
public enum KeptDocument: Equatable {
    case bytes([UInt8])
    case file(String)
}

/// A shape the plugin carries: its name, its document's bytes, and its file when it has one
/// (an LV2 bundle's).
public struct BuiltInShape {
    public let name: String
    public let document: [UInt8]
    public let file: String?

    public init(name: String, document: [UInt8], file: String? = nil) {
        self.name = name
        self.document = document
        self.file = file
    }

    /// The C signature of a plugin's compiled-in documents: entry `index`'s bytes, its size
    /// and its name (nil past the last).
    public typealias Entry = (Int32, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafePointer<UInt8>?

    /// Entry `index` of a plugin's compiled-in documents (the CLAP and VST 3 plugins' table).
    public static func at(_ index: Int, _ entry: Entry) -> BuiltInShape? {
        guard index >= 0, index < Int(Int32.max) else { return nil }
        var size = 0
        var name: UnsafePointer<CChar>?
        guard let bytes = entry(Int32(index), &size, &name), let name else { return nil }
        return BuiltInShape(name: String(cString: name), document: Array(UnsafeBufferPointer(start: bytes, count: size)))
    }

    /// The `count` entries of such a table.
    public static func table(count: Int32, _ entry: Entry) -> [BuiltInShape] { (0..<Int(max(count, 0))).compactMap { at($0, entry) } }
}

extension EditorLink {
    /// A shell that loads no tuning files from the window ignores the choice.
    public func loadTuningFile(path: String, keyboardMap: Bool) {}
    /// A shell that carries no shapes lists only the user's.
    public func builtInShapes() -> [BuiltInShape] { [] }
    public func currentDocument() -> [UInt8]? { nil }
    /// A shell that opens no documents from the window refuses them.
    public func openDocument(_ document: [UInt8], what: String) -> Bool { false }
    public func openDocumentFile(_ path: String) -> Bool { false }
    public func keepDocument() -> KeptDocument? { currentDocument().map { .bytes($0) } }
    public func reopen(_ kept: KeptDocument) -> Bool {
        switch kept {
        case .bytes(let document): return openDocument(document, what: "the document as it was")
        case .file(let path): return openDocumentFile(path)
        }
    }
}
