import ArgumentParser
import Foundation
import Logging
import Synchronization
import ToneShaperControl
import ToneShaperFiles
import ToneShaperModel
import ToneShaperOSC

#if canImport(Glibc)
    import Glibc
#endif

/// `toneshaper run` under a session manager (NSM_URL set, as nsmd, RaySession, Agordejo
/// and Carla start their clients): announce, wait for the manager's open, and only then
/// join JACK under the client id given.
extension RunCommand {
    /// The session manager's URL, when the node runs under one.
    static var sessionManagerURL: String? {
        guard let url = ProcessInfo.processInfo.environment["NSM_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// Runs the node for the session manager at `url` until SIGTERM (the manager's quit) or
    /// SIGINT. Returns false, having done nothing, when the URL is unusable: the API says to
    /// run without session management then.
    func runUnderSessionManager(url: String, logger: Logger) throws -> Bool {
        var shape = ToneShape.defaultShape
        if let document {
            do { shape = try DocumentLibrary().load(document) } catch { throw ValidationError(error.description) }
        }
        shape = try parameters.apply(to: shape)
        shape = try midi.apply(to: shape)
        if saveName != nil { logger.notice("NSM: --save is ignored; the session manager decides when the node saves") }

        if httpPort != nil { logger.notice("NSM: --http-port is ignored; the editor takes the session's port, or any free one") }
        let hostOptions = try self.hostOptions()
        let session = SessionNode(options: .init(startShape: shape, stereo: stereo, connect: connect, host: hostOptions), logger: logger)
        let connection: NSMConnection
        do {
            connection = try NSMConnection(url: url) { [weak session] path, arguments in
                guard let session else { return }
                session.queue.async {
                    if let refusal = session.client?.receive(path: path, arguments: arguments) {
                        logger.warning("NSM: refused \(refusal)")
                    }
                }
            }
        } catch {
            logger.warning("NSM_URL is set but unusable (\(error)); running without session management")
            return false
        }
        // The editor is the optional GUI: a manager's "show" opens it in the browser.
        let capabilities: NSMCapabilities = hostOptions.web == nil ? [.switch, .dirty] : [.switch, .dirty, .optionalGUI]
        let client = NSMClient(capabilities: capabilities, host: session) { [weak connection] message in connection?.send(message) }
        session.client = client
        let refused = Mutex(false)
        session.onRefused = { _ in
            refused.withLock { $0 = true }
            kill(getpid(), SIGTERM)  // the main thread's sigwait ends the node
        }
        try connection.start()
        let executable = CommandLine.arguments.first ?? "toneshaper"
        connection.send(client.announcement(name: clientName, executable: executable, pid: getpid()))
        for message in client.afterAnnouncement() { connection.send(message) }
        logger.info("NSM: announced to \(url) from \(connection.localURL); waiting for the session to open")
        // A manager that never answers leaves the node waiting (joining JACK on its own
        // would take a name the session did not give): say so, once.
        session.queue.asyncAfter(deadline: .now() + 5) {
            if let client = session.client, client.phase == .announcing, client.session == nil {
                logger.warning("NSM: no answer from the session manager at \(url) yet; still waiting for it to open the session")
            }
        }

        let signal = TerminationSignals.wait()
        logger.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): closing without saving")
        connection.stop()
        let closed = session.queue.sync { session.close() }
        if refused.withLock({ $0 }) { throw ExitCode(1) }
        if !closed { NodeShutdown.exitLeavingNode() }
        return true
    }
}
