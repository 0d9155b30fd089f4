import ToneShaperControl
import ToneShaperParameters
import ToneShaperWire

/// What the host (the JACK node) lends the OSC server beyond the controller.
public struct OSCHostServices: Sendable {
    /// Callback timing for `/stats`; nil when there is no audio engine to ask.
    public var statistics: (@Sendable () -> NodeStatistics?)?

    public init(statistics: (@Sendable () -> NodeStatistics?)? = nil) {
        self.statistics = statistics
    }
}

/// What to send back for one message.
enum OSCResponse: Equatable, Sendable {
    /// The change was applied: `<prefix>/ok <address> [note ...]` (when acknowledgements
    /// are on); the notes say what the user should know (a clamp, say).
    case applied(address: String, notes: [String])
    /// A reply with data (`/state`, `/stats`, `/points`).
    case reply(OSCMessage)
    /// Nothing changed: `<prefix>/error <address> <reason>`.
    case refused(address: String, reason: String)
}

/// Translates one OSC message into the core's terms and writes the answer in OSC: OSC
/// values become parameter values, a time tag becomes a due time, the core's reply becomes
/// a message and its errors are said with OSC addresses. The meaning of every address is
/// the core's (`ControlSurface`); nothing here knows what a parameter does.
struct OSCCommandRouter: Sendable {
    let space: OSCAddressSpace
    let surface: ControlSurface
    let maximumStringLength: Int
    /// The most points one UDP reply carries (liblo's datagrams stop near 64 KiB).
    static let maximumPointsInReply = 4000

    init(space: OSCAddressSpace, controller: EngineController, services: OSCHostServices, maximumStringLength: Int) {
        self.space = space
        surface = ControlSurface(controller: controller, statistics: services.statistics)
        self.maximumStringLength = maximumStringLength
    }

    var controller: EngineController { surface.controller }

    func handle(
        path: String, arguments: [OSCValue], timeTag: OSCTimeTag,
        now: Double = OSCTimeTag.wallClock()
    ) -> OSCResponse {
        do throws(ControlError) {
            guard let address = space.address(for: path) else {
                return .refused(address: path, reason: unknownAddressReason(path))
            }
            let due = timeTag.isImmediate ? nil : timeTag.unixSeconds
            let longest = OSCCommandRouter.takesFileText(address) ? OSCCommandRouter.maximumFileText : maximumStringLength
            switch try surface.perform(address, try parameterValues(arguments, maximumStringLength: longest), due: due, now: now) {
            case .done(let notes): return .applied(address: path, notes: notes)
            case .state(let state): return .reply(stateReply(state))
            case .stats(let figures): return .reply(statsReply(figures))
            case .points(let points, let curvatures):
                guard points.count <= OSCCommandRouter.maximumPointsInReply else {
                    throw ControlError(
                        .command(.points),
                        "the curve has \(points.count) points, more than one reply carries (\(OSCCommandRouter.maximumPointsInReply))")
                }
                return .reply(OSCMessage(path: space.prefix + "/points", arguments: OSCCommandRouter.flatPoints(points, curvatures)))
            }
        } catch {
            return .refused(address: path, reason: phrase(error))
        }
    }

    /// The core's error in OSC words: subjects by their full address, remedies by the
    /// address that helps.
    func phrase(_ error: ControlError) -> String { error.phrased(addressPrefix: space.prefix) }

    /// `/state`: key/value pairs, one per parameter of the table in its order (the key is
    /// the parameter's OSC path below the prefix), then "playing", then "points" followed by
    /// the points themselves, t0 f0 t1 f1 ... to the end of the message. Reals are floats,
    /// whole numbers and flags int32, names strings. A curve of more points than one
    /// datagram carries (`maximumPointsInReply`) ends with "pointCount" N instead; `/points`
    /// over TCP reads it whole.
    func stateReply(_ state: ControlState? = nil) -> OSCMessage {
        let state = state ?? controller.state
        var values = OSCCommandRouter.keyValues(state.parameterFields + [("playing", .flag(state.playing))])
        if state.shape.points.count <= OSCCommandRouter.maximumPointsInReply {
            values.append(.string("points"))
            values += OSCCommandRouter.flatPoints(state.shape.points, state.shape.curvatures)
        } else {
            values += [.string("pointCount"), .int32(Int32(clamping: state.shape.points.count))]
        }
        return OSCMessage(path: space.stateAddress, arguments: values)
    }

    /// What a subscriber is sent when `keys` changed: each parameter at its own address
    /// with its value, `/points` with the points, `/playing` 1 or 0.
    func updateMessages(for keys: Set<StateKey>) -> [OSCMessage] {
        let state = controller.state
        var messages: [OSCMessage] = []
        for spec in ParameterTable.all where keys.contains(.parameter(spec.id)) {
            messages.append(OSCMessage(path: space.prefix + "/" + spec.oscPath, arguments: [OSCCommandRouter.oscValue(spec.value(in: state.shape))]))
        }
        if keys.contains(.points), state.shape.points.count <= OSCCommandRouter.maximumPointsInReply {
            messages.append(
                OSCMessage(path: space.prefix + "/points", arguments: OSCCommandRouter.flatPoints(state.shape.points, state.shape.curvatures)))
        }
        if keys.contains(.playing) {
            messages.append(OSCMessage(path: space.prefix + "/playing", arguments: [.int32(state.playing ? 1 : 0)]))
        }
        return messages
    }

    /// t0 f0 t1 f1 ..., then "curvatures" c0 c1 ... when any segment bends (as `/points` takes them).
    static func flatPoints(_ points: [CurvePoint], _ curvatures: [Double] = []) -> [OSCValue] {
        let flat = points.flatMap { [OSCValue.float(Float($0.time)), .float(Float($0.frequency))] }
        guard curvatures.count == points.count - 1, curvatures.contains(where: { $0 != 0 }) else { return flat }
        return flat + [.string("curvatures")] + curvatures.map { .float(Float($0)) }
    }

    static func oscValue(_ value: ParameterValue) -> OSCValue {
        switch value {
        case .real(let d): return .float(Float(d))
        case .integer(let i): return .int32(Int32(clamping: i))
        case .text(let s): return .string(s)
        case .flag(let b): return .int32(b ? 1 : 0)
        }
    }

    /// The core's fields as OSC key/value arguments.
    static func keyValues(_ fields: [(String, ParameterValue)]) -> [OSCValue] {
        fields.flatMap { [OSCValue.string($0.0), oscValue($0.1)] }
    }

    /// `/stats`: key/value pairs; times in microseconds as floats, counts as int32
    /// (saturating at 2^31 - 1).
    func statsReply(_ s: NodeStatistics) -> OSCMessage {
        OSCMessage(path: space.statsAddress, arguments: OSCCommandRouter.keyValues(s.fields.map { ($0.name, $0.value) }))
    }

    /// OSC arguments as the core's values: ints and floats as numbers (NaN and infinity
    /// refused here, with their position), strings as text, booleans as flags. Anything
    /// else (blobs, nil, MIDI) is refused by name.
    func parameterValues(_ arguments: [OSCValue]) throws(ControlError) -> [ParameterValue] {
        try parameterValues(arguments, maximumStringLength: maximumStringLength)
    }

    /// The addresses whose string is a whole file's text (a Scala scale or keyboard map),
    /// which may be longer than a name: up to `maximumFileText` bytes (what a UDP packet holds).
    static func takesFileText(_ address: ControlAddress) -> Bool {
        address.target == .command(.tuningScale) || address.target == .command(.tuningMap)
    }
    static let maximumFileText = 60_000

    func parameterValues(_ arguments: [OSCValue], maximumStringLength: Int) throws(ControlError) -> [ParameterValue] {
        var values: [ParameterValue] = []
        values.reserveCapacity(arguments.count)
        for (i, argument) in arguments.enumerated() {
            switch argument {
            case .int32(let n): values.append(.integer(Int(n)))
            case .int64(let n): values.append(.integer(Int(n)))
            case .float, .double:
                let d = argument.number!
                guard d.isFinite else { throw ControlError(.value, "argument \(i + 1) must be a finite number, got \(d)") }
                values.append(.real(d))
            case .string(let s):
                guard s.utf8.count <= maximumStringLength else {
                    throw ControlError(.value, "argument \(i + 1) is a string of \(s.utf8.count) bytes; at most \(maximumStringLength) are accepted")
                }
                values.append(.text(s))
            case .bool(let b): values.append(.flag(b))
            default:
                throw ControlError(.value, "argument \(i + 1) must be a number, a string or a boolean, got \(argument.typeName)")
            }
        }
        return values
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
