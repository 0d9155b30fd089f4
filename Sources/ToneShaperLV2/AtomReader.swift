import CLV2
import ToneShaperPlugin

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
///
/// The sequence's unit is read leniently: event times are frames unless the unit says beats
/// (units:beat, or atom:beatTime). Hosts commonly leave the unit unset: one that allocates
/// the sequence with malloc and writes only the atom header leaves stale heap bytes there,
/// and LV2 allows 0 and units:frame besides. Reading an unknown unit as frames plays those
/// hosts; refusing it silenced every block. The times themselves are still checked.
struct AtomSequenceReader {
    /// A sequence larger than this is refused when the host gave no buffer size.
    static var defaultCapacity: Int { 1 << 20 }

    private let body: UnsafeRawPointer
    private let size: Int
    private var offset: Int
    private var lastFrame = 0
    private let frames: Int
    /// The events' times are beats from the block's start (a Double), not frames.
    let inBeats: Bool
    /// An event in beats came while no tempo was known: it was played at the block's start.
    private(set) var placedWithoutTempo = false

    /// nil, with the problem noted, when the buffer is no sequence this plugin can read.
    /// `beatUnits` are the URIDs of units:beat and atom:beatTime.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    init?(
        buffer: UnsafeRawPointer, capacity: Int, frames: Int, sequence: LV2_URID, beatUnits: (LV2_URID, LV2_URID), problems: Problems<LV2Problem>
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
        // 0 is never a mapped URID, so an unset unit of 0 is never taken for beats.
        inBeats = unit != 0 && (unit == beatUnits.0 || unit == beatUnits.1)
        body = buffer + header
        size = atomSize
        offset = sequenceHeader
        self.frames = frames
    }

    /// The next event; nil at the end, or at a malformed event (noted in `problems`).
    /// `framesPerBeat` places events in beats: the tempo of the host's last time:Position
    /// (0 when none came yet: such events are played at the block's start).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func next(problems: Problems<LV2Problem>, framesPerBeat: Double) -> AtomEvent? {
        let eventHeader = 16  // time (Int64 frames or Double beats), size, type
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
        var frame: Int
        var inBlock: Bool
        if !inBeats {
            frame = time < 0 ? 0 : (time > Int64(frames) ? frames : Int(time))
            inBlock = frame == Int(truncatingIfNeeded: time)
        } else if framesPerBeat > 0 || time == 0 {
            // Rounded: a beat time converted from a whole frame lands on that frame again.
            // Beat 0 is the block's start at any tempo (a host's time:Position comes there).
            let exact = (Double(bitPattern: UInt64(bitPattern: time)) * framesPerBeat).rounded()
            frame = exact >= 0 ? (exact <= Double(frames) ? Int(exact) : frames) : 0  // (NaN: 0)
            inBlock = exact >= 0 && exact <= Double(frames)
        } else {
            frame = 0
            inBlock = true
            placedWithoutTempo = true
        }
        // An event at the block's length is one past its last frame: hosts write their UI's
        // events there (jalv, at every block a UI sends something), meaning "in this block,
        // after the rest". Played at the last frame, quietly.
        if inBlock && frame == frames { frame = max(frames - 1, 0) }
        if !inBlock || frame < lastFrame {
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
