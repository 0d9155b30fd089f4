import CJack
import Foundation

/// Server loss and return (SPEC 9, 12): the shape, the engine and its phase stay; only the
/// client is new.
extension JackNode {
    /// Called by the control loop once the shutdown callback raised its flag.
    func serverWentAway(_ lost: JackSession) {
        let reason = signals.shutdownReason.take(generation: lost.generation) ?? "no reason given"
        logger.warning("JACK server went away: \(reason); keeping state, will reconnect")
        // Connections JACK announced since the last look at the graph (one made moments
        // before the server died) are remembered too.
        remembered = ConnectionLog.apply(signals.connectionLog.drain(generation: lost.generation), to: remembered)
        session = nil
        publish(nil)
        lostAt = JackNode.monotonicSeconds()
        nextAttempt = lostAt! + configuration.reconnectInterval
        lastAttemptError = nil
        // Never from the shutdown callback itself, and never without a timeout.
        if lost.close(deactivateFirst: false, timeout: configuration.closeTimeout) {
            // The old client is gone: the callback state must not point at its freed ports.
            realtime?.pointee.client = nil
            realtime?.pointee.port = nil
            realtime?.pointee.mirrorPort = nil
        } else {
            abandonedClient = true
            logger.warning("jack_client_close did not return within \(configuration.closeTimeout) s (a known jack2 hang); leaving that client behind")
        }
    }

    /// Tries to open a client again, every `reconnectInterval`.
    func tryReconnect() {
        let now = JackNode.monotonicSeconds()
        guard now >= nextAttempt else { return }
        nextAttempt = now + configuration.reconnectInterval
        let next = generation + 1
        let session: JackSession
        do throws(JackNodeError) {
            session = try JackSession.open(configuration: configuration, generation: next, signals: signals)
        } catch {
            // "No server yet" is the expected answer while waiting; anything else is news,
            // said once.
            logger.debug("reconnecting to JACK: \(error)")
            if case .noServer = error {
            } else if error != lastAttemptError {
                logger.warning("reconnecting to JACK: \(error)")
            }
            lastAttemptError = error
            return
        }
        generation = next
        let realtime: UnsafeMutablePointer<RealtimeState>
        if let kept = self.realtime, !abandonedClient {
            // The old client is closed: its state (engine, phase, schedule) carries on.
            realtime = kept
            adoptServerSettings(of: session)
        } else {
            // An old client that never closed may still run its callback on the old state:
            // the new client gets a state of its own, so no state is ever driven by two
            // threads. The old one is left alone (never freed) for that reason.
            realtime = makeRealtimeState(for: session)
            self.realtime = realtime
            abandonedClient = false
        }
        signals.resetCallbackTimings()
        session.attach(realtime)
        updateClockOffset()
        do throws(JackNodeError) {
            try session.activate()
        } catch {
            logger.warning("reconnecting to JACK: \(error)")
            if session.close(deactivateFirst: false, timeout: configuration.closeTimeout) {
                realtime.pointee.client = nil
                realtime.pointee.port = nil
                realtime.pointee.mirrorPort = nil
            } else {
                abandonedClient = true
            }
            return
        }
        self.session = session
        publish(session)
        let away = lostAt.map { String(format: "%.1f", now - $0) } ?? "?"
        logger.notice(
            "reconnected to JACK server \"\(configuration.effectiveServerName)\" after \(away) s as \(session.portNames.joined(separator: ", "))")
        lostAt = nil
        restoreDeadline = now + 10
        keepConnections(session)
    }

    /// While connected: remember the connections (so a loss can restore them), or, just
    /// after a reconnect, restore the remembered ones as their peers appear (for up to
    /// 10 s: other clients may come back later than the server).
    func keepConnections(_ session: JackSession) {
        // Said at debug level whenever the list changes: what a loss would restore (and what
        // a test waits for before it takes the server away).
        let known = remembered
        defer {
            if remembered != known {
                let list = remembered.map { "\(session.portNames[$0.port]) -> \($0.peer)" }.joined(separator: ", ")
                logger.debug("remembering connections: \(list.isEmpty ? "none" : list)")
            }
        }
        // What JACK announced since the last round, so that a loss right after it still
        // knows; the poll below, later than these events, then has the last word.
        remembered = ConnectionLog.apply(signals.connectionLog.drain(generation: session.generation), to: remembered)
        if let deadline = restoreDeadline {
            let present = Set(session.connections())
            var missing: [Connection] = []
            for connection in remembered where !present.contains(connection) {
                if session.portExists(connection.peer) && session.connect(port: connection.port, to: connection.peer) {
                    logger.info("restored connection \(session.portNames[connection.port]) -> \(connection.peer)")
                } else {
                    missing.append(connection)
                }
            }
            if missing.isEmpty {
                restoreDeadline = nil
                return
            }
            if JackNode.monotonicSeconds() > deadline {
                let list = missing.map { "\(session.portNames[$0.port]) -> \($0.peer)" }.joined(separator: ", ")
                logger.warning("could not restore \(missing.count) connection(s): \(list)")
                restoreDeadline = nil
            }
            return
        }
        let now = session.connections()
        // A loss noticed meanwhile may have emptied the graph: keep the last good list then.
        if signals.lostGeneration.load(ordering: .acquiring) != session.generation {
            remembered = now
        }
    }

    /// The connections made at start: the named ports, else the physical playback ports.
    func connectAtStart(_ session: JackSession) {
        var targets = configuration.connectTo
        if targets.isEmpty && configuration.autoConnect {
            targets = Array(session.physicalPlaybackPorts().prefix(2))
            if targets.isEmpty { logger.notice("no physical playback ports to connect to") }
        }
        for (i, target) in targets.enumerated() {
            // Mono: `out` goes to every target. Stereo: out_1, out_2, out_1, ...
            let port = session.ports.count > 1 ? i % session.ports.count : 0
            if !session.portExists(target) {
                logger.warning("there is no JACK port named \"\(target)\"; not connected")
            } else if session.connect(port: port, to: target) {
                logger.info("connected \(session.portNames[port]) -> \(target)")
            } else {
                logger.warning("could not connect \(session.portNames[port]) -> \(target)")
            }
        }
        // Stereo auto-connect with a single playback port: both channels to it.
        if configuration.connectTo.isEmpty && configuration.autoConnect && session.ports.count > 1 && targets.count == 1 {
            session.connect(port: 1, to: targets[0])
        }
    }
}
