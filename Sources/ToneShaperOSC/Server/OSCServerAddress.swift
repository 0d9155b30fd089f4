import ToneShaperControl

/// The addresses the OSC server answers itself, before the core's address space
/// (`OSCAddressSpace`): they say where this sender's replies and pushed changes go, not what
/// plays, so they exist over OSC only (not in OSCQuery or the web API). Declared once here for
/// the server, `toneshaper send --help` and the OSC reference article.
public struct OSCServerAddress: Sendable {
    /// Below the prefix, without a leading slash ("reply-port").
    public let path: String
    /// What the arguments are, for people.
    public let arguments: String
    public let help: String

    public static let replyPort = OSCServerAddress(
        path: "reply-port", arguments: "port (1...65535; 0: the source port again)",
        help: "Send this sender's replies to that UDP port of its address from now on (controllers that listen on another port than they send from)")
    public static let subscribe = OSCServerAddress(
        path: "subscribe", arguments: "[port] [host]",
        help: "Reply the whole state once, then push every change that lands, from any source, to this address (default: the sender's)")
    public static let unsubscribe = OSCServerAddress(
        path: "unsubscribe", arguments: "[port] [host]", help: "Stop pushing changes to this address")

    public static let all = [replyPort, subscribe, unsubscribe]

    /// These addresses as a Markdown table in the columns of `ReferenceTables.oscAddresses`,
    /// for the OSC reference article (checked by a test, like the core's tables).
    public static var referenceTable: String {
        ReferenceTables.markdownTable(
            header: ["address", "arguments", "what it does"], rows: all.map { ["`/\($0.path)`", $0.arguments, $0.help] })
    }
}
