import CJack
import Logging
import Synchronization

/// Routes libjack's own messages (normally printed straight to stderr) into swift-log, at
/// debug level. Every failure that matters is reported by the node itself in one readable
/// line, while libjack says several low-level things about it: "Cannot read socket fd",
/// "CheckRes error" when the server dies, "Cannot connect to server socket" on every
/// reconnection attempt. `--log-level debug` shows them.
enum JackMessages {
    private static let installed = Atomic<Bool>(false)
    private static let logger = Logger(label: "toneshaper.libjack")

    static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        jack_set_error_function { message in JackMessages.log(message) }
        jack_set_info_function { message in JackMessages.log(message) }
    }

    private static func log(_ message: UnsafePointer<CChar>?) {
        guard let message else { return }
        logger.debug("libjack: \(String(cString: message))")
    }
}
