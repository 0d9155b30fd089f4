/// What a block refuses. The audio thread never logs (no host's log is for it): it counts
/// each kind, and at the end of the block, when any was counted, hands the counts to the
/// work thread in one message, which logs one line per kind (``HeldProblems/take(_:now:host:)``). So a host that floods
/// the plugin with bad events gets at most one message per run() queued, and the sound goes
/// on. Counts that could not be queued (the worker's queue full) wait for the next run.
public enum Problem: Int, CaseIterable, Sendable {
    case eventPastSequence
    case sequenceLongerThanBuffer
    case sequenceNotASequence
    case beatsWithoutTempo
    case eventFrameOutOfOrder
    case unknownEventType
    case midiWrongLength
    case unknownObject
    case patchSetWithoutProperty
    case patchSetWithoutValue
    case patchSetUnknownProperty
    case patchSetValueNotAPath
    case pathTooLong
    case controlNotFinite
    case workQueueFull
    case pointsMalformed

    public static var count: Int { pointsMalformed.rawValue + 1 }

    public var message: StaticString {
        switch self {
        case .eventPastSequence: return "refused an event that runs past the end of its sequence (the rest of the sequence was skipped)"
        case .sequenceLongerThanBuffer: return "refused a control sequence whose size is larger than the port's buffer"
        case .sequenceNotASequence: return "refused a control port buffer that is not an atom:Sequence"
        case .beatsWithoutTempo:
            return
                "the host sent events in beats before any tempo (time:Position with time:beatsPerMinute); they were played at their block's start (said once)"
        case .eventFrameOutOfOrder: return "an event's frame was outside the block or before the previous one; it was played at the nearest frame"
        case .unknownEventType: return "ignored an event of an unknown atom type"
        case .midiWrongLength: return "refused a MIDI event whose length does not match its status byte"
        case .unknownObject: return "refused an atom:Object too short to hold its id and type"
        case .patchSetWithoutProperty: return "refused a patch:Set without a patch:property URID"
        case .patchSetWithoutValue: return "refused a patch:Set without a patch:value"
        case .patchSetUnknownProperty: return "refused a patch:Set of a property the plugin does not have"
        case .patchSetValueNotAPath: return "refused a patch:Set of the document file whose value is not an atom:Path"
        case .pathTooLong: return "refused a document path that is empty, not terminated or longer than 4096 bytes"
        case .controlNotFinite: return "ignored a control port value that is not a finite number"
        case .workQueueFull: return "the host's worker queue was full; a request was dropped"
        case .pointsMalformed:
            return "refused a patch:Set of the curve's points that is not an atom:Vector of atom:Double pairs of at most 4000 points"
        }
    }
}

/// Per-kind counts, in memory allocated when the instance is made.
public struct Problems {
    /// The count of each kind, then (one past them) the count of every problem noted, so
    /// that a block with none (nearly every block) asks one number.
    public let counts: UnsafeMutablePointer<UInt32>

    public init() {
        counts = .allocate(capacity: Problem.count + 1)
        counts.initialize(repeating: 0, count: Problem.count + 1)
    }

    public func free() { counts.deallocate() }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    public func note(_ problem: Problem) {
        counts[problem.rawValue] &+= 1
        counts[Problem.count] &+= 1
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    public func any() -> Bool { counts[Problem.count] != 0 }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func clear() { counts.update(repeating: 0, count: Problem.count + 1) }
}

/// The work thread's side: counts not logged yet, and when each kind was last logged.
public struct HeldProblems {
    let counts: UnsafeMutablePointer<UInt32>
    let lastLogged: UnsafeMutablePointer<Double>

    public init() {
        counts = .allocate(capacity: Problem.count)
        counts.initialize(repeating: 0, count: Problem.count)
        lastLogged = .allocate(capacity: Problem.count)
        lastLogged.initialize(repeating: -.infinity, count: Problem.count)
    }

    public func free() {
        counts.deallocate()
        lastLogged.deallocate()
    }

    /// Takes a block's counts (``Problem/count`` UInt32s, as ``Problems/counts`` holds them)
    /// and logs one line per kind; a kind logged less than a second before `now` (seconds
    /// on a monotonic clock) is held back and counted into its next line, so a host that
    /// sends the same bad input every block gets a line a second, with the count.
    public func take(_ payload: UnsafeRawBufferPointer, now: Double, host: some PluginHost) {
        guard payload.count == Problem.count * 4, let base = payload.baseAddress else { return }
        for index in 0..<Problem.count {
            counts[index] &+= base.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
            guard counts[index] != 0, now - lastLogged[index] >= 1, let problem = Problem(rawValue: index) else { continue }
            HeldProblems.log(problem, count: counts[index], host: host)
            counts[index] = 0
            lastLogged[index] = now
        }
    }

    /// Logs what is still held (the instance is going): nothing counted is lost.
    public func flush(host: some PluginHost) {
        for index in 0..<Problem.count where counts[index] != 0 {
            if let problem = Problem(rawValue: index) { HeldProblems.log(problem, count: counts[index], host: host) }
            counts[index] = 0
        }
    }

    private static func log(_ problem: Problem, count: UInt32, host: some PluginHost) {
        let text = String(decoding: UnsafeRawBufferPointer(start: problem.message.utf8Start, count: problem.message.utf8CodeUnitCount), as: UTF8.self)
        host.log(.warning, count > 1 ? text + " (" + String(count) + " times)" : text)
    }
}
