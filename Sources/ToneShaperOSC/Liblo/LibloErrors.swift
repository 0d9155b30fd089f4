import Logging
import Synchronization

/// liblo reports server errors through a C callback without a context pointer, so the
/// logger it writes to is process-wide: the most recently started server's logger.
/// The last message is also kept, so that a server that fails to open can say why.
enum LibloErrors {
    private struct State {
        var logger = Logger(label: "toneshaper.osc.liblo")
        var last: String?
        // Malformed packets make liblo call back once each: a flood of them must not
        // become a flood of log lines.
        var throttle = LogThrottle(linesPerSecond: 5)
    }
    private static let state = Mutex(State())

    static func use(_ logger: Logger) {
        state.withLock { $0.logger = logger }
    }

    /// Forgets the last error, before an operation whose failure should be explained.
    static func clearLast() {
        state.withLock { $0.last = nil }
    }

    static var last: String? { state.withLock { $0.last } }

    /// The `lo_err_handler` for every server here: logged, never printed.
    static let handler: @convention(c) (Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void = { number, message, location in
        let text = message.map { String(cString: $0) } ?? "unknown error"
        let place = location.map { String(cString: $0) }
        // An OSC path can be anything a sender chose: keep the line short.
        let clipped = OSCCommandRouter.clip(place.map { "\(text) (\($0))" } ?? text, 300)
        let (logger, decision) = state.withLock { s in
            s.last = text
            return (s.logger, s.throttle.decide())
        }
        guard case .log(let suppressed) = decision else { return }
        if suppressed > 0 { logger.warning("liblo: \(suppressed) more errors suppressed in the last second") }
        logger.warning("liblo error \(number): \(clipped)")
    }
}
