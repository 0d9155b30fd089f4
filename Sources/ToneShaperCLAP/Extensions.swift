import CCLAP
import CPluginSupport
import ToneShaperModel
import ToneShaperPlugin

/// The extensions the plugin offers (get_extension), made once: their memory lives as long
/// as the shared object.
enum Extensions {
    static func find(_ id: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_AUDIO_PORTS) != 0 { return UnsafeRawPointer(audioPorts) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_NOTE_PORTS) != 0 { return UnsafeRawPointer(notePorts) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_PARAMS) != 0 { return UnsafeRawPointer(params) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_STATE) != 0 { return UnsafeRawPointer(state) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_LATENCY) != 0 { return UnsafeRawPointer(latency) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_RENDER) != 0 { return UnsafeRawPointer(render) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_GUI) != 0 { return UnsafeRawPointer(EditorExtensions.gui) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_TIMER_SUPPORT) != 0 { return UnsafeRawPointer(EditorExtensions.timerSupport) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_POSIX_FD_SUPPORT) != 0 { return UnsafeRawPointer(EditorExtensions.posixFDSupport) }
        if toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_PRESET_LOAD) != 0
            || toneshaper_plugin_equal(id, TONESHAPER_CLAP_EXT_PRESET_LOAD_COMPAT) != 0
        {
            return UnsafeRawPointer(presetLoad)
        }
        return nil
    }

    nonisolated(unsafe) static let audioPorts: UnsafeMutablePointer<toneshaper_clap_plugin_audio_ports> = make(
        toneshaper_clap_plugin_audio_ports(
            count: { _, isInput in isInput ? 0 : 1 },
            get: { clap, index, isInput, info in
                guard let shell = Shell.of(clap), let info, !isInput, index == 0 else { return false }
                let stereo = shell.pointee.stereo
                info.pointee.id = 0
                withUnsafeMutableBytes(of: &info.pointee.name) { HostParameter.copyText("Output", into: $0) }
                info.pointee.flags = TONESHAPER_CLAP_AUDIO_PORT_IS_MAIN
                info.pointee.channel_count = stereo ? 2 : 1
                let type: StaticString = stereo ? "stereo" : "mono"
                info.pointee.port_type = UnsafeRawPointer(type.utf8Start).assumingMemoryBound(to: CChar.self)
                info.pointee.in_place_pair = TONESHAPER_CLAP_INVALID_ID
                return true
            }))

    nonisolated(unsafe) static let notePorts: UnsafeMutablePointer<toneshaper_clap_plugin_note_ports> = make(
        toneshaper_clap_plugin_note_ports(
            count: { _, isInput in isInput ? 1 : 0 },
            get: { _, index, isInput, info in
                guard let info, isInput, index == 0 else { return false }
                info.pointee.id = 0
                info.pointee.supported_dialects = UInt32(TONESHAPER_CLAP_NOTE_DIALECT_CLAP | TONESHAPER_CLAP_NOTE_DIALECT_MIDI)
                info.pointee.preferred_dialect = UInt32(TONESHAPER_CLAP_NOTE_DIALECT_CLAP)
                withUnsafeMutableBytes(of: &info.pointee.name) { HostParameter.copyText("Notes", into: $0) }
                return true
            }))

    nonisolated(unsafe) static let params: UnsafeMutablePointer<toneshaper_clap_plugin_params> = make(
        toneshaper_clap_plugin_params(
            count: { _ in UInt32(HostParameter.count) },
            get_info: { _, index, info in
                guard let info, Int(index) < HostParameter.count else { return false }
                CLAPParameters.info(Int(index), into: &info.pointee)
                return true
            },
            get_value: { clap, id, value in
                guard let plugin = Shell.plugin(clap), let value, let row = HostParameter.row(of: id) else { return false }
                value.pointee = plugin.pointee.session.params.values[row]
                return true
            },
            value_to_text: { _, id, value, buffer, capacity in
                guard let buffer, capacity > 0, let row = HostParameter.row(of: id), let text = HostParameter.text(row, value) else { return false }
                HostParameter.copyText(text, into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(capacity)))
                return true
            },
            text_to_value: { _, id, text, value in
                guard let text, let value, let row = HostParameter.row(of: id),
                    let parsed = HostParameter.value(row, text: String(cString: text))
                else { return false }
                value.pointee = parsed
                return true
            },
            flush: { clap, input, output in flushInstance(clap, input, output) }))

    nonisolated(unsafe) static let state: UnsafeMutablePointer<toneshaper_clap_plugin_state> = make(
        toneshaper_clap_plugin_state(
            save: { clap, stream in
                guard let plugin = Shell.plugin(clap), let stream else { return false }
                return plugin.pointee.save(to: stream)
            },
            load: { clap, stream in
                guard let plugin = Shell.plugin(clap), let stream else { return false }
                return plugin.pointee.load(from: stream)
            }))

    nonisolated(unsafe) static let latency: UnsafeMutablePointer<toneshaper_clap_plugin_latency> = make(
        toneshaper_clap_plugin_latency(get: { _ in 0 }))

    nonisolated(unsafe) static let render: UnsafeMutablePointer<toneshaper_clap_plugin_render> = make(
        toneshaper_clap_plugin_render(
            has_hard_realtime_requirement: { _ in false },
            set: { clap, mode in
                guard let plugin = Shell.plugin(clap) else { return false }
                switch Int(mode) {
                case Int(TONESHAPER_CLAP_RENDER_REALTIME): plugin.pointee.session.offline = false
                case Int(TONESHAPER_CLAP_RENDER_OFFLINE): plugin.pointee.session.offline = true
                default: return false
                }
                return true
            }))

    nonisolated(unsafe) static let presetLoad: UnsafeMutablePointer<toneshaper_clap_plugin_preset_load> = make(
        toneshaper_clap_plugin_preset_load(
            from_location: { clap, kind, location, key in
                guard let plugin = Shell.plugin(clap) else { return false }
                return plugin.pointee.loadPreset(kind: kind, location: location, key: key)
            }))

    static func make<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }
}
