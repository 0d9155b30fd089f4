/// A message of a kind and a payload as one run of bytes (the kind's 4 bytes, then the
/// payload): what crosses a host's queue that carries bytes alone (LV2's worker and its
/// answers). Assembled in a buffer allocated beforehand, so the audio thread can write one.
public enum KindedMessage {
    /// Writes `kind` and `payload` into `buffer` (`capacity` bytes) and returns the
    /// message's size; nil when the payload does not fit.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func write(_ kind: UInt32, _ payload: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        guard payload.count <= capacity - 4 else { return nil }
        buffer.storeBytes(of: kind, as: UInt32.self)
        if let source = payload.baseAddress, payload.count > 0 { (buffer + 4).copyMemory(from: source, byteCount: payload.count) }
        return 4 + payload.count
    }

    /// A message's kind and payload; nil when it is shorter than a kind.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func read(_ message: UnsafeRawBufferPointer) -> (kind: UInt32, payload: UnsafeRawBufferPointer)? {
        guard let base = message.baseAddress, message.count >= 4 else { return nil }
        return (base.loadUnaligned(as: UInt32.self), UnsafeRawBufferPointer(start: base + 4, count: message.count - 4))
    }
}
