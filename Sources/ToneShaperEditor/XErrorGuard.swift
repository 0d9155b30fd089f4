import CEditor

/// An X error on an editor's own connection (a request on its window after the host
/// destroyed the parent window, and the editor's window with it) must not end the host's
/// process, which Xlib's default error handler does. While an editor's connection is open,
/// a handler of the editor's takes the errors of its connections and passes every other to
/// the handler it replaced; the last connection to close puts that one back, unless someone
/// replaced the editor's since (theirs stays).
///
/// Xlib has one error handler a process: everything here runs on the host's main thread,
/// as the editor does.
enum XErrorGuard {
    /// The editor's open connections (few: one a window).
    nonisolated(unsafe) private static var connections: [OpaquePointer] = []
    nonisolated(unsafe) private static var replaced: XErrorHandler?

    private static let handler: @convention(c) (OpaquePointer?, UnsafeMutablePointer<XErrorEvent>?) -> Int32 = { display, error in
        if let display, XErrorGuard.connections.contains(display) { return 0 }
        return XErrorGuard.replaced?(display, error) ?? 0
    }

    /// `display` from now on has its errors taken.
    static func guardConnection(_ display: OpaquePointer) {
        if connections.isEmpty { replaced = XSetErrorHandler(handler) }
        connections.append(display)
    }

    /// `display`, about to close: its requests are answered first (their errors taken), then
    /// it leaves the list.
    static func release(_ display: OpaquePointer) {
        XSync(display, 0)
        connections.removeAll { $0 == display }
        guard connections.isEmpty else { return }
        let current = XSetErrorHandler(replaced)
        // C function pointers compare by address.
        if let current, unsafeBitCast(current, to: UnsafeRawPointer.self) != unsafeBitCast(handler, to: UnsafeRawPointer.self) {
            XSetErrorHandler(current)
        }
        replaced = nil
    }
}
