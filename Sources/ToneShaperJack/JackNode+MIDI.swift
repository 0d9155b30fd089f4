import CJack
import Foundation
import ToneShaperCore

extension JackNode {
    /// Connects the ports `--midi-connect` names to `midi_in`; a missing one is reported,
    /// not fatal (a DAW or keyboard may appear later and be connected by hand).
    func connectMIDI(_ session: JackSession) {
        guard let midiPort = session.midiPort else { return }
        let ours = String(cString: jack_port_name(midiPort))
        for source in configuration.midiConnect {
            let result = jack_connect(session.client, source, ours)
            if result != 0 && result != EEXIST {
                logger.warning("could not connect MIDI port \(source) to \(ours) (error \(result)); is the name right? (jack_lsp lists the ports)")
            }
        }
    }

    /// The full name of the MIDI input port ("toneshaper:midi_in"), nil without one.
    public var midiPortName: String? {
        guard configuration.midiInput else { return nil }
        return clientName + ":" + JackNodeConfiguration.midiPortName
    }

    /// MIDI events dropped because a period brought more than the renderer reads.
    public var droppedMIDIEvents: Int { signals.droppedMIDIEvents.load(ordering: .relaxed) }

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
