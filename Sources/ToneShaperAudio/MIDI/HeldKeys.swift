/// The keys down, oldest first, for last-note priority: the drone follows the latest, and
/// mono's legato returns to the one still held when the latest is released. Stored inline
/// (no allocation), so it lives on the audio thread as it is.
struct HeldKeys: BitwiseCopyable {
    private var keys = InlineArray<128, UInt8>(repeating: 0)
    private(set) var count = 0

    /// The key pressed last of those still down.
    var latest: UInt8? { count > 0 ? keys[count - 1] : nil }

    /// A key went down: it becomes the latest (a repeated note-on moves it, never doubles it).
    mutating func press(_ note: UInt8) {
        release(note)
        guard count < 128 else { return }
        keys[count] = note
        count += 1
    }

    /// A key went up.
    mutating func release(_ note: UInt8) {
        var i = 0
        while i < count {
            if keys[i] == note {
                var j = i
                while j + 1 < count {
                    keys[j] = keys[j + 1]
                    j += 1
                }
                count -= 1
            } else {
                i += 1
            }
        }
    }

    /// The key `index` presses before the latest (0: the oldest still down).
    subscript(index: Int) -> UInt8 { keys[index] }

    mutating func removeAll() { count = 0 }
}
