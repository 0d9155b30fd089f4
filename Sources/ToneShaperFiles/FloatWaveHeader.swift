/// The header of a 32-bit float WAV file, written by the program itself rather than by
/// libsndfile: libsndfile gives float WAV a 16-byte fmt chunk, without the `cbSize` field
/// every non-PCM format must have, and sox warns about every such file ("wave header
/// missing extended part of fmt chunk"); its extensible (WAVEX) header draws the same
/// warning. This one has the 18-byte fmt chunk of WAVE_FORMAT_IEEE_FLOAT with cbSize 0,
/// and the fact chunk (frame count) non-PCM files carry: what sox, libsndfile, ffmpeg and
/// Python's readers all take without a word.
///
/// Layout (little-endian): RIFF size WAVE | fmt 18: tag 3, channels, rate, bytes/s,
/// block align, 32 bits, cbSize 0 | fact 4: frames | data size.
enum FloatWaveHeader {
    static let size = 58

    /// The header for `frames` frames. With the frame count known up front (a render) it
    /// is final at once, so the file can go to a pipe, which cannot seek back to fix it.
    static func bytes(frames: Int64, sampleRate: Int, channels: Int) -> [UInt8] {
        let blockAlign = 4 * channels
        let dataBytes = UInt64(max(0, frames)) * UInt64(blockAlign)
        // RIFF sizes are 32-bit; a render this large is refused before it starts.
        let data = UInt32(clamping: dataBytes)
        var out: [UInt8] = []
        out.reserveCapacity(size)
        func text(_ s: String) { out += Array(s.utf8) }
        func u32(_ v: UInt32) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        text("RIFF")
        u32(UInt32(clamping: UInt64(size - 8) + UInt64(data)))
        text("WAVE")
        text("fmt ")
        u32(18)
        u16(3)  // WAVE_FORMAT_IEEE_FLOAT
        u16(UInt16(channels))
        u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * blockAlign))
        u16(UInt16(blockAlign))
        u16(32)
        u16(0)  // cbSize: no extension
        text("fact")
        u32(4)
        u32(UInt32(clamping: frames))
        text("data")
        u32(data)
        return out
    }
}
