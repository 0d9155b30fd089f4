import CLV2

/// One event of a sequence, checked: its body lies wholly inside the sequence.
struct AtomEvent {
    /// The frame, within the block and never before the previous event's.
    let frame: Int
    let type: LV2_URID
    /// The body (`size` bytes after the atom header).
    let body: UnsafeRawBufferPointer
}

/// Reads an atom:Sequence from a port's buffer without trusting a single size in it: the
/// sequence must fit the port's buffer (when the host said how large it is, else a sane
/// limit), every event header and body must fit the sequence, and a malformed event ends
/// the reading (the events after it cannot be found). Frames outside the block, or before
/// the previous event's, are moved to the nearest frame allowed.
struct AtomSequenceReader {
    /// A sequence larger than this is refused when the host gave no buffer size.
    static var defaultCapacity: Int { 1 << 20 }

    private let body: UnsafeRawPointer
    private let size: Int
    private var offset: Int
    private var lastFrame = 0
    private let frames: Int

    /// nil, with the problem noted, when the buffer is no sequence this plugin can read.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    init?(
        buffer: UnsafeRawPointer, capacity: Int, frames: Int, sequence: LV2_URID, frameTime: LV2_URID, problems: Problems
    ) {
        let header = MemoryLayout<LV2_Atom>.size  // size, type
        let sequenceHeader = MemoryLayout<LV2_Atom_Sequence_Body>.size  // unit, pad
        let atomSize = Int(buffer.loadUnaligned(as: UInt32.self))
        let atomType = buffer.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        if atomType != sequence {
            // A host may leave an unused input port with an empty atom of type 0.
            if atomType != 0 || atomSize != 0 { problems.note(.sequenceNotASequence) }
            return nil
        }
        if atomSize > capacity - header {
            problems.note(.sequenceLongerThanBuffer)
            return nil
        }
        if atomSize < sequenceHeader { return nil }  // an empty sequence
        let unit = buffer.loadUnaligned(fromByteOffset: header, as: UInt32.self)
        if unit != 0 && unit != frameTime {
            problems.note(.sequenceTimeUnit)
            return nil
        }
        body = buffer + header
        size = atomSize
        offset = sequenceHeader
        self.frames = frames
    }

    /// The next event; nil at the end, or at a malformed event (noted in `problems`).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func next(problems: Problems) -> AtomEvent? {
        let eventHeader = 16  // frames (Int64), size, type
        if offset >= size { return nil }
        if size - offset < eventHeader {
            problems.note(.eventPastSequence)
            offset = size
            return nil
        }
        let time = body.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        let eventSize = Int(body.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
        let type = body.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
        let start = offset + eventHeader
        if eventSize > size - start {
            problems.note(.eventPastSequence)
            offset = size
            return nil
        }
        // Events are padded to 8 bytes; the padding of the last may be missing.
        let padded = (eventSize + 7) & ~7
        offset = padded > size - start ? size : start + padded
        var frame = time < 0 ? 0 : (time > Int64(frames) ? frames : Int(time))
        if frame != Int(truncatingIfNeeded: time) || frame < lastFrame || (frame == frames && frames > 0) {
            problems.note(.eventFrameOutOfOrder)
            frame = max(lastFrame, min(frame, max(frames - 1, 0)))
        }
        lastFrame = frame
        return AtomEvent(frame: frame, type: type, body: UnsafeRawBufferPointer(start: body + start, count: eventSize))
    }
}

/// The properties of an atom:Object body, each checked to lie inside it.
struct AtomObject {
    let id: LV2_URID
    let otype: LV2_URID
    private let body: UnsafeRawBufferPointer

    /// nil when the body is too short to be an object.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    init?(_ body: UnsafeRawBufferPointer) {
        guard body.count >= 8, let base = body.baseAddress else { return nil }
        id = base.loadUnaligned(as: UInt32.self)
        otype = base.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        self.body = body
    }

    /// The value of property `key` (its type and body), or nil when the object has none or
    /// is malformed before it.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func property(_ key: LV2_URID) -> (type: LV2_URID, body: UnsafeRawBufferPointer)? {
        guard let base = body.baseAddress else { return nil }
        var offset = 8
        let propertyHeader = 16  // key, context, value size, value type
        while body.count - offset >= propertyHeader {
            let thisKey = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let valueSize = Int(base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
            let valueType = base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
            let start = offset + propertyHeader
            if valueSize > body.count - start { return nil }
            if thisKey == key {
                return (valueType, UnsafeRawBufferPointer(start: base + start, count: valueSize))
            }
            offset = start + ((valueSize + 7) & ~7)
        }
        return nil
    }
}

/// The length a MIDI message with this status byte has; 0 for messages the plugin takes in
/// no length (system exclusive) or that are not a status byte.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
func midiMessageLength(status: UInt8) -> Int {
    switch status {
    case 0x80...0xBF, 0xE0...0xEF: return 3
    case 0xC0...0xDF: return 2
    case 0xF1, 0xF3: return 2
    case 0xF2: return 3
    case 0xF6, 0xF8...0xFF: return 1
    default: return 0
    }
}
