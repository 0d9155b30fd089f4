import Dispatch
import Foundation
import Logging
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJack
import ToneShaperModel
import ToneShaperOSC
import ToneShaperParameters
import ToneShaperWeb

/// The live node as a session manager's client: it opens JACK only when the manager opens
/// a session, under the client id it is given; keeps its state in the session's file;
/// reports unsaved changes from the controller's change feed; and switches sessions in
/// place. Everything runs on `queue` (opens, saves, change reports), one at a time.
final class SessionNode: NSMSessionHost, @unchecked Sendable {
    // @unchecked: every mutable property is touched only on `queue`.

    /// How the node runs, from the command line (nsmd gives none; a wrapper may).
    struct Options {
        /// The shape a new session starts from.
        var startShape: ToneShape
        var stereo: Bool
        var connect: [String]
        /// JACK, OSC, the editor (its port is the session's), mDNS and MIDI, as `run` has them.
        var host: NodeHost.Options
    }

    let queue = DispatchQueue(label: "toneshaper.nsm.session")
    let controller: EngineController
    /// The JACK client, OSC, the editor and mDNS, wired as for a plain `run`.
    let host: NodeHost
    private let options: Options
    private let logger: Logger
    private var node: JackNode? { host.node }
    private var nodeClientID: String?
    private var nodeStereo = false
    private var osc: OSCControlServer? { host.osc }
    private var web: WebControlServer? { host.web }
    /// The open session's file.
    private(set) var sessionFile: String?
    /// The controller's revision when the session was last opened or saved: anything newer
    /// is an unsaved change.
    private var cleanRevision: UInt64 = 0
    private var subscription: StateSubscription?
    /// Set once, before any message arrives.
    var client: NSMClient?
    /// Called (on `queue`) when the manager refuses the node.
    var onRefused: (@Sendable (String) -> Void)?

    init(options: Options, logger: Logger) {
        self.options = options
        self.logger = logger
        let library = DocumentLibrary()
        controller = EngineController(shape: options.startShape, sampleRate: 48_000, playing: true, documents: library)
        host = NodeHost(controller: controller, options: options.host, library: library, logger: logger)
        subscription = controller.changes.subscribe(on: queue) { [weak self] update in
            guard let self, self.sessionFile != nil else { return }
            if update.state.revision > self.cleanRevision { self.client?.report(dirty: true) }
        }
    }

    // MARK: NSMSessionHost

    func openSession(_ request: NSMOpenRequest) -> Result<String, NSMFailure> {
        let file = SessionDocument.path(forSession: request.path)
        let found: SessionDocument?
        do { found = try SessionDocument.read(path: file) } catch {
            logger.error("NSM: cannot open \(file): \(error)")
            return .failure(NSMFailure(.badProject, error.description))
        }
        // A new session lives in memory until the first save: find out now, not then, if
        // that save could not be written.
        let directory = (file as NSString).deletingLastPathComponent
        if found == nil && access(directory, W_OK) != 0 {
            let reason = String(cString: strerror(errno))
            return .failure(NSMFailure(.createFailed, "cannot create \(file): the directory \(directory) is not usable (\(reason))"))
        }
        let document = found ?? SessionDocument(shape: options.startShape, settings: .init(stereo: options.stereo))
        let stereo = options.stereo || document.settings.stereo

        if node == nil || request.clientID != nodeClientID || stereo != nodeStereo {
            if let failure = openClient(id: request.clientID, stereo: stereo, document: document) { return .failure(failure) }
        } else {
            // Same JACK client: cross-fade into the other session's shape.
            do {
                try controller.load(document.shape)
                try setPlaying(document.settings.playing)
            } catch {
                return .failure(NSMFailure(.notNow, "could not switch to \(file): \(SessionNode.phrase(error))"))
            }
        }
        startOSCOnce(preferredPort: document.settings.oscPort)
        startWebOnce(preferredPort: document.settings.httpPort)

        sessionFile = file
        cleanRevision = controller.state.revision
        let what = found == nil ? "new session, starting from \"\(document.shape.name ?? "the default shape")\"" : "opened \(file)"
        logger.info("NSM: \(what) as JACK client \(node?.clientName ?? "?")")
        return .success("ToneShaper: \(what)")
    }

    func saveSession() -> Result<String, NSMFailure> {
        guard let file = sessionFile else { return .failure(NSMFailure(.noSessionOpen, "no session is open")) }
        let state = controller.state
        let settings = SessionDocument.NodeSettings(
            playing: state.playing, stereo: nodeStereo, jackClient: node?.clientName, jackPorts: node?.portNames ?? [],
            oscURL: osc?.url, oscPort: osc?.port, editorURL: web?.editorURL, httpPort: web.map(\.port),
            savedBy: "toneshaper \(ToneShaperVersion.string)")
        do {
            try SessionDocument(shape: state.shape, settings: settings).write(to: file)
        } catch {
            logger.error("NSM: save failed: \(error)")
            return .failure(NSMFailure(.general, error.description))
        }
        cleanRevision = state.revision
        logger.info("NSM: saved \(file)")
        return .success("ToneShaper: saved \(file)")
    }

    func sessionManagerRefused(code: Int32, message: String) {
        logger.error("NSM: the session manager refused this client (\(code)): \(message)")
        onRefused?(message)
    }

    func sessionIsLoaded() {
        logger.debug("NSM: the session is loaded")
    }

    /// The optional GUI is the browser editor: shown by opening its URL in the user's
    /// browser, hidden by asking every open page to close.
    func setOptionalGUI(visible: Bool) -> Bool {
        guard let web else {
            logger.notice("NSM: no editor to \(visible ? "show" : "hide") until the session is open")
            return false
        }
        guard visible else {
            let pages = web.pages.hideAll(reason: "The session manager hid ToneShaper's editor.")
            logger.info("NSM: editor hidden (\(pages) page\(pages == 1 ? "" : "s") asked to close)")
            return false
        }
        if web.pages.count > 0 { return true }
        if let failure = EditorLauncher.open(web.editorURL) {
            logger.error("NSM: cannot show the editor: \(failure)")
            return false
        }
        logger.info("NSM: editor opened in the browser: \(web.editorURL)")
        // A browser that never shows the page (none installed, no display) must not leave
        // the manager believing the GUI is up.
        queue.asyncAfter(deadline: .now() + SessionNode.browserPatience) { [weak self] in
            guard let self, let web = self.web, web.pages.count == 0, self.client?.reportedGUIShown == true else { return }
            self.logger.warning(
                "NSM: no editor page connected within \(Int(SessionNode.browserPatience)) s of opening the browser; the GUI is reported hidden")
            self.client?.report(guiShown: false)
        }
        return true
    }

    /// How long a browser may take to open the editor before the GUI counts as hidden.
    static let browserPatience = 20.0

    // MARK: Parts

    /// Closes the JACK client there is and opens one named `id` playing `document`. On
    /// failure the previous client (if any) is opened again as it was.
    private func openClient(id: String, stereo: Bool, document: SessionDocument) -> NSMFailure? {
        let previous = (state: controller.state, id: nodeClientID, stereo: nodeStereo)
        host.stopJack()
        // The shape goes in first, so the new client starts with it (no cross-fade).
        do {
            try controller.load(document.shape)
            try setPlaying(document.settings.playing)
        } catch {
            return NSMFailure(.general, SessionNode.phrase(error))
        }
        switch startClient(id: id, stereo: stereo) {
        case .success(let started):
            nodeClientID = id
            nodeStereo = stereo
            if started.clientName != id {
                logger.warning("NSM: JACK named the client \(started.clientName): \(id) was taken")
            }
            NodeHost.say(NodeHost.jackLines(started))
            return nil
        case .failure(let error):
            logger.error("NSM: cannot open JACK client \(id): \(error)")
            // Back to the session that was open: its shape was valid when it played, so a
            // refusal here is a fault of its own, said and not hidden.
            do throws(ControlError) {
                try controller.load(previous.state.shape)
                try setPlaying(previous.state.playing)
            } catch {
                logger.error("NSM: could not go back to the previous session's sound: \(error)")
            }
            let restored = previous.id.map { startClient(id: $0, stereo: previous.stereo) }
            if case .success? = restored {} else { nodeClientID = nil }
            return NSMFailure(.general, "cannot open the JACK client \(id): \(error)")
        }
    }

    private func startClient(id: String, stereo: Bool) -> Result<JackNode, JackNodeError> {
        // No automatic connections: the session manager restores them (jackpatch), and one
        // made on every open would come back even after the user removed it.
        do throws(JackNodeError) {
            return .success(try host.startJack(clientName: id, stereo: stereo, connect: options.connect, autoConnect: false))
        } catch {
            return .failure(error)
        }
    }

    private func setPlaying(_ on: Bool) throws(ControlError) {
        guard controller.isPlaying != on else { return }
        if on { try controller.play() } else { try controller.stop() }
    }

    /// The OSC control surface, once, after the first open, on the port the session used
    /// before if it is free (a controller pointed at it keeps working), else on any free port.
    private func startOSCOnce(preferredPort: Int?) {
        guard osc == nil, options.host.osc != nil else { return }
        do {
            try host.startOSC(.preferring(preferredPort))
            NodeHost.say(host.oscLines)
        } catch {
            logger.notice("NSM: no OSC control: \(error)")
        }
    }

    /// The editor and OSCQuery, once, after the first open, likewise on the session's port
    /// if it is free; then the mDNS announcement of both.
    private func startWebOnce(preferredPort: Int?) {
        guard web == nil, options.host.web != nil else { return }
        let name = nodeClientID ?? options.host.web?.name ?? "toneshaper"
        do {
            try host.startWeb(.preferring(preferredPort), name: name)
        } catch {
            logger.notice("NSM: no editor: \(error)")
            return
        }
        // A page opened or closed by the user: the manager's GUI button follows.
        web?.pages.observe { [weak self] open in
            guard let self else { return }
            self.queue.async { self.client?.report(guiShown: open) }
        }
        host.announce(name: name)
        NodeHost.say(host.editorLine)
    }

    /// A refusal of the core in the words a session manager shows its user.
    private static func phrase(_ error: ControlError) -> String {
        error.phrased(naming: { _ in "the session's tone shape" }, remedy: { _ in nil })
    }

    /// Closes everything, without saving (a session manager's quit). False when the JACK
    /// client's thread was left running (see `NodeHost.stop()`).
    func close() -> Bool {
        subscription?.cancel()
        subscription = nil
        return host.stop()
    }
}
