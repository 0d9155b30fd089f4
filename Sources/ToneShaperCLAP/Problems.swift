/// What process() and flush() refuse. The audio thread never logs: it counts each kind,
/// and at the end of the block hands the counts to the work thread in one message, which
/// logs one line per kind at most once a second (with the count).
enum CLAPProblem: Int {
    case eventPastBlock
    case eventOutOfOrder
    case eventTooShort
    case unknownEvent
    case unknownParameter
    case notModulatable
    case parameterNotFinite
    case parameterOutOfRange
    case midiMalformed
    case noteOutOfRange
    case expressionRefused
    case workQueueFull

    static var count: Int { workQueueFull.rawValue + 1 }

    var message: StaticString {
        switch self {
        case .eventPastBlock: return "refused an event timed at or after the end of its block"
        case .eventOutOfOrder: return "refused an event timed before the event ahead of it (events must come in time order)"
        case .eventTooShort: return "refused an event whose size is smaller than its type's"
        case .unknownEvent: return "ignored an event of a core type the plugin does not take"
        case .unknownParameter: return "refused a parameter event for an id the plugin does not have"
        case .notModulatable: return "refused a modulation of a parameter that is not modulatable (only amplitude, tune and echo volume are)"
        case .parameterNotFinite: return "refused a parameter value or modulation that is not a finite number"
        case .parameterOutOfRange: return "refused a parameter value outside the parameter's range"
        case .midiMalformed: return "refused a MIDI event whose bytes do not form a message"
        case .noteOutOfRange: return "refused a note event whose key, channel or velocity is out of range"
        case .expressionRefused: return "refused a note expression whose value is out of range or not finite"
        case .workQueueFull: return "the work thread's queue was full; a request was dropped"
        }
    }
}

/// Per-kind counts, in memory allocated when the instance is made.
struct CLAPProblems {
    let counts: UnsafeMutablePointer<UInt32>

    init() {
        counts = .allocate(capacity: CLAPProblem.count)
        counts.initialize(repeating: 0, count: CLAPProblem.count)
    }

    func free() { counts.deallocate() }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    @inline(__always)
    func note(_ problem: CLAPProblem) { counts[problem.rawValue] &+= 1 }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func any() -> Bool {
        for i in 0..<CLAPProblem.count where counts[i] != 0 { return true }
        return false
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func clear() { counts.update(repeating: 0, count: CLAPProblem.count) }
}

/// The work thread's side: counts not logged yet, and when each kind was last logged.
struct HeldCLAPProblems {
    let counts: UnsafeMutablePointer<UInt32>
    let lastLogged: UnsafeMutablePointer<Double>

    init() {
        counts = .allocate(capacity: CLAPProblem.count)
        counts.initialize(repeating: 0, count: CLAPProblem.count)
        lastLogged = .allocate(capacity: CLAPProblem.count)
        lastLogged.initialize(repeating: -.infinity, count: CLAPProblem.count)
    }

    func free() {
        counts.deallocate()
        lastLogged.deallocate()
    }

    /// Adds a block's counts and logs each kind not logged in the last second.
    func take(_ payload: UnsafeRawBufferPointer, now: Double, log: (StaticString, UInt32) -> Void) {
        guard payload.count == CLAPProblem.count * 4, let base = payload.baseAddress else { return }
        for index in 0..<CLAPProblem.count {
            counts[index] &+= base.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
            guard counts[index] != 0, now - lastLogged[index] >= 1, let problem = CLAPProblem(rawValue: index) else { continue }
            log(problem.message, counts[index])
            counts[index] = 0
            lastLogged[index] = now
        }
    }

    /// Logs what is still held (the instance is going).
    func flush(log: (StaticString, UInt32) -> Void) {
        for index in 0..<CLAPProblem.count where counts[index] != 0 {
            if let problem = CLAPProblem(rawValue: index) { log(problem.message, counts[index]) }
            counts[index] = 0
        }
    }
}
