import ToneShaperWire

/// What the node does for the session manager; `NSMClient` calls it and answers the
/// manager with what it returns. The `run` command implements it (JACK, files, OSC).
public protocol NSMSessionHost: AnyObject {
    /// Opens the session at `request.path`, or switches to it from the one open. Returns
    /// the message for the manager's `/reply`.
    func openSession(_ request: NSMOpenRequest) -> Result<String, NSMFailure>
    /// Writes the open session's state to its path.
    func saveSession() -> Result<String, NSMFailure>
    /// The manager refused the announce: the node is not wanted in this session.
    func sessionManagerRefused(code: Int32, message: String)
    /// Every client of the session has been opened (nothing needs doing here).
    func sessionIsLoaded()
    /// Shows or hides the optional GUI and returns whether it is shown now. Asked only by a
    /// client that announced `:optional-gui:`.
    func setOptionalGUI(visible: Bool) -> Bool
}

extension NSMSessionHost {
    /// A node without a GUI has none to show.
    public func setOptionalGUI(visible: Bool) -> Bool { false }
}

/// An open or save that could not be done, as the manager is told it.
public struct NSMFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: NSMErrorCode
    public var message: String
    public init(_ code: NSMErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { "\(message) (\(code), \(code.rawValue))" }
}

/// The client side of the NSM protocol without the socket: it reads what the manager sends,
/// asks the host to act, and produces the answers (`send`). Not thread-safe: call it from
/// one serial queue (the node's session queue), which also orders opens and saves.
public final class NSMClient {
    /// Where the handshake stands.
    public enum Phase: Equatable, Sendable {
        /// Announced, no answer yet.
        case announcing
        /// The manager answered: under session management.
        case managed(manager: String, capabilities: String)
        /// The manager refused the node.
        case refused
    }

    public let capabilities: NSMCapabilities
    public private(set) var phase = Phase.announcing
    /// The session open now (after a successful open or switch).
    public private(set) var session: NSMOpenRequest?
    /// What the manager was last told: dirty (true), clean (false), or nothing yet.
    public private(set) var reportedDirty: Bool?
    /// What the manager was last told of the GUI: shown (true), hidden (false), or nothing yet.
    public private(set) var reportedGUIShown: Bool?
    private weak var host: (any NSMSessionHost)?
    private let send: (OSCMessage) -> Void

    public init(capabilities: NSMCapabilities = [.switch, .dirty], host: any NSMSessionHost, send: @escaping (OSCMessage) -> Void) {
        self.capabilities = capabilities
        self.host = host
        self.send = send
    }

    /// `/nsm/server/announce`: the first message, sent once the node can take an open.
    /// `name` is the name the node would give JACK on its own.
    public func announcement(name: String, executable: String, pid: Int32) -> OSCMessage {
        OSCMessage(
            path: NSMProtocol.announce,
            arguments: [
                .string(name), .string(capabilities.announced), .string(executable),
                .int32(NSMProtocol.apiVersion.major), .int32(NSMProtocol.apiVersion.minor), .int32(pid),
            ])
    }

    /// One message from the manager (the connection has checked it comes from the manager).
    /// Returns what was refused, for the log; the manager has been answered where it expects
    /// an answer.
    @discardableResult
    public func receive(path: String, arguments: [OSCValue]) -> NSMRefusal? {
        guard let parsed = NSMServerMessage.parse(path: path, arguments: arguments) else { return nil }
        switch parsed {
        case .failure(let refusal):
            if refusal.needsAnswer { answer(path, .failure(NSMFailure(.general, refusal.reason))) }
            return refusal
        case .success(let message):
            return handle(message)
        }
    }

    /// What the manager must hear right after the announce: a client with an optional GUI
    /// says whether it is shown (it starts hidden).
    public func afterAnnouncement(guiShown: Bool = false) -> [OSCMessage] {
        guard capabilities.contains(.optionalGUI) else { return [] }
        reportedGUIShown = guiShown
        return [OSCMessage(path: guiShown ? NSMProtocol.guiIsShown : NSMProtocol.guiIsHidden)]
    }

    /// The GUI was shown or hidden: the manager's request is always answered.
    public func guiVisibilityChanged(shown: Bool) {
        reportedGUIShown = shown
        send(OSCMessage(path: shown ? NSMProtocol.guiIsShown : NSMProtocol.guiIsHidden))
    }

    /// The user opened or closed the GUI on their own: the manager hears only changes.
    public func report(guiShown: Bool) {
        guard capabilities.contains(.optionalGUI), reportedGUIShown != guiShown else { return }
        guiVisibilityChanged(shown: guiShown)
    }

    /// The host's state changed (true) or was saved or reloaded by other means (false).
    /// The manager hears only changes of the flag, and only while a session is open.
    public func report(dirty: Bool) {
        guard capabilities.contains(.dirty), session != nil, reportedDirty != dirty else { return }
        reportedDirty = dirty
        send(OSCMessage(path: dirty ? NSMProtocol.isDirty : NSMProtocol.isClean))
    }

    private func handle(_ message: NSMServerMessage) -> NSMRefusal? {
        switch message {
        case .welcome(_, let manager, let serverCapabilities):
            guard phase == .announcing else { return nil }
            phase = .managed(manager: manager, capabilities: serverCapabilities)
        case .refused(let code, let text):
            guard phase == .announcing else { return nil }
            phase = .refused
            host?.sessionManagerRefused(code: code, message: text)
        case .open(let request):
            if phase == .refused {
                answer(NSMProtocol.open, .failure(NSMFailure(.general, "the session manager refused this client's announce")))
                return NSMRefusal(path: NSMProtocol.open, reason: "open after a refused announce", needsAnswer: true)
            }
            // Without :switch: a manager opens once; a second open would be a broken or
            // hostile manager, and changing sessions under it would lose the first.
            if session != nil && !capabilities.contains(.switch) {
                answer(NSMProtocol.open, .failure(NSMFailure(.notNow, "this client cannot switch sessions; restart it")))
                return NSMRefusal(path: NSMProtocol.open, reason: "a second open without :switch:", needsAnswer: true)
            }
            guard let host else { return nil }
            let result = host.openSession(request)
            if case .success = result { session = request }
            answer(NSMProtocol.open, result)
            if case .success = result { forceReport(dirty: false) }
        case .save:
            guard session != nil else {
                answer(NSMProtocol.save, .failure(NSMFailure(.noSessionOpen, "no session is open yet; nothing to save")))
                return NSMRefusal(path: NSMProtocol.save, reason: "save before open", needsAnswer: true)
            }
            guard let host else { return nil }
            let result = host.saveSession()
            answer(NSMProtocol.save, result)
            if case .success = result { forceReport(dirty: false) }
        case .sessionIsLoaded:
            host?.sessionIsLoaded()
        case .showGUI, .hideGUI:
            // Only a client that announced :optional-gui: is sent these; without one, the
            // truthful answer is that no GUI is shown.
            let shown = capabilities.contains(.optionalGUI) ? (host?.setOptionalGUI(visible: message == .showGUI) ?? false) : false
            guiVisibilityChanged(shown: shown)
        }
        return nil
    }

    /// After an open or a save the state is clean whatever was said before.
    private func forceReport(dirty: Bool) {
        reportedDirty = nil
        report(dirty: dirty)
    }

    private func answer(_ path: String, _ result: Result<String, NSMFailure>) {
        switch result {
        case .success(let text):
            send(OSCMessage(path: NSMProtocol.reply, arguments: [.string(path), .string(text)]))
        case .failure(let failure):
            send(OSCMessage(path: NSMProtocol.error, arguments: [.string(path), .int32(failure.code.rawValue), .string(failure.message)]))
        }
    }
}
