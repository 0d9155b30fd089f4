import CVST3
import ToneShaperPlugin

/// The component's interface tables, made once: their memory lives as long as the shared
/// object. Calls out of turn (before initialize, a bus or an index that does not exist) are
/// refused and change nothing.
enum Tables {
    nonisolated(unsafe) static let component: UnsafeMutablePointer<toneshaper_vst3_component_vtable> = make(
        toneshaper_vst3_component_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release, initialize: initialize,
            terminate: terminate,
            // One object is processor and controller: the host asks it for IEditController.
            get_controller_class_id: { _, _ in TONESHAPER_VST3_FALSE },
            set_io_mode: { _, _ in TONESHAPER_VST3_OK },
            get_bus_count: { _, type, direction in
                (type == TONESHAPER_VST3_MEDIA_AUDIO && direction == TONESHAPER_VST3_OUTPUT)
                    || (type == TONESHAPER_VST3_MEDIA_EVENT && direction == TONESHAPER_VST3_INPUT) ? 1 : 0
            },
            get_bus_info: { this, type, direction, index, bus in
                guard let component = Component.of(this), let bus, index == 0 else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                bus.pointee = toneshaper_vst3_bus_info()
                bus.pointee.media_type = type
                bus.pointee.direction = direction
                bus.pointee.bus_type = TONESHAPER_VST3_BUS_MAIN
                bus.pointee.flags = UInt32(TONESHAPER_VST3_BUS_DEFAULT_ACTIVE)
                let name: String
                if type == TONESHAPER_VST3_MEDIA_AUDIO && direction == TONESHAPER_VST3_OUTPUT {
                    bus.pointee.channel_count = component.pointee.stereo ? 2 : 1
                    name = "Output"
                } else if type == TONESHAPER_VST3_MEDIA_EVENT && direction == TONESHAPER_VST3_INPUT {
                    bus.pointee.channel_count = 16
                    name = "MIDI In"
                } else {
                    return TONESHAPER_VST3_INVALID_ARGUMENT
                }
                Text16.copy(name, into: &bus.pointee.name)
                return TONESHAPER_VST3_OK
            },
            get_routing_info: { _, _, _ in TONESHAPER_VST3_FALSE },
            // The two buses there are: the audio output and the event input.
            activate_bus: { _, type, direction, index, _ in
                index == 0
                    && (type == TONESHAPER_VST3_MEDIA_AUDIO && direction == TONESHAPER_VST3_OUTPUT
                        || type == TONESHAPER_VST3_MEDIA_EVENT && direction == TONESHAPER_VST3_INPUT)
                    ? TONESHAPER_VST3_OK : TONESHAPER_VST3_INVALID_ARGUMENT
            },
            set_active: { this, state in Component.plugin(this)?.pointee.setActive(state != 0).result ?? TONESHAPER_VST3_FALSE },
            set_state: { this, stream in stream.flatMap { Component.plugin(this)?.pointee.load(from: $0).result } ?? TONESHAPER_VST3_FALSE },
            get_state: { this, stream in stream.flatMap { Component.plugin(this)?.pointee.save(to: $0).result } ?? TONESHAPER_VST3_FALSE }))

    /// IPluginBase's initialize, for the component and the controller alike (a host may call
    /// both on the one object): the plugin is made once.
    static let initialize: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = { this, _ in
        guard let component = Component.of(this) else { return TONESHAPER_VST3_FALSE }
        if component.pointee.plugin == nil { component.pointee.plugin = Plugin.make() }
        return TONESHAPER_VST3_OK
    }

    static let terminate: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { this in
        Component.of(this)?.pointee.terminate()
        return TONESHAPER_VST3_OK
    }

    nonisolated(unsafe) static let processor: UnsafeMutablePointer<toneshaper_vst3_audio_processor_vtable> = make(
        toneshaper_vst3_audio_processor_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            // The native layout only: no input, one output of the class's channels.
            set_bus_arrangements: { this, _, inputCount, outputs, outputCount in
                guard let component = Component.of(this), inputCount == 0, outputCount == 1, let outputs else { return TONESHAPER_VST3_FALSE }
                return (outputs.pointee == Tables.arrangement(stereo: component.pointee.stereo)).result
            },
            get_bus_arrangement: { this, direction, index, arrangement in
                guard let component = Component.of(this), direction == TONESHAPER_VST3_OUTPUT, index == 0, let arrangement else {
                    return TONESHAPER_VST3_INVALID_ARGUMENT
                }
                arrangement.pointee = Tables.arrangement(stereo: component.pointee.stereo)
                return TONESHAPER_VST3_OK
            },
            can_process_sample_size: { _, size in (size == TONESHAPER_VST3_SAMPLE32).result },
            get_latency_samples: { _ in 0 },
            // Only while inactive, as VST 3's call order has it (setActive(true) comes after).
            setup_processing: { this, setup in
                guard let plugin = Component.plugin(this), !plugin.pointee.session.active, let setup,
                    setup.pointee.symbolic_sample_size == TONESHAPER_VST3_SAMPLE32,
                    setup.pointee.sample_rate > 0, setup.pointee.sample_rate.isFinite, setup.pointee.max_samples_per_block > 0
                else { return TONESHAPER_VST3_FALSE }
                plugin.pointee.sampleRate = setup.pointee.sample_rate
                plugin.pointee.maximumBlock = Int(setup.pointee.max_samples_per_block)
                plugin.pointee.session.offline = setup.pointee.process_mode == TONESHAPER_VST3_OFFLINE
                return TONESHAPER_VST3_OK
            },
            set_processing: { _, _ in TONESHAPER_VST3_OK },
            process: { this, data in processInstance(this, data) },
            // A drone sounds for as long as it is played.
            get_tail_samples: { _ in UInt32.max }))

    static func arrangement(stereo: Bool) -> UInt64 { stereo ? TONESHAPER_VST3_SPEAKERS_STEREO : TONESHAPER_VST3_SPEAKERS_MONO }

    nonisolated(unsafe) static let contextRequirements: UnsafeMutablePointer<toneshaper_vst3_process_context_requirements_vtable> = make(
        toneshaper_vst3_process_context_requirements_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            get_process_context_requirements: { _ in
                UInt32(
                    TONESHAPER_VST3_NEED_PROJECT_TIME_MUSIC | TONESHAPER_VST3_NEED_BAR_POSITION_MUSIC | TONESHAPER_VST3_NEED_TEMPO
                        | TONESHAPER_VST3_NEED_TIME_SIGNATURE | TONESHAPER_VST3_NEED_TRANSPORT_STATE)
            }))

    static func make<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }
}

/// process(), under the real-time proof from here down; before setActive(true), only a
/// flush of parameters (no frames) is taken.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
private func processInstance(_ this: UnsafeMutableRawPointer?, _ data: UnsafeMutablePointer<toneshaper_vst3_process_data>?) -> Int32 {
    var body: UnsafeMutableRawPointer?
    _unsafePerformance { body = toneshaper_vst3_body(this) }  // entry.c's: reads two pointers
    guard let data, let plugin = body?.assumingMemoryBound(to: Component.self).pointee.plugin,
        plugin.pointee.session.active || data.pointee.sample_count == 0
    else { return TONESHAPER_VST3_FALSE }
    return plugin.pointee.process(data)
}
