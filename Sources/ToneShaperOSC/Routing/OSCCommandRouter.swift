import ToneShaperCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the host (the JACK node, the document library) lends the OSC server.
public struct OSCHostServices: Sendable {
    /// Callback timing for `/stats`; nil when there is no audio engine to ask.
    public var statistics: (@Sendable () -> NodeStatistics?)?
    /// Finds a document by name (the user's library first, then `Sessions/`).
    public var load: (@Sendable (String) throws -> ToneShape)?
    /// Saves a shape under a name into the user's library (atomically).
    public var save: (@Sendable (ToneShape, String) throws -> Void)?

    public init(statistics: (@Sendable () -> NodeStatistics?)? = nil,
                load: (@Sendable (String) throws -> ToneShape)? = nil,
                save: (@Sendable (ToneShape, String) throws -> Void)? = nil) {
        self.statistics = statistics
        self.load = load
        self.save = save
    }
}

/// What to send back for one message.
enum OSCResponse: Equatable, Sendable {
    /// The change was applied: `<prefix>/ok <address>` (when acknowledgements are on).
    case applied(address: String)
    /// A reply with data (`/state`, `/stats`).
    case reply(OSCMessage)
    /// Nothing changed: `<prefix>/error <address> <reason>`.
    case refused(address: String, reason: String)
}

/// Why a message was refused (the reason goes into the `/error` reply as it is).
struct OSCRequestError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Turns one OSC message into a call on the engine controller, after checking arity,
/// types, finiteness and size. No liblo here: this is the whole meaning of the address
/// space, testable without a socket. Any refusal leaves the controller untouched.
struct OSCCommandRouter: Sendable {
    let space: OSCAddressSpace
    let controller: EngineController
    let services: OSCHostServices
    let maximumStringLength: Int
    let maximumScheduleAhead: Double

    func handle(path: String, arguments: [OSCValue], timeTag: OSCTimeTag,
                now: Double = OSCTimeTag.wallClock()) -> OSCResponse {
        do {
            guard let route = space.route(for: path) else {
                throw OSCRequestError(unknownAddressReason(path))
            }
            try checkSizes(arguments)
            let due = try self.due(timeTag, now: now)
            if let reply = try perform(route, arguments, due: due) { return .reply(reply) }
            return .applied(address: path)
        } catch let error as OSCRequestError {
            return .refused(address: path, reason: error.reason)
        } catch let error as ParameterError {
            return .refused(address: path, reason: error.description)
        } catch {
            return .refused(address: path, reason: OSCCommandRouter.clip("\(error)", 300))
        }
    }

    /// nil for "at once": an immediate tag or one already past (SPEC 12: a tag already
    /// past plays at once). Otherwise wall-clock seconds since 1970.
    func due(_ tag: OSCTimeTag, now: Double) throws(OSCRequestError) -> Double? {
        if tag.isImmediate { return nil }
        let due = tag.unixSeconds
        if due <= now { return nil }
        if due - now > maximumScheduleAhead {
            throw OSCRequestError("time tag is \(Int((due - now).rounded())) s in the future; at most \(Int(maximumScheduleAhead)) s ahead is accepted")
        }
        return due
    }

    private func checkSizes(_ arguments: [OSCValue]) throws(OSCRequestError) {
        for (i, value) in arguments.enumerated() {
            if case .string(let s) = value, s.utf8.count > maximumStringLength {
                throw OSCRequestError("argument \(i + 1) is a string of \(s.utf8.count) bytes; at most \(maximumStringLength) are accepted")
            }
        }
    }

    /// Applies a route; returns the reply message for queries, nil for changes.
    private func perform(_ route: OSCAddressSpace.Route, _ args: [OSCValue], due: Double?) throws -> OSCMessage? {
        switch route {
        case .parameter(let id):
            let spec = ParameterTable.spec(id)
            try expectCount(args, 1, OSCAddressSpace.describe(spec))
            try controller.set(id, to: try OSCCommandRouter.parameterValue(args[0], for: spec), due: due)
        case .frequencyRange:
            try expectCount(args, 2, "min max in Hz")
            try controller.setFrequencyRange(min: try number(args, 0, "min"), max: try number(args, 1, "max"), due: due)
        case .echo:
            try expectCount(args, 2, "offset (s) and volume (0...1)")
            let offset = try number(args, 0, "offset"), volume = try number(args, 1, "volume")
            // Both or neither: checked together on one snapshot, then sent as one change
            // (load diffs the shapes: a new plan for the offset, a ramp for the volume).
            let shape = try controller.shape.setting(.echoOffset, to: .real(offset)).setting(.echoVolume, to: .real(volume))
            try controller.load(shape, due: due)
        case .amplitudeDecibels:
            try expectCount(args, 1, "a level in dBFS, 0 or below")
            let db = try number(args, 0, "level")
            guard db <= 0 else { throw OSCRequestError("\(db) dBFS is above full scale; use 0 or below") }
            try controller.set(.amplitude, to: .real(pow(10, db / 20)), due: due)
        case .points:
            guard args.count >= 2, args.count % 2 == 0 else {
                throw OSCRequestError("expects pairs of numbers t0 f0 t1 f1 ... (seconds, Hz), got \(args.count) argument\(args.count == 1 ? "" : "s")")
            }
            var flat: [Double] = []
            flat.reserveCapacity(args.count)
            for i in args.indices { flat.append(try number(args, i, i % 2 == 0 ? "time" : "frequency")) }
            try controller.setPoints(flat, due: due)
        case .load:
            let name = try documentName(args)
            guard let load = services.load else { throw OSCRequestError("loading documents is not available in this node") }
            let shape = try load(name)
            try controller.load(shape, due: due)
        case .save:
            let name = try documentName(args)
            guard let save = services.save else { throw OSCRequestError("saving documents is not available in this node") }
            try save(controller.shape, name)
        case .play:
            if try isButtonPress(args) { try controller.play(due: due) }
        case .stop:
            if try isButtonPress(args) { try controller.stop(due: due) }
        case .state:
            try expectCount(args, 0, "no arguments")
            return stateReply()
        case .stats:
            try expectCount(args, 0, "no arguments")
            guard let statistics = services.statistics?() else {
                throw OSCRequestError("no statistics: the audio engine is not running")
            }
            return statsReply(statistics)
        }
        return nil
    }

    /// `/state`: key/value pairs, one per parameter of the table in its order (the key is
    /// the parameter's OSC path below the prefix), then "playing" and "points".
    /// Reals are floats, whole numbers and flags int32, names strings.
    func stateReply() -> OSCMessage {
        let shape = controller.shape
        var values: [OSCValue] = []
        for spec in ParameterTable.all {
            values.append(.string(spec.oscPath))
            switch shape.value(of: spec.id) {
            case .real(let d): values.append(.float(Float(d)))
            case .integer(let i): values.append(.int32(Int32(clamping: i)))
            case .text(let s): values.append(.string(s))
            case .flag(let b): values.append(.int32(b ? 1 : 0))
            }
        }
        values += [.string("playing"), .int32(controller.isPlaying ? 1 : 0),
                   .string("points"), .int32(Int32(clamping: shape.points.count))]
        return OSCMessage(path: space.stateAddress, arguments: values)
    }

    /// `/stats`: key/value pairs; times in microseconds as floats, counts as int32
    /// (saturating at 2^31 - 1).
    func statsReply(_ s: NodeStatistics) -> OSCMessage {
        OSCMessage(path: space.statsAddress, arguments: [
            .string("p50"), .float(Float(s.p50)), .string("p99"), .float(Float(s.p99)),
            .string("p999"), .float(Float(s.p999)), .string("max"), .float(Float(s.max)),
            .string("xruns"), .int32(Int32(clamping: s.xruns)), .string("periods"), .int32(Int32(clamping: s.periods)),
            .string("bufferSize"), .int32(Int32(clamping: s.bufferSize)), .string("sampleRate"), .float(Float(s.sampleRate)),
        ])
    }

    // MARK: Argument checks

    /// The OSC value as the parameter table's value type. Whole floats count as integers
    /// where the parameter wants one (many controllers send only floats), NaN and infinity
    /// are refused here with a clear reason, and wrong types are named.
    static func parameterValue(_ value: OSCValue, for spec: ParameterSpec) throws(OSCRequestError) -> ParameterValue {
        switch value {
        case .int32(let i): return .integer(Int(i))
        case .int64(let i): return .integer(Int(i))
        case .float, .double:
            let d = value.number!
            guard d.isFinite else { throw OSCRequestError("expects a finite number, got \(d)") }
            if case .real = spec.kind { return .real(d) }
            if d == d.rounded(), abs(d) <= 9_007_199_254_740_992 { return .integer(Int(d)) }
            return .real(d)
        case .string(let s): return .text(s)
        case .bool(let b): return .flag(b)
        default:
            throw OSCRequestError("expects \(describeExpectation(spec)), got \(value.typeName)")
        }
    }

    private static func describeExpectation(_ spec: ParameterSpec) -> String {
        switch spec.kind {
        case .real, .integer: return "a number"
        case .choice: return "a name or an index"
        case .terms: return "a count or \"nyquist\""
        case .flag: return "0 or 1"
        }
    }

    private func expectCount(_ args: [OSCValue], _ count: Int, _ what: String) throws(OSCRequestError) {
        guard args.count == count else {
            let expected = count == 0 ? "no arguments" : "\(count) argument\(count == 1 ? "" : "s") (\(what))"
            throw OSCRequestError("expects \(expected), got \(args.count)")
        }
    }

    private func number(_ args: [OSCValue], _ i: Int, _ name: String) throws(OSCRequestError) -> Double {
        guard let d = args[i].number else {
            throw OSCRequestError("argument \(i + 1) (\(name)) must be a number, got \(args[i].typeName)")
        }
        guard d.isFinite else { throw OSCRequestError("argument \(i + 1) (\(name)) must be finite, got \(d)") }
        return d
    }

    /// A document name from a remote sender: a plain name, never a path, so a controller
    /// cannot make the node read or write files outside its libraries.
    private func documentName(_ args: [OSCValue]) throws(OSCRequestError) -> String {
        try expectCount(args, 1, "a document name")
        guard let name = args[0].string else { throw OSCRequestError("expects a document name (a string), got \(args[0].typeName)") }
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains(where: { $0 == "/" || $0 == "\\" || $0.isNewline || $0 == "\0" }) else {
            throw OSCRequestError("\"\(name)\" is not a document name; use a plain name such as siren (no path, not starting with a dot)")
        }
        return name
    }

    /// `/play` and `/stop` take no argument, or one (a button: non-zero pressed, 0 released).
    private func isButtonPress(_ args: [OSCValue]) throws(OSCRequestError) -> Bool {
        guard !args.isEmpty else { return true }
        guard args.count == 1 else { throw OSCRequestError("expects no arguments (or one number, as a button sends), got \(args.count)") }
        if case .bool(let b) = args[0] { return b }
        guard let d = args[0].number, d.isFinite else {
            throw OSCRequestError("expects no arguments (or one number, as a button sends), got \(args[0].typeName)")
        }
        return d != 0
    }

    private func unknownAddressReason(_ path: String) -> String {
        if path.contains(where: { "*?[]{}".contains($0) }) {
            return "address patterns are not supported; send to one literal address (see \(space.prefix)/state for the parameters)"
        }
        if !space.prefix.isEmpty, !path.hasPrefix(space.prefix + "/") {
            return "unknown address; this node's addresses start with \(space.prefix)/"
        }
        return "unknown address"
    }

    static func clip(_ s: String, _ maximum: Int) -> String {
        s.utf8.count <= maximum ? s : String(decoding: Array(s.utf8.prefix(maximum)), as: UTF8.self) + "…"
    }
}
