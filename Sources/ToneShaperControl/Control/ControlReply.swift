import ToneShaperParameters

/// What an address answers, whatever the wire: done (with what the user should know), or
/// the data a query asked for. Each front end writes it in its own format.
public enum ControlReply: Sendable, Equatable {
    /// The change landed (or there was nothing to do: a button's release).
    case done(notes: [String])
    case state(ControlState)
    /// The curve's points and, when any segment bends, each segment's curvature (else none).
    case points([CurvePoint], curvatures: [Double])
    case stats(NodeStatistics)
}

/// Every address of `ControlAddress.all`, performed: the one dispatch that OSC, the web
/// page's `/control` and its WebSocket share. A front end finds the address, turns its
/// wire's values into `ParameterValue`s, and writes the reply or phrases the refusal.
public struct ControlSurface: Sendable {
    public let controller: EngineController
    /// The audio callback's figures for `stats`; nil, or a nil answer, while no audio runs.
    public let statistics: (@Sendable () -> NodeStatistics?)?

    public init(controller: EngineController, statistics: (@Sendable () -> NodeStatistics?)? = nil) {
        self.controller = controller
        self.statistics = statistics
    }

    /// Performs `arguments` sent to `address`, at `due` (Unix seconds; nil: at once).
    /// Nothing changes when it is refused.
    public func perform(
        _ address: ControlAddress, _ arguments: [ParameterValue], due: Double? = nil, now: Double? = nil
    ) throws(ControlError) -> ControlReply {
        switch try address.request(arguments) {
        case .nothing: return .done(notes: [])
        case .command(let command): return .done(notes: try controller.perform(command, due: due, now: now).notes)
        case .query(.state): return .state(controller.state)
        case .query(.points): return .points(controller.shape.points, curvatures: controller.shape.curvatures)
        case .query(.stats): return .stats(try currentStatistics())
        }
    }

    /// The figures, or the refusal `stats` gives when there are none (also for a front end
    /// that asks without an address: the web's `GET /stats`).
    public func currentStatistics() throws(ControlError) -> NodeStatistics {
        guard let figures = statistics?() else { throw ControlError(.command(.stats), "no statistics: the audio engine is not running") }
        return figures
    }
}

// The one encoder of `state` and `stats`: the fields in order, as core values. OSC writes
// them as key/value arguments, JSON as objects; neither chooses keys, order or types.

extension ControlState {
    /// Every parameter by its address (below any prefix), in the table's order.
    public var parameterFields: [(address: String, value: ParameterValue)] {
        ParameterTable.all.map { ($0.oscPath, $0.value(in: shape)) }
    }
}

extension NodeStatistics {
    /// The figures by name: times in microseconds and the rate as reals, counts as integers.
    public var fields: [(name: String, value: ParameterValue)] {
        [
            ("p50", .real(p50)), ("p99", .real(p99)), ("p999", .real(p999)), ("max", .real(max)),
            ("xruns", .integer(xruns)), ("periods", .integer(periods)), ("bufferSize", .integer(bufferSize)),
            ("sampleRate", .real(sampleRate)), ("frame", .integer(frame)),
        ]
    }
}
