import CJack
import Foundation
import ToneShaperAudio
import ToneShaperControl

extension JackNode {
    /// Connects the ports `--midi-connect` names to `midi_in`; a missing one is reported,
    /// not fatal (a DAW or keyboard may appear later and be connected by hand).
    func connectMIDI(_ session: JackSession) {
        signals.midiSettledGeneration.store(session.generation, ordering: .relaxed)
        guard let midiPort = session.midiPort else { return }
        let ours = String(cString: jack_port_name(midiPort))
        for source in configuration.midiConnect {
            let result = jack_connect(session.client, source, ours)
            if result != 0 && result != EEXIST {
                logger.warning("could not connect MIDI port \(source) to \(ours) (error \(result)); is the name right? (jack_lsp lists the ports)")
            }
        }
    }

    /// From the control loop, while connected: remembers what `midi_in` is connected to;
    /// after a reconnect, connects the new client's `midi_in` to those ports and the
    /// `--midi-connect` ones again, as they appear (for up to 10 s: a keyboard bridge or a
    /// DAW may come back later than the server).
    func keepMIDIConnections(_ session: JackSession) {
        guard let midiPort = session.midiPort else { return }
        let current = JackSession.strings(jack_port_get_connections(midiPort))
        if signals.midiSettledGeneration.load(ordering: .relaxed) == session.generation {
            if signals.lostGeneration.load(ordering: .acquiring) != session.generation {
                let changed = signals.midiPeers.withLock { peers in
                    defer { peers = current }
                    return peers != current
                }
                // Said at debug level when the list changes: what a loss would restore.
                if changed { logger.debug("remembering MIDI connections: \(current.isEmpty ? "none" : current.joined(separator: ", ")) -> midi_in") }
            }
            return
        }
        let now = toneshaper_monotonic_nanoseconds()
        if signals.midiRestoreDeadline.load(ordering: .relaxed) == 0 {
            signals.midiRestoreDeadline.store(now + 10_000_000_000, ordering: .relaxed)
        }
        let wanted = Set(configuration.midiConnect + signals.midiPeers.withLock { $0 })
        let ours = String(cString: jack_port_name(midiPort))
        var missing: [String] = []
        for peer in wanted.sorted() where !current.contains(peer) {
            if session.portExists(peer), jack_connect(session.client, peer, ours) == 0 {
                logger.info("restored connection \(peer) -> \(ours)")
            } else {
                missing.append(peer)
            }
        }
        if missing.isEmpty || now > signals.midiRestoreDeadline.load(ordering: .relaxed) {
            if !missing.isEmpty { logger.warning("could not restore MIDI connection(s) to \(ours): \(missing.joined(separator: ", "))") }
            signals.midiSettledGeneration.store(session.generation, ordering: .relaxed)
            signals.midiRestoreDeadline.store(0, ordering: .relaxed)
        }
    }

    /// The full name of the MIDI input port ("toneshaper:midi_in"), nil without one.
    public var midiPortName: String? {
        guard configuration.midiInput else { return nil }
        return clientName + ":" + JackNodeConfiguration.midiPortName
    }

    /// MIDI events dropped because a period brought more than the renderer reads.
    public var droppedMIDIEvents: Int { signals.droppedMIDIEvents.load(ordering: .relaxed) }

    /// MIDI Tuning Standard messages refused (truncated, malformed, a bulk dump's wrong
    /// checksum): counted, and changed nothing.
    public var refusedTuningMessages: Int { signals.refusedTuningMessages.load(ordering: .relaxed) }

    /// From the control loop: says how many tuning messages were refused since it last said.
    func reportRefusedTuning() {
        let refused = signals.refusedTuningMessages.load(ordering: .relaxed)
        let reported = signals.reportedRefusedTuningMessages.load(ordering: .relaxed)
        guard refused > reported else { return }
        signals.reportedRefusedTuningMessages.store(refused, ordering: .relaxed)
        logger.warning("refused \(refused - reported) MIDI tuning message(s): truncated, malformed or a wrong checksum; the tuning is unchanged")
    }

    /// From the control loop: says that a MIDI flood was cut, at most every 10 s.
    func reportDroppedMIDI() {
        let dropped = signals.droppedMIDIEvents.load(ordering: .relaxed)
        let reported = signals.reportedDroppedMIDIEvents.load(ordering: .relaxed)
        guard dropped > reported else { return }
        let now = toneshaper_monotonic_nanoseconds()
        guard now &- signals.lastDropReport.load(ordering: .relaxed) > 10_000_000_000 else { return }
        signals.lastDropReport.store(now, ordering: .relaxed)
        signals.reportedDroppedMIDIEvents.store(dropped, ordering: .relaxed)
        logger.warning("MIDI flood: \(dropped - reported) events dropped (more than \(RealtimeRenderer.maximumMIDIEvents) in a period)")
    }
}

extension JackSession {
    /// `midi_in`, registered by `open` unless MIDI is off.
    var midiPort: OpaquePointer? { jack_port_by_name(client, clientName + ":" + JackNodeConfiguration.midiPortName) }
}
