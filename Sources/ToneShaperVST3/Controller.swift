import CVST3
import ToneShaperPlugin

/// The controller's tables: IEditController (parameters, ``Parameters``; the editor view,
/// ``View``), IMidiMapping (a host's MIDI to ``MIDIParameters``), IUnitInfo (one root unit
/// with the built-in shapes as its program list) and INoteExpressionController (tuning and
/// volume, the two a voice takes).
extension Tables {
    nonisolated(unsafe) static let controller: UnsafeMutablePointer<toneshaper_vst3_edit_controller_vtable> = make(
        toneshaper_vst3_edit_controller_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release, initialize: initialize,
            terminate: terminate,
            // One object: the component's state is already the controller's.
            set_component_state: { this, _ in Component.plugin(this) != nil ? TONESHAPER_VST3_OK : TONESHAPER_VST3_FALSE },
            // Everything is in the component's state: the controller keeps nothing of its own.
            set_state: { _, _ in TONESHAPER_VST3_OK },
            get_state: { _, _ in TONESHAPER_VST3_OK },
            get_parameter_count: { _ in Int32(Parameters.count) },
            get_parameter_info: { _, index, info in
                guard let info else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                return Parameters.info(Int(index), into: &info.pointee) ? TONESHAPER_VST3_OK : TONESHAPER_VST3_INVALID_ARGUMENT
            },
            get_param_string_by_value: { _, id, normalized, string in
                guard let string, let text = ParameterValues.text(id, normalized) else { return TONESHAPER_VST3_FALSE }
                Text16.copy(text, into: string)
                return TONESHAPER_VST3_OK
            },
            get_param_value_by_string: { _, id, string, normalized in
                guard let normalized, let text = Text16.string(string), let value = ParameterValues.value(id, text: text) else {
                    return TONESHAPER_VST3_FALSE
                }
                normalized.pointee = value
                return TONESHAPER_VST3_OK
            },
            normalized_param_to_plain: { _, id, normalized in ParameterValues.plain(id, normalized) ?? normalized },
            plain_param_to_normalized: { _, id, plain in ParameterValues.normalized(id, plain: plain) ?? 0 },
            get_param_normalized: { this, id in Component.plugin(this)?.pointee.normalized(id) ?? 0 },
            set_param_normalized: { this, id, value in Component.plugin(this)?.pointee.setNormalized(id, value).result ?? TONESHAPER_VST3_FALSE },
            set_component_handler: { this, handler in
                guard let plugin = Component.plugin(this) else { return TONESHAPER_VST3_FALSE }
                if let handler { _ = handler.pointee.vtable.pointee.add_ref?(handler) }
                if let old = plugin.pointee.handler { _ = old.pointee.vtable.pointee.release?(old) }
                plugin.pointee.handler = handler
                return TONESHAPER_VST3_OK
            },
            create_view: { this, name in View.make(this, name) }))

    nonisolated(unsafe) static let midiMapping: UnsafeMutablePointer<toneshaper_vst3_midi_mapping_vtable> = make(
        toneshaper_vst3_midi_mapping_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            get_midi_controller_assignment: { _, bus, channel, number, id in
                guard let id, bus == 0, let mapped = MIDIParameters.id(channel: Int(channel), number: Int(number)) else {
                    return TONESHAPER_VST3_FALSE
                }
                id.pointee = mapped
                return TONESHAPER_VST3_OK
            }))

    static var programListID: Int32 { 1 }

    nonisolated(unsafe) static let units: UnsafeMutablePointer<toneshaper_vst3_unit_info_vtable> = make(
        toneshaper_vst3_unit_info_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            get_unit_count: { _ in 1 },
            get_unit_info: { _, index, info in
                guard index == 0, let info else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                info.pointee = toneshaper_vst3_unit_info()
                info.pointee.id = Int32(TONESHAPER_VST3_ROOT_UNIT)
                info.pointee.parent_unit_id = Int32(TONESHAPER_VST3_NO_PARENT_UNIT)
                info.pointee.program_list_id = programListID
                Text16.copy("ToneShaper", into: &info.pointee.name)
                return TONESHAPER_VST3_OK
            },
            get_program_list_count: { _ in 1 },
            get_program_list_info: { _, index, info in
                guard index == 0, let info else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                info.pointee = toneshaper_vst3_program_list_info()
                info.pointee.id = programListID
                info.pointee.program_count = Int32(BuiltIns.count)
                Text16.copy("Shapes", into: &info.pointee.name)
                return TONESHAPER_VST3_OK
            },
            get_program_name: { _, list, index, name in
                guard list == programListID, let name, let text = BuiltIns.name(Int(index)) else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                Text16.copy(text, into: name)
                return TONESHAPER_VST3_OK
            },
            get_program_info: { _, _, _, _, _ in TONESHAPER_VST3_FALSE },
            has_program_pitch_names: { _, _, _ in TONESHAPER_VST3_FALSE },
            get_program_pitch_name: { _, _, _, _, _ in TONESHAPER_VST3_FALSE },
            get_selected_unit: { _ in Int32(TONESHAPER_VST3_ROOT_UNIT) },
            select_unit: { _, unit in (unit == Int32(TONESHAPER_VST3_ROOT_UNIT)).result },
            get_unit_by_bus: { _, _, _, _, _, unit in
                guard let unit else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                unit.pointee = Int32(TONESHAPER_VST3_ROOT_UNIT)
                return TONESHAPER_VST3_OK
            },
            set_unit_program_data: { _, _, _, _ in TONESHAPER_VST3_NOT_IMPLEMENTED }))

    nonisolated(unsafe) static let noteExpressions: UnsafeMutablePointer<toneshaper_vst3_note_expression_controller_vtable> = make(
        toneshaper_vst3_note_expression_controller_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            get_note_expression_count: { _, bus, _ in bus == 0 ? 2 : 0 },
            get_note_expression_info: { _, bus, _, index, info in
                guard bus == 0, index >= 0, index <= 1, let info else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                let tuning = index == 1
                info.pointee = toneshaper_vst3_note_expression_type_info()
                info.pointee.type_id = UInt32(tuning ? TONESHAPER_VST3_EXPRESSION_TUNING : TONESHAPER_VST3_EXPRESSION_VOLUME)
                info.pointee.default_value = tuning ? 0.5 : 0.25
                info.pointee.maximum = 1
                info.pointee.associated_parameter_id = UInt32.max  // none
                info.pointee.flags = tuning ? Int32(TONESHAPER_VST3_EXPRESSION_BIPOLAR) : 0
                Text16.copy(tuning ? "Tuning" : "Volume", into: &info.pointee.title)
                Text16.copy(tuning ? "Tune" : "Vol", into: &info.pointee.short_title)
                Text16.copy(tuning ? "semitones" : "gain", into: &info.pointee.units)
                return TONESHAPER_VST3_OK
            },
            get_note_expression_string_by_value: { _, _, _, id, normalized, string in
                guard let string, normalized.isFinite else { return TONESHAPER_VST3_FALSE }
                let tuning = Int32(id) == TONESHAPER_VST3_EXPRESSION_TUNING
                guard tuning || Int32(id) == TONESHAPER_VST3_EXPRESSION_VOLUME else { return TONESHAPER_VST3_FALSE }
                Text16.copy(
                    HostParameter.format(tuning ? (normalized - 0.5) * 240 : normalized * 4, digits: 3, unit: tuning ? "semitones" : "x"),
                    into: string)
                return TONESHAPER_VST3_OK
            },
            get_note_expression_value_by_string: { _, _, _, _, _, _ in TONESHAPER_VST3_NOT_IMPLEMENTED }))
}
