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
/// the reading (the events after it cannot be found). The events' times are placed in the
/// block by the core's ``EventPlacement``.
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
    /// The events' times are beats from the block's start (a Double), not frames.
    let inBeats: Bool
    private(set) var placement: EventPlacement

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
        // An empty sequence (a header alone, what most blocks bring): no events to read.
        if atomSize <= sequenceHeader { return nil }
        let unit = buffer.loadUnaligned(fromByteOffset: header, as: UInt32.self)
        // 0 is never a mapped URID, so an unset unit of 0 is never taken for beats.
        inBeats = unit != 0 && (unit == beatUnits.0 || unit == beatUnits.1)
        body = buffer + header
        size = atomSize
        offset = sequenceHeader
        placement = EventPlacement(frames: frames)
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
        let (frame, moved) =
            inBeats
            ? placement.place(beats: Double(bitPattern: UInt64(bitPattern: time)), framesPerBeat: framesPerBeat)
            : placement.place(frames: time)
        if moved { problems.note(.eventFrameOutOfOrder) }
        return AtomEvent(frame: frame, type: type, body: UnsafeRawBufferPointer(start: body + start, count: eventSize))
    }
}
