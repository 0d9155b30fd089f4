import Foundation

/// Just enough of a WAV reader for jack_capture's files: 32-bit float or 16-bit PCM,
/// plain or WAVE_FORMAT_EXTENSIBLE headers, interleaved channels.
public struct WaveFile: Sendable {
    public var sampleRate: Double
    public var channels: Int
    /// Interleaved samples.
    public var samples: [Float]

    public init(contentsOf url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF",
            String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE"
        else { throw TestToolError("\(url.path): not a WAV file") }
        var format = 0
        var bits = 0
        var rate = 0
        var channelCount = 0
        var offset = 12
        var decoded: [Float]?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            // jack_capture leaves the data size at 0 or too large if interrupted: clamp it.
            let size = min(u32(offset + 4), bytes.count - offset - 8)
            let body = offset + 8
            if id == "fmt " {
                format = u16(body)
                channelCount = u16(body + 2)
                rate = u32(body + 4)
                bits = u16(body + 14)
                if format == 0xFFFE && size >= 26 { format = u16(body + 24) }
            } else if id == "data" {
                if format == 3 && bits == 32 {
                    decoded = stride(from: body, to: body + size - 3, by: 4).map {
                        Float(bitPattern: UInt32(u32($0)))
                    }
                } else if format == 1 && bits == 16 {
                    decoded = stride(from: body, to: body + size - 1, by: 2).map {
                        Float(Int16(bitPattern: UInt16(u16($0)))) / 32768
                    }
                } else {
                    throw TestToolError("\(url.path): format \(format), \(bits) bits is not read here")
                }
            }
            offset = body + size + (size & 1)
        }
        guard let decoded, channelCount > 0, rate > 0 else { throw TestToolError("\(url.path): no fmt or data chunk") }
        sampleRate = Double(rate)
        channels = channelCount
        samples = decoded
    }

    public func channel(_ index: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }
}
