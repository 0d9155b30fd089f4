import Foundation
import Logging

/// The node's log lines on stderr, each naming its component once:
///
///     2026-11-23T09:22:25Z warning osc: ignored a message from 192.0.2.2, ...
///
/// swift-log's stream handler names it three times (label, `[ToneShaperOSC]` source,
/// and the message's own "OSC:"); here the label's last part is the component, and a
/// message that starts by repeating it ("OSC: ", "JACK ") does not say it again.
struct ComponentLogHandler: LogHandler {
    let component: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// "toneshaper" → "node", "toneshaper.osc" → "osc", "toneshaper.osc.liblo" → "liblo".
    static func component(of label: String) -> String {
        let parts = label.split(separator: ".")
        return parts.count > 1 ? String(parts.last!) : "node"
    }

    static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in ComponentLogHandler(component: component(of: label), logLevel: level) }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String,
        file: String, function: String, line: UInt
    ) {
        var text = ComponentLogHandler.withoutRepeatedComponent(message.description, component)
        let all = metadata.merging(extra ?? [:]) { $1 }
        if !all.isEmpty { text += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        StandardError.line("\(ComponentLogHandler.timestamp()) \(level) \(component): \(text)")
    }

    /// "OSC: ignored ..." from the osc component becomes "ignored ...".
    static func withoutRepeatedComponent(_ message: String, _ component: String) -> String {
        let prefix = component + ": "
        if message.lowercased().hasPrefix(prefix) { return String(message.dropFirst(prefix.count)) }
        return message
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
