import ArgumentParser
import Foundation
import Logging
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJack
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperOSC
import ToneShaperWeb
import ToneShaperWire

/// `toneshaper run`: the live node. Plays a tone shape as a JACK client and takes changes
/// over OSC until SIGINT or SIGTERM.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a tone shape as a JACK client, controlled over OSC.",
        discussion: """
            Needs a running JACK server (the node never starts one; JACK_DEFAULT_SERVER picks \
            the server). When ready it prints on stdout:
              JACK: <client>:<port> ...
              OSC: osc.udp://<host>:<port>/
              OSC: osc.tcp://<host>:<port>/
              Editor: http://127.0.0.1:<port>/editor
            If the server goes away the node keeps its state and reconnects when one is back. \
            Every argument is checked before the node touches JACK. \
            Under a session manager (NSM_URL set, as nsmd, RaySession and Agordejo start it) \
            the node announces itself, joins JACK under the client id once the session opens, \
            takes any free OSC port, and keeps its state in the session.
            """)

    @Argument(
        help:
            "A document: the name of a built-in or of one of your shapes (see `toneshaper presets`) or a path. Default: a gentle rise and fall around A3."
    )
    var document: String?

    @Option(name: [.customShort("n"), .customLong("name")], help: "JACK client name (JACK appends -01, -02 ... if it is taken; the node says so).")
    var clientName = "toneshaper"

    @Option(name: [.customShort("s"), .customLong("server")], help: "JACK server name (default: JACK_DEFAULT_SERVER, else \"default\").")
    var serverName: String?

    @Option(name: .customLong("osc-port"), help: "OSC port, UDP and TCP (0: any free port; the chosen one is printed).")
    var oscPort = 9000

    @Option(name: .customLong("osc-host"), help: "Accept OSC control from this interface's network (default: this machine only; 0.0.0.0: anyone).")
    var oscHost: String?

    @Option(name: .customLong("osc-prefix"), help: "OSC address prefix.")
    var oscPrefix = "/toneshaper"

    @Option(name: .customLong("osc-allow"), help: "Also accept OSC control from these senders (CIDR, repeatable).")
    var oscAllow: [String] = []

    @Flag(name: .customLong("no-osc"), help: "Do not listen for OSC at all.")
    var noOSC = false

    @Option(
        name: .customLong("http-port"),
        help: ArgumentHelp(
            "Port of the browser editor and OSCQuery (default 9001, or the next free one; 0: any free port).",
            discussion:
                "The web side obeys the same hosts as OSC (--osc-host, --osc-allow); beyond this machine it asks for the token printed in the editor's URL."
        ))
    var httpPort: Int?

    @Flag(name: .customLong("no-http"), help: "Do not serve the browser editor and OSCQuery.")
    var noHTTP = false

    @Flag(name: .customLong("no-mdns"), help: "Do not announce OSCQuery and OSC over mDNS (done only when an avahi-daemon runs).")
    var noMDNS = false

    @Option(name: .customLong("connect"), help: "Connect the output to this JACK port instead of the system playback ports (repeatable).")
    var connect: [String] = []

    @Flag(name: .customLong("no-auto-connect"), help: "Do not connect to the system playback ports.")
    var noAutoConnect = false

    @Flag(help: "Two output ports (out_1, out_2) carrying the same signal, instead of one (out).")
    var stereo = false

    @OptionGroup(title: "MIDI")
    var midi: MIDIOptions

    @OptionGroup(title: "Tuning")
    var tuning: TuningOptions

    @OptionGroup(title: "Tone-shape parameters (override the document's)")
    var parameters: ParameterOptions

    @Flag(help: "Start silent; /toneshaper/play starts it.")
    var paused = false

    @Flag(help: "If no JACK server is running, wait for one instead of exiting.")
    var wait = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(
        name: .customLong("save"),
        help: ArgumentHelp(
            "On exit, save what is playing (with every change made over OSC) into your shapes folder under this name.",
            discussion:
                "Your shapes are in $XDG_DATA_HOME/toneshaper/shapes (~/.local/share/toneshaper/shapes; TONESHAPER_LIBRARY overrides it); the file is written atomically and never over a built-in.",
            valueName: "name"))
    var saveName: String?

    /// The longest JACK client name (jack_client_name_size() is 64, with the NUL).
    static let maximumClientNameLength = 63

    func validate() throws {
        if let httpPort, !(0...65535).contains(httpPort) {
            throw ValidationError("--http-port \(httpPort) is not a port; use 0...65535 (0: any free port)")
        }
        guard !clientName.isEmpty, clientName.utf8.count <= RunCommand.maximumClientNameLength, !clientName.contains(":") else {
            throw ValidationError("--name \"\(clientName)\": a JACK client name has 1 to \(RunCommand.maximumClientNameLength) characters and no ':'")
        }
        if !noOSC {
            // A bad port, host, prefix or allow entry is refused before JACK is touched.
            do { try oscConfiguration.check() } catch { throw ValidationError(error.description) }
        }
        // The MIDI options are refused before anything starts, like the others.
        _ = try midi.channel()
        _ = try midi.apply(to: .defaultShape)
        _ = try tuning.tuning()
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else {
            throw ValidationError("unknown log level \"\(logLevel)\"; use trace, debug, info, notice, warning, error or critical")
        }
        if let saveName {
            // Refuse a bad name now, not after a whole session of playing.
            do { try DocumentLibrary.checkName(saveName) } catch { throw ValidationError("--save: \(error.description)") }
            if DocumentLibrary().listBuiltIns().contains(where: { $0.name == saveName }) {
                throw ValidationError(
                    "--save: a built-in tone shape is called \"\(saveName)\" and would be hidden; choose another name, such as \"my-\(saveName)\"")
            }
        }
    }

    func run() throws {
        // First, before any thread exists: every thread started from here on (JACK's,
        // the OSC server's, the node's) inherits the block, so the signals wait for `sigwait` below.
        TerminationSignals.block()
        ComponentLogHandler.bootstrap(level: Logger.Level(rawValue: logLevel.lowercased()) ?? .info)
        let logger = Logger(label: "toneshaper")
        if let url = RunCommand.sessionManagerURL, try runUnderSessionManager(url: url, logger: logger) { return }

        let library = DocumentLibrary()
        var shape = ToneShape.defaultShape
        if let document {
            shape = try library.load(document)
            for warning in ToneShapeDocument.warnings(for: shape) { logger.warning("\(document): \(warning)") }
        }
        shape = try parameters.apply(to: shape)
        shape = try midi.apply(to: shape)
        shape = try tuning.apply(to: shape)
        // The node adopts the server's rate before the first sound.
        let controller = EngineController(shape: shape, sampleRate: 48_000, playing: !paused, documents: library)
        let host = NodeHost(controller: controller, options: try hostOptions(), library: library, logger: logger)
        // OSC first: a port in use is reported before any JACK client appears.
        try host.startOSC(.configured)
        // The web side too (its port taken, say).
        do { try host.startWeb(.configured, name: clientName) } catch {
            _ = host.stop()
            throw CommandFailure(.unavailable, "\(error)")
        }
        let node: JackNode?
        do {
            node =
                wait
                ? try host.startJackWaitingForServer(clientName: clientName, stereo: stereo, connect: connect, autoConnect: !noAutoConnect)
                : try host.startJack(clientName: clientName, stereo: stereo, connect: connect, autoConnect: !noAutoConnect)
        } catch {
            _ = host.stop()
            throw error
        }
        var closed = true
        if let node {
            if node.clientName != clientName {
                logger.warning("the JACK client name \"\(clientName)\" is taken; this node is \"\(node.clientName)\" (use --name to choose another)")
            }
            logger.info("playing \"\(shape.name ?? document ?? "default")\" at \(controller.sampleRate) Hz\(paused ? " (paused)" : "")")
            host.announce(name: node.clientName)
            NodeHost.say(NodeHost.jackLines(node) + host.oscLines + host.editorLine)

            let signal = TerminationSignals.wait()
            logger.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): closing")
            closed = host.stop()
        } else {
            // A signal while waiting for JACK: changes made over OSC meanwhile are saved too.
            _ = host.stop()
        }
        if let saveName {
            do {
                let path = try library.save(controller.shape, name: saveName)
                logger.info("saved the final state as \"\(saveName)\" (\(path))")
            } catch {
                throw CommandFailure(.cannotWrite, "could not save \"\(saveName)\": \(error)")
            }
        }
        if !closed { NodeShutdown.exitLeavingNode() }
    }

    private var oscConfiguration: OSCControlServer.Configuration {
        OSCControlServer.Configuration(port: oscPort, host: oscHost, prefix: oscPrefix, allow: oscAllow)
    }

    /// What the node's host starts, from the options: the same for a plain run and under a
    /// session manager.
    func hostOptions() throws -> NodeHost.Options {
        NodeHost.Options(
            serverName: serverName, osc: noOSC ? nil : oscConfiguration, web: noHTTP ? nil : try webConfiguration(),
            announce: !noMDNS, midiInput: !midi.noMIDI, midiConnect: midi.connect, midiChannel: try midi.channel())
    }

    /// Where the web side listens and whom it serves, from the options.
    func webConfiguration() throws -> WebConfiguration {
        var allow: [AddressRange] = []
        for entry in oscAllow { allow.append(try AddressRange(parsing: entry)) }
        return WebConfiguration(
            port: httpPort ?? WebConfiguration.defaultPort, searchFreePort: httpPort == nil,
            host: oscHost, allow: allow, name: clientName, oscPrefix: oscPrefix)
    }
}
