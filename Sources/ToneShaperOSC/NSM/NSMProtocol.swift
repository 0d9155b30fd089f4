/// The vocabulary of the New Session Manager (NSM) client protocol, API 1.1: the addresses,
/// the error codes and the capabilities, as the published API document defines them.
/// Nothing here touches a socket; `NSMClient` holds the rules, `NSMConnection` the socket.
public enum NSMProtocol {
    /// The API version this client implements (sent in the announce).
    public static let apiVersion = (major: Int32(1), minor: Int32(1))

    // Client to server.
    public static let announce = "/nsm/server/announce"
    public static let reply = "/reply"
    public static let error = "/error"
    public static let isDirty = "/nsm/client/is_dirty"
    public static let isClean = "/nsm/client/is_clean"
    public static let guiIsHidden = "/nsm/client/gui_is_hidden"
    public static let guiIsShown = "/nsm/client/gui_is_shown"

    // Server to client.
    public static let open = "/nsm/client/open"
    public static let save = "/nsm/client/save"
    public static let sessionIsLoaded = "/nsm/client/session_is_loaded"
    public static let showOptionalGUI = "/nsm/client/show_optional_gui"
    public static let hideOptionalGUI = "/nsm/client/hide_optional_gui"

    /// Whether an address belongs to the session protocol (and not to the node's control).
    public static func isSessionAddress(_ path: String) -> Bool { path.hasPrefix("/nsm/") }
}

/// The protocol's error codes (the API's "Error Code Definitions"). The API names
/// ERR_SAVE_FAILED among the answers to save but gives it no number; a failed save is
/// answered with `general` and a message that says why.
public enum NSMErrorCode: Int32, Sendable, CaseIterable {
    case general = -1
    case incompatibleAPI = -2
    case blacklisted = -3
    case launchFailed = -4
    case noSuchFile = -5
    case noSessionOpen = -6
    case unsavedChanges = -7
    case notNow = -8
    case badProject = -9
    case createFailed = -10
}

/// What a client can do beyond open and save, announced as ":switch:dirty:".
public struct NSMCapabilities: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Opens another session path without restarting.
    public static let `switch` = NSMCapabilities(rawValue: 1 << 0)
    /// Tells the server when it has unsaved changes.
    public static let dirty = NSMCapabilities(rawValue: 1 << 1)
    /// Has a GUI the session manager may show and hide. Announced only by a node that
    /// really has one to show.
    public static let optionalGUI = NSMCapabilities(rawValue: 1 << 2)

    /// The announce's capability string, colon-separated with colons at both ends.
    public var announced: String {
        var names: [String] = []
        if contains(.switch) { names.append("switch") }
        if contains(.dirty) { names.append("dirty") }
        if contains(.optionalGUI) { names.append("optional-gui") }
        return names.isEmpty ? "" : ":" + names.joined(separator: ":") + ":"
    }
}
