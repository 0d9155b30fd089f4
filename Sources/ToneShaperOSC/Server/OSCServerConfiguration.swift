import ToneShaperWire

extension OSCControlServer {
    /// How the OSC control server listens and whom it obeys (SPEC 10).
    public struct Configuration: Sendable {
        /// UDP port; 0 picks any free port (read it back from `OSCControlServer.port`).
        public var port: Int = 9000
        /// nil (the default): control from this machine only. "0.0.0.0" (or "::"): from any
        /// sender. An address of one of this machine's interfaces: from that interface's
        /// subnet. See `AccessPolicy`.
        public var host: String?
        /// Every address lives below this ("/toneshaper"). "" puts them at the root.
        public var prefix: String = "/toneshaper"
        /// Further senders allowed, in CIDR notation ("192.168.1.0/24", "::1/128", "10.0.0.7").
        /// Loopback is always allowed.
        public var allow: [String] = []
        /// Reply `<prefix>/ok <address>` to every change applied. On by default: a
        /// controller learns its change landed, and latency can be measured end to end.
        public var acknowledge = true
        /// Error replies each sender may receive per second on average, and in a burst,
        /// so a flood of bad messages (possibly with a forged source) cannot turn the node
        /// into an amplifier.
        public var errorRepliesPerSecond: Double = 200
        public var errorReplyBurst: Double = 200
        /// Error and refusal log lines per second; beyond it a summary says how many were
        /// suppressed.
        public var logLinesPerSecond = 5
        /// A bundle time tag further ahead than this is refused: a far-future command would
        /// wait in the audio thread's queue and hold back everything behind it.
        public var maximumScheduleAhead: Double = 60
        /// Longest string argument (document names) accepted, in bytes.
        public var maximumStringLength = 255

        public init(port: Int = 9000, host: String? = nil, prefix: String = "/toneshaper", allow: [String] = []) {
            self.port = port
            self.host = host
            self.prefix = prefix
            self.allow = allow
        }

        /// Checks every field without opening anything, so that a command line can be
        /// refused before it touches JACK.
        public func check() throws(OSCConfigurationError) {
            _ = try validated()
        }

        /// Checks every field and returns the normalised prefix and the access policy, or
        /// an error that says which field is wrong and how to fix it.
        func validated() throws(OSCConfigurationError) -> (prefix: String, policy: AccessPolicy) {
            guard (0...65535).contains(port) else {
                throw OSCConfigurationError("OSC port \(port) is out of range; use 1...65535, or 0 for any free port")
            }
            let prefix = try OSCControlServer.Configuration.normalisedPrefix(prefix)
            var ranges: [AddressRange] = []
            for entry in allow {
                do { ranges.append(try AddressRange(parsing: entry)) } catch { throw OSCConfigurationError(error.description) }
            }
            let policy = try AccessPolicy(host: host, allow: ranges)
            guard errorRepliesPerSecond > 0, errorReplyBurst >= 1, logLinesPerSecond >= 1, maximumScheduleAhead > 0,
                maximumStringLength >= 1
            else {
                throw OSCConfigurationError("OSC rate limits and sizes must be positive")
            }
            return (prefix, policy)
        }

        /// "/toneshaper", "toneshaper" and "/toneshaper/" all mean "/toneshaper"; "" and "/"
        /// mean no prefix. OSC pattern characters are refused: a prefix is a literal address.
        static func normalisedPrefix(_ text: String) throws(OSCConfigurationError) -> String {
            var prefix = text.trimmingWhitespace
            while prefix.hasSuffix("/") { prefix.removeLast() }
            if prefix.isEmpty { return "" }
            if !prefix.hasPrefix("/") { prefix = "/" + prefix }
            guard prefix.utf8.count <= 128, !prefix.contains(where: { " #*,?[]{}".contains($0) || !$0.isASCII || $0.isNewline }) else {
                throw OSCConfigurationError("OSC prefix \"\(text)\" must be a plain ASCII address such as /toneshaper (no spaces or any of #*,?[]{})")
            }
            return prefix
        }
    }
}
