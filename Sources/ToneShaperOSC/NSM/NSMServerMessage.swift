import ToneShaperWire

/// A message from the session manager, checked: right address, right number and types of
/// arguments, values the node can use. Anything else is refused before it reaches the
/// session (a hostile or broken message changes nothing).
public enum NSMServerMessage: Equatable, Sendable {
    /// `/reply "/nsm/server/announce" s:message s:manager s:capabilities`.
    case welcome(message: String, manager: String, capabilities: String)
    /// `/error "/nsm/server/announce" i:code s:message`: the manager refused the node.
    case refused(code: Int32, message: String)
    /// `/nsm/client/open s:path s:display_name s:client_id`.
    case open(NSMOpenRequest)
    /// `/nsm/client/save`.
    case save
    /// `/nsm/client/session_is_loaded`.
    case sessionIsLoaded
    /// `/nsm/client/show_optional_gui`, `/nsm/client/hide_optional_gui`.
    case showGUI
    case hideGUI
}

/// What `/nsm/client/open` asks for.
public struct NSMOpenRequest: Equatable, Sendable {
    /// Where the node keeps its state: an absolute path without extension, to which the
    /// node appends ".toneshaper".
    public var path: String
    /// The session's name for the node, for display only.
    public var displayName: String
    /// Unique in the session; the node's JACK client name.
    public var clientID: String

    public init(path: String, displayName: String, clientID: String) {
        self.path = path
        self.displayName = displayName
        self.clientID = clientID
    }
}

/// Why a message from the session manager was not acted on.
public struct NSMRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address of the message refused.
    public var path: String
    public var reason: String
    /// Whether the manager expects an answer to this address (open and save do): then the
    /// refusal is answered with `/error`; otherwise it is only logged.
    public var needsAnswer: Bool
    public var description: String { "\(path): \(reason)" }
}

extension NSMServerMessage {
    /// The longest path the node accepts (PATH_MAX on Linux).
    static let maximumPathLength = 4095
    /// JACK client names are at most `jack_client_name_size() - 1` bytes (63 with jackd2).
    public static let maximumClientIDLength = 63

    /// Reads one message, or says why it is refused. `nil`: an address the node does not
    /// take from the manager, ignored.
    public static func parse(path: String, arguments: [OSCValue]) -> Result<NSMServerMessage, NSMRefusal>? {
        func refuse(_ reason: String, needsAnswer: Bool = false) -> Result<NSMServerMessage, NSMRefusal> {
            .failure(NSMRefusal(path: path, reason: reason, needsAnswer: needsAnswer))
        }
        func strings(_ count: Int) -> [String]? {
            guard arguments.count == count else { return nil }
            let texts = arguments.compactMap { if case .string(let s) = $0 { s } else { nil } }
            return texts.count == count ? texts : nil
        }
        switch path {
        case NSMProtocol.reply:
            // Replies to the announce are the only ones the node waits for.
            guard case .string(NSMProtocol.announce)? = arguments.first else { return nil }
            guard let s = strings(4) else { return refuse("an announce reply needs four strings") }
            return .success(.welcome(message: s[1], manager: s[2], capabilities: s[3]))
        case NSMProtocol.error:
            guard case .string(NSMProtocol.announce)? = arguments.first else { return nil }
            guard arguments.count == 3, case .int32(let code) = arguments[1], case .string(let message) = arguments[2] else {
                return refuse("an announce error needs s:path i:code s:message")
            }
            return .success(.refused(code: code, message: message))
        case NSMProtocol.open:
            guard let s = strings(3) else {
                return refuse(
                    "expects three strings (path, display name, client id), got \(arguments.count) arguments of types \(typeTags(arguments))",
                    needsAnswer: true)
            }
            let request = NSMOpenRequest(path: s[0], displayName: s[1], clientID: s[2])
            if let problem = problem(with: request) { return refuse(problem, needsAnswer: true) }
            return .success(.open(request))
        case NSMProtocol.save:
            guard arguments.isEmpty else { return refuse("expects no arguments, got \(arguments.count)", needsAnswer: true) }
            return .success(.save)
        case NSMProtocol.sessionIsLoaded:
            return .success(.sessionIsLoaded)
        case NSMProtocol.showOptionalGUI:
            return .success(.showGUI)
        case NSMProtocol.hideOptionalGUI:
            return .success(.hideGUI)
        default:
            return nil
        }
    }

    /// What makes an open request unusable: a path the node must not write to or that is
    /// not the manager's kind of path, a client id JACK cannot take.
    static func problem(with request: NSMOpenRequest) -> String? {
        let path = request.path
        guard path.hasPrefix("/") else { return "the session path \"\(clip(path))\" is not absolute" }
        guard path.utf8.count + 11 <= maximumPathLength else { return "the session path is longer than \(maximumPathLength) bytes" }
        guard !path.hasSuffix("/") else { return "the session path \"\(clip(path))\" names a directory, not a file" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0 == ".." || $0 == "." }) else {
            return "the session path \"\(clip(path))\" has \".\" or \"..\" in it"
        }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return "the session path has control characters in it"
        }
        let id = request.clientID
        guard !id.isEmpty else { return "the client id is empty" }
        guard id.utf8.count <= maximumClientIDLength else { return "the client id is longer than the \(maximumClientIDLength) bytes JACK allows" }
        // ':' separates client and port in JACK names; control characters have no place in one.
        guard !id.unicodeScalars.contains(where: { $0 == ":" || $0.value < 0x20 || $0.value == 0x7F }) else {
            return "the client id \"\(clip(id))\" is not a usable JACK client name (no ':' or control characters)"
        }
        return nil
    }

    static func typeTags(_ arguments: [OSCValue]) -> String {
        arguments.isEmpty
            ? "none"
            : arguments.map { value -> String in
                switch value {
                case .int32: "i"
                case .int64: "h"
                case .float: "f"
                case .double: "d"
                case .string: "s"
                case .bool(let b): b ? "T" : "F"
                case .null: "N"
                case .impulse: "I"
                case .blob: "b"
                case .other(let tag): String(tag)
                }
            }.joined()
    }

    static func clip(_ text: String) -> String { OSCCommandRouter.clip(text, 120) }
}
