/// One MIDI event as the host delivers it: its frame inside the period and its first
/// bytes. Plain data, so the JACK side copies events into a fixed array the audio thread
/// owns, and the core parses them without touching JACK.
///
/// A system exclusive message (the MIDI Tuning Standard's) keeps its whole bytes where the
/// host has them (`sysex`), valid while the call that hands the event over lasts: JACK's
/// port buffer for the period, the plugin core's own copy for the block.
public struct MIDIEvent: @unchecked Sendable, BitwiseCopyable, Equatable {
    /// Frame inside the period (0 = its first sample).
    public var frame: Int
    /// How many bytes the event has in all (a sysex message has more than the three kept).
    public var size: Int
    public var byte0: UInt8
    public var byte1: UInt8
    public var byte2: UInt8
    /// A system exclusive message's `size` bytes (F0 ... F7), nil for any other message.
    public var sysex: UnsafeRawPointer?

    @inlinable
    public init(frame: Int, size: Int, byte0: UInt8, byte1: UInt8 = 0, byte2: UInt8 = 0, sysex: UnsafeRawPointer? = nil) {
        self.frame = frame
        self.size = size
        self.byte0 = byte0
        self.byte1 = byte1
        self.byte2 = byte2
        self.sysex = sysex
    }

    /// An event from up to the first three bytes of `bytes`; a system exclusive message
    /// keeps `bytes` whole (they must outlive the event's handling). Inlinable: the JACK
    /// process callback makes events under the real-time proof.
    @inlinable
    public init(frame: Int, bytes: UnsafePointer<UInt8>, size: Int) {
        self.init(
            frame: frame, size: size, byte0: size > 0 ? bytes[0] : 0,
            byte1: size > 1 ? bytes[1] : 0, byte2: size > 2 ? bytes[2] : 0,
            sysex: size > 0 && bytes[0] == 0xF0 ? UnsafeRawPointer(bytes) : nil)
    }

    /// The system exclusive message's bytes, if it is one.
    public var sysexBytes: UnsafeRawBufferPointer? {
        guard let sysex, byte0 == 0xF0, size > 0 else { return nil }
        return UnsafeRawBufferPointer(start: sysex, count: size)
    }
}

/// What a MIDI event means to the node. Channels are 0...15.
public enum MIDIMessage: Sendable, Equatable, BitwiseCopyable {
    case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
    case noteOff(channel: UInt8, note: UInt8)
    case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
    case programChange(channel: UInt8, program: UInt8)
    /// -8192...8191, 0 = centre.
    case pitchBend(channel: UInt8, value: Int)

    public var channel: UInt8 {
        switch self {
        case .noteOn(let c, _, _), .noteOff(let c, _), .controlChange(let c, _, _),
            .programChange(let c, _), .pitchBend(let c, _):
            return c
        }
    }
}

/// Turns events into messages on the audio thread: no allocation, no state but the running
/// status. Whatever is not understood is dropped, never trusted: a data byte without a
/// status before it, a message cut short, sysex and system messages, data bytes with the
/// top bit set. Channel pressure and polyphonic aftertouch are read and ignored.
public struct MIDIParser: Sendable {
    /// The last channel status byte (0 = none), for events that leave it out.
    public private(set) var runningStatus: UInt8 = 0

    public init() {}

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public mutating func parse(_ event: MIDIEvent) -> MIDIMessage? {
        guard event.size > 0 else { return nil }
        var status = event.byte0
        var data0: UInt8
        var data1: UInt8
        var available: Int
        if status < 0x80 {
            // Running status: the event starts with data; the last status applies.
            guard runningStatus != 0 else { return nil }
            status = runningStatus
            data0 = event.byte0
            data1 = event.byte1
            available = min(event.size, 2)
        } else if status >= 0xF8 {
            return nil  // real-time bytes (clock, start, stop) leave the running status alone
        } else if status >= 0xF0 {
            runningStatus = 0  // sysex and system common messages cancel it
            return nil
        } else {
            runningStatus = status
            data0 = event.byte1
            data1 = event.byte2
            available = min(event.size - 1, 2)
        }
        let kind = status & 0xF0
        let channel = status & 0x0F
        let needed = kind == 0xC0 || kind == 0xD0 ? 1 : 2
        guard available >= needed, data0 < 0x80, needed == 1 || data1 < 0x80 else { return nil }
        switch kind {
        case 0x80: return .noteOff(channel: channel, note: data0)
        case 0x90: return data1 == 0 ? .noteOff(channel: channel, note: data0) : .noteOn(channel: channel, note: data0, velocity: data1)
        case 0xB0: return .controlChange(channel: channel, controller: data0, value: data1)
        case 0xC0: return .programChange(channel: channel, program: data0)
        case 0xE0: return .pitchBend(channel: channel, value: (Int(data1) << 7 | Int(data0)) - 8192)
        default: return nil  // 0xA0 polyphonic aftertouch, 0xD0 channel pressure
        }
    }
}
