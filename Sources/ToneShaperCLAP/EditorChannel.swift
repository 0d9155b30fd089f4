import CCLAP
import Synchronization
import ToneShaperModel
import ToneShaperPlugin

extension Plugin {
    /// On the audio side (process, or params.flush): the window's edits, applied as the
    /// host's values are, and reported to the host in `out` (a gesture's begin and end, each
    /// value), so it records them as it records a knob of its own.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func takeEdits(_ out: UnsafePointer<toneshaper_clap_output_events>?) {
        let channel = session.editorChannel
        while channel.edits.pop({ kind, payload in
            guard payload.count == MemoryLayout<EditorChannel.Edit>.size, let base = payload.baseAddress else { return }
            let edit = base.loadUnaligned(as: EditorChannel.Edit.self)
            switch EditorChannel.Kind(rawValue: kind) {
            case .begin: report(gesture: UInt16(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN), id: edit.id, out)
            case .end: report(gesture: UInt16(TONESHAPER_CLAP_EVENT_PARAM_GESTURE_END), id: edit.id, out)
            case .value:
                session.parameter(edit.id, edit.value, modulation: false)
                report(value: edit.value, id: edit.id, out)
            case nil: break
            }
        }) {
            channel.counts[1].add(1, ordering: .releasing)
        }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func report(gesture type: UInt16, id: UInt32, _ out: UnsafePointer<toneshaper_clap_output_events>?) {
        guard let out else { return }
        var event = toneshaper_clap_event_param_gesture()
        event.header = toneshaper_clap_event_header(
            size: UInt32(MemoryLayout<toneshaper_clap_event_param_gesture>.size), time: 0, space_id: UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE),
            type: type, flags: 0)
        event.param_id = id
        withUnsafePointer(to: &event) { pointer in
            let header = UnsafeRawPointer(pointer).assumingMemoryBound(to: toneshaper_clap_event_header.self)
            _unsafePerformance { _ = out.pointee.try_push?(out, header) }
        }
    }

    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func report(value: Double, id: UInt32, _ out: UnsafePointer<toneshaper_clap_output_events>?) {
        guard let out else { return }
        var event = toneshaper_clap_event_param_value()
        event.header = toneshaper_clap_event_header(
            size: UInt32(MemoryLayout<toneshaper_clap_event_param_value>.size), time: 0, space_id: UInt16(TONESHAPER_CLAP_CORE_EVENT_SPACE),
            type: UInt16(TONESHAPER_CLAP_EVENT_PARAM_VALUE), flags: 0)
        event.param_id = id
        event.note_id = -1
        event.port_index = -1
        event.channel = -1
        event.key = -1
        event.value = value
        withUnsafePointer(to: &event) { pointer in
            let header = UnsafeRawPointer(pointer).assumingMemoryBound(to: toneshaper_clap_event_header.self)
            _unsafePerformance { _ = out.pointee.try_push?(out, header) }
        }
    }
}
