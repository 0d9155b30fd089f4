import ToneShaperControl
import ToneShaperJSON
import ToneShaperWire

/// How the web server listens and whom it serves.
public struct WebConfiguration: Sendable {
    /// The default port, and where the search for a free one starts when it is taken.
    public static let defaultPort = 9001
    /// Ports tried after a taken default port (9001, 9002, ...).
    public static let portSearchLength = 20

    /// TCP port; 0 picks any free port.
    public var port: Int
    /// When true and `port` is taken, the next free port above it is used instead.
    public var searchFreePort: Bool
    /// Serve this interface's network as well as this machine (nil: loopback only; "0.0.0.0": everyone
    /// the allow list and the token let in). Same meaning as `--osc-host`.
    public var host: String?
    /// More senders allowed (CIDR), as `--osc-allow`.
    public var allow: [AddressRange]
    /// What `?HOST_INFO` tells OSCQuery clients: the node's name, its OSC port and prefix.
    public var name: String
    public var oscPort: Int?
    public var oscPrefix: String

    public init(
        port: Int = WebConfiguration.defaultPort, searchFreePort: Bool = true, host: String? = nil,
        allow: [AddressRange] = [], name: String = "toneshaper", oscPort: Int? = nil, oscPrefix: String = "/toneshaper"
    ) {
        self.port = port
        self.searchFreePort = searchFreePort
        self.host = host
        self.allow = allow
        self.name = name
        self.oscPort = oscPort
        self.oscPrefix = oscPrefix
    }
}

/// Limits that keep a misbehaving page or client from costing the node more than a little.
enum WebLimits {
    /// The largest request body (a /control POST): a million points as text fits.
    static let maximumBodyBytes = 32 * 1024 * 1024
    /// The largest WebSocket text message taken.
    static let maximumMessageBytes = 32 * 1024 * 1024
    /// What JSON from the network may take on: the largest body or message, and arrays and
    /// objects nested 8 deep. The deepest request meant is 2 (a message object and its
    /// argument array); arguments are numbers, strings and booleans. Anything deeper is
    /// refused by the reader before it builds a value.
    static let json = JSONLimits(maximumDepth: 8, maximumSize: max(maximumBodyBytes, maximumMessageBytes))
    /// Open WebSocket connections at once; one more is refused with 503.
    static let maximumSockets = 32
    /// Messages a socket may send per second (sustained) and in a burst: dragging a point
    /// sends about 60 a second; 10,000 a second is a flood.
    static let messagesPerSecond = 400.0
    static let messageBurst = 800.0
    /// The longest export, in seconds of audio.
    static let maximumExportSeconds = 600.0
}
