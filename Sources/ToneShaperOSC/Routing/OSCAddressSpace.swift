import ToneShaperCore

/// The addresses the node answers (SPEC 10), derived from `ParameterTable.all` for the
/// single parameters, plus the composite commands. Public so that `--help` texts and the
/// README can list exactly what the server implements.
public struct OSCAddressSpace: Sendable {
    public enum Route: Equatable, Sendable {
        case parameter(ParameterID)
        case frequencyRange, echo, amplitudeDecibels, points, load, save, play, stop, state, stats
    }

    public struct Entry: Sendable {
        /// The full address, prefix included ("/toneshaper/frequency/min").
        public let address: String
        /// What the arguments are, for people ("value (Hz, 0...96000)").
        public let arguments: String
        public let help: String
        public let route: Route
    }

    public let prefix: String
    public let entries: [Entry]
    private let byAddress: [String: Route]

    /// Replies: `<prefix>/ok <address>`, `<prefix>/error <address> <reason>`,
    /// `<prefix>/state key value ...`, `<prefix>/stats key value ...`.
    public var okAddress: String { prefix + "/ok" }
    public var errorAddress: String { prefix + "/error" }
    public var stateAddress: String { prefix + "/state" }
    public var statsAddress: String { prefix + "/stats" }

    /// - Parameter prefix: already normalised ("/toneshaper", or "" for none).
    public init(prefix: String) {
        self.prefix = prefix
        var entries = ParameterTable.all.map { spec in
            Entry(address: prefix + "/" + spec.oscPath, arguments: OSCAddressSpace.describe(spec), help: spec.help,
                  route: .parameter(spec.id))
        }
        let composites: [(String, String, String, Route)] = [
            ("frequency/range", "min max (Hz)", "Both ends of the range at once; the curve is remapped onto it", .frequencyRange),
            ("echo", "offset volume", "Both echo values at once", .echo),
            ("amplitude/db", "dBFS (<= 0)", "Master gain in decibels; 0 dBFS is full scale", .amplitudeDecibels),
            ("points", "t0 f0 t1 f1 ... (s, Hz)", "Replace the curve; times sorted, within the duration", .points),
            ("load", "name", "Load a document by name: the user's library first, then the built-in sessions", .load),
            ("save", "name", "Save the current document into the user's library", .save),
            ("play", "[1]", "Start playing (fades in); a single 0 argument (a button release) is ignored", .play),
            ("stop", "[1]", "Stop playing (fades out); a single 0 argument (a button release) is ignored", .stop),
            ("state", "", "Reply \(prefix)/state with every parameter, \"playing\" and \"points\"", .state),
            ("stats", "", "Reply \(prefix)/stats with audio callback timing, xruns and periods", .stats),
        ]
        entries += composites.map { Entry(address: prefix + "/" + $0.0, arguments: $0.1, help: $0.2, route: $0.3) }
        self.entries = entries
        var byAddress: [String: Route] = [:]
        for entry in entries {
            precondition(byAddress[entry.address] == nil, "OSC address \(entry.address) is declared twice")
            byAddress[entry.address] = entry.route
        }
        self.byAddress = byAddress
    }

    /// The route for an incoming address. Addresses are literal: an OSC pattern such as
    /// "/toneshaper/*" matches nothing (and is answered with an error), so one message can
    /// never fan out into play, stop and every setter at once.
    public func route(for address: String) -> Route? { byAddress[address] }

    static func describe(_ spec: ParameterSpec) -> String {
        let unit = spec.unit.isEmpty ? "" : "\(spec.unit), "
        switch spec.kind {
        case .real(let range): return "value (\(unit)\(plain(range.lowerBound))...\(plain(range.upperBound)))"
        case .integer(let range): return "N (\(range.lowerBound)...\(range.upperBound))"
        case .choice(let names): return "name or index 0...\(names.count - 1) (\(names.joined(separator: ", ")))"
        case .terms: return "count (>= 1) or \"nyquist\""
        case .flag: return "0 or 1"
        }
    }

    static func plain(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
