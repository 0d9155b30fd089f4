import ToneShaperControl

/// The addresses the node answers over OSC (SPEC 10): the core's `ControlAddress` list
/// below a prefix. Public so that `--help` texts and the OSC reference can list exactly what the
/// server implements.
public struct OSCAddressSpace: Sendable {
    public struct Entry: Sendable {
        /// The full address, prefix included ("/toneshaper/frequency/min").
        public let address: String
        /// What the arguments are, for people ("value (Hz, 0...96000)").
        public let arguments: String
        public let help: String
        public let target: ControlAddress.Target
    }

    public let prefix: String
    public let entries: [Entry]

    /// Replies: `<prefix>/ok <address>`, `<prefix>/error <address> <reason>`,
    /// `<prefix>/state key value ...`, `<prefix>/stats key value ...`.
    public var okAddress: String { prefix + "/ok" }
    public var errorAddress: String { prefix + "/error" }
    public var stateAddress: String { prefix + "/state" }
    public var statsAddress: String { prefix + "/stats" }

    /// - Parameter prefix: already normalised ("/toneshaper", or "" for none).
    public init(prefix: String) {
        self.prefix = prefix
        entries = ControlAddress.all.map { Entry(address: prefix + "/" + $0.path, arguments: $0.arguments, help: $0.help, target: $0.target) }
    }

    /// The core's address for an incoming OSC address. Addresses are literal: an OSC
    /// pattern such as "/toneshaper/*" matches nothing (and is answered with an error), so
    /// one message can never fan out into play, stop and every setter at once.
    public func address(for oscAddress: String) -> ControlAddress? {
        guard oscAddress.hasPrefix(prefix + "/") else { return nil }
        return ControlAddress.named(String(oscAddress.dropFirst(prefix.count + 1)))
    }
}
