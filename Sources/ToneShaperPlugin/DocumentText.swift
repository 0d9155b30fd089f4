/// A document a host keeps as text with its NUL (LV2's state, an atom:String): checked
/// whole before it is read, and written with its NUL, so that a state cut short or too
/// large changes nothing.
public enum DocumentText {
    /// The document in `size` bytes at `value` (its NUL the last), without the NUL; refused
    /// when it is empty, too large or not terminated (the reason reads as a sentence: "the
    /// state's document " + reason).
    public static func document(_ value: UnsafeRawPointer, size: Int) throws(DocumentFile.Refusal) -> UnsafeRawBufferPointer {
        guard size > 1 else { throw DocumentFile.Refusal(reason: "is empty") }
        guard size <= PluginLimits.maximumDocumentSize else { throw DocumentFile.Refusal(reason: "is larger than 16 MB") }
        guard value.load(fromByteOffset: size - 1, as: UInt8.self) == 0 else {
            throw DocumentFile.Refusal(reason: "does not end with its NUL (truncated?)")
        }
        return UnsafeRawBufferPointer(start: value, count: size - 1)
    }

    /// `document` with its NUL after it, handed to `store` (the text, its size with the NUL);
    /// nil when it is larger than the largest document (not saved).
    public static func withNUL<Result>(_ document: UnsafeRawBufferPointer, _ store: (UnsafeRawPointer, Int) -> Result) -> Result? {
        guard document.count < PluginLimits.maximumDocumentSize else { return nil }
        let text = UnsafeMutableRawPointer.allocate(byteCount: document.count + 1, alignment: 8)
        defer { text.deallocate() }
        if let source = document.baseAddress { text.copyMemory(from: source, byteCount: document.count) }
        text.storeBytes(of: UInt8(0), toByteOffset: document.count, as: UInt8.self)
        return store(text, document.count + 1)
    }
}
