/// How the node appears in the JACK graph.
public struct JackNodeConfiguration: Sendable {
    /// The client name; JACK may append a number when the name is taken.
    public var clientName: String
    /// The JACK server to join; nil means libjack's choice (JACK_DEFAULT_SERVER, else
    /// "default").
    public var serverName: String?
    /// Two ports, `out_1` and `out_2`, carrying the same signal, instead of one `out`.
    public var stereo: Bool
    /// Ports to connect to at start ("system:playback_1"); empty means the physical
    /// playback ports, when `autoConnect` is on.
    public var connectTo: [String]
    /// Connect to the system's playback ports when `connectTo` is empty.
    public var autoConnect: Bool
    /// How often the node tries to open a client again after losing its server.
    public var reconnectInterval: Double
    /// How often the control loop does its housekeeping (clock offset, connections,
    /// reconnecting). What the audio thread hands back (freed plans, MIDI controllers that
    /// need a new plan, its own changes) wakes it at once, whatever this is.
    public var controlInterval: Double
    /// How long `jack_client_close` may take before the node stops waiting for it
    /// (it has been seen to hang after server restarts, jack2 issue 395).
    public var closeTimeout: Double
    /// Atomics the process callback writes for tests that watch the audio thread (periods,
    /// when commands and MIDI arrive, allocation counting). Nil in normal use.
    public var probe: RealtimeProbe?
    /// A MIDI input port `midi_in` (`--no-midi` turns it off).
    public var midiInput = true
    /// MIDI ports to connect to `midi_in` at start (`--midi-connect`).
    public var midiConnect: [String] = []
    /// Only this MIDI channel (0...15) is heard; nil: all (`--midi-channel`).
    public var midiChannel: Int?
    public static let midiPortName = "midi_in"

    public init(
        clientName: String = "toneshaper", serverName: String? = nil, stereo: Bool = false, connectTo: [String] = [],
        autoConnect: Bool = true, reconnectInterval: Double = 0.25, controlInterval: Double = 0.05,
        closeTimeout: Double = 1, probe: RealtimeProbe? = nil
    ) {
        self.clientName = clientName
        self.serverName = serverName
        self.stereo = stereo
        self.connectTo = connectTo
        self.autoConnect = autoConnect
        self.reconnectInterval = reconnectInterval
        self.controlInterval = controlInterval
        self.closeTimeout = closeTimeout
        self.probe = probe
    }

    /// The server's name as the user knows it, for messages.
    public var effectiveServerName: String { serverName ?? JackNodeError.serverName }

    /// The short names of the node's output ports.
    public var portShortNames: [String] { stereo ? ["out_1", "out_2"] : ["out"] }
}
