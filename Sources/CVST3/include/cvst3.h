#ifndef TONESHAPER_CVST3_H
#define TONESHAPER_CVST3_H

// The parts of the VST 3 ABI this plugin uses, declared here from Steinberg's documentation of
// the interfaces (VST 3 SDK 3.7; checked against the MIT-licensed C declarations, of which this
// file copies none), with static assertions on the sizes and offsets a host and the plugin
// must agree on (x86-64 and AArch64 Linux, LP64, natural alignment: the SDK packs structures
// on Windows only). An interface is a pointer to a table of functions that all take the
// interface first and use the platform's C calling convention; on Linux the 16-byte ids are
// not COM's: the four 32-bit words are stored most significant byte first (the SDK's
// INLINE_UID). Then the few C helpers Embedded Swift needs. Scripts/build-vst3.sh gives this
// header a module map (module CVST3).

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// ---- basic types ---------------------------------------------------------------------

typedef int32_t toneshaper_vst3_result;
static const int32_t TONESHAPER_VST3_NO_INTERFACE = -1;
static const int32_t TONESHAPER_VST3_OK = 0;
static const int32_t TONESHAPER_VST3_FALSE = 1;
static const int32_t TONESHAPER_VST3_INVALID_ARGUMENT = 2;
static const int32_t TONESHAPER_VST3_NOT_IMPLEMENTED = 3;

typedef uint16_t toneshaper_vst3_char16;  // UTF-16 code units (char16)
typedef uint32_t toneshaper_vst3_param_id;

/// Every interface's first three functions (FUnknown).
#define TONESHAPER_VST3_UNKNOWN                                                                                \
    toneshaper_vst3_result (*query_interface)(void *self, const uint8_t *iid, void **object);                  \
    uint32_t (*add_ref)(void *self);                                                                           \
    uint32_t (*release)(void *self);

typedef struct toneshaper_vst3_unknown_vtable {
    TONESHAPER_VST3_UNKNOWN
} toneshaper_vst3_unknown_vtable;

/// Any interface a host hands over: its table.
typedef struct toneshaper_vst3_unknown {
    const toneshaper_vst3_unknown_vtable *vtable;
} toneshaper_vst3_unknown;

/// An interface of the plugin's own objects: the table a host calls, then the object it belongs
/// to (the host reads only the table; every interface of one object points at the same one).
typedef struct toneshaper_vst3_object {
    const void *vtable;
    struct toneshaper_vst3_counted *counted;
} toneshaper_vst3_object;

// ---- constants -------------------------------------------------------------------------

static const int32_t TONESHAPER_VST3_MEDIA_AUDIO = 0;
static const int32_t TONESHAPER_VST3_MEDIA_EVENT = 1;
static const int32_t TONESHAPER_VST3_INPUT = 0;
static const int32_t TONESHAPER_VST3_OUTPUT = 1;
static const int32_t TONESHAPER_VST3_BUS_MAIN = 0;
static const int32_t TONESHAPER_VST3_BUS_DEFAULT_ACTIVE = 1;
static const int32_t TONESHAPER_VST3_SAMPLE32 = 0;
static const int32_t TONESHAPER_VST3_SAMPLE64 = 1;
static const int32_t TONESHAPER_VST3_OFFLINE = 2;  // ProcessModes: kRealtime 0, kPrefetch 1, kOffline 2
static const int32_t TONESHAPER_VST3_EVENT_NOTE_ON = 0;
static const int32_t TONESHAPER_VST3_EVENT_NOTE_OFF = 1;
/// Event::kDataEvent: a block of bytes, of DataEvent::kMidiSysEx (0) for a system exclusive message.
static const int32_t TONESHAPER_VST3_EVENT_DATA = 2;
static const uint32_t TONESHAPER_VST3_DATA_MIDI_SYSEX = 0;
static const int32_t TONESHAPER_VST3_EVENT_NOTE_EXPRESSION_VALUE = 4;
static const int32_t TONESHAPER_VST3_EXPRESSION_VOLUME = 0;
static const int32_t TONESHAPER_VST3_EXPRESSION_TUNING = 2;
static const int32_t TONESHAPER_VST3_EXPRESSION_BIPOLAR = 1 << 0;
static const int32_t TONESHAPER_VST3_EXPRESSION_ABSOLUTE = 1 << 2;
static const int32_t TONESHAPER_VST3_PARAM_CAN_AUTOMATE = 1 << 0;
static const int32_t TONESHAPER_VST3_PARAM_IS_LIST = 1 << 3;
static const int32_t TONESHAPER_VST3_PARAM_IS_HIDDEN = 1 << 4;
static const int32_t TONESHAPER_VST3_PARAM_IS_PROGRAM_CHANGE = 1 << 15;
static const int32_t TONESHAPER_VST3_ROOT_UNIT = 0;
static const int32_t TONESHAPER_VST3_NO_PARENT_UNIT = -1;
static const int32_t TONESHAPER_VST3_CONTROLLER_PITCH_BEND = 129;  // IMidiMapping's kPitchBend (kAfterTouch 128, CCs 0...127)
static const int32_t TONESHAPER_VST3_RESTART_PARAM_VALUES_CHANGED = 1 << 2;
static const int32_t TONESHAPER_VST3_CONTEXT_PLAYING = 1 << 1;
static const int32_t TONESHAPER_VST3_CONTEXT_PROJECT_TIME_MUSIC_VALID = 1 << 9;
static const int32_t TONESHAPER_VST3_CONTEXT_TEMPO_VALID = 1 << 10;
static const int32_t TONESHAPER_VST3_CONTEXT_BAR_POSITION_VALID = 1 << 11;
static const int32_t TONESHAPER_VST3_CONTEXT_TIME_SIG_VALID = 1 << 13;
static const int32_t TONESHAPER_VST3_NEED_PROJECT_TIME_MUSIC = 1 << 2;
static const int32_t TONESHAPER_VST3_NEED_BAR_POSITION_MUSIC = 1 << 3;
static const int32_t TONESHAPER_VST3_NEED_TEMPO = 1 << 6;
static const int32_t TONESHAPER_VST3_NEED_TIME_SIGNATURE = 1 << 7;
static const int32_t TONESHAPER_VST3_NEED_TRANSPORT_STATE = 1 << 10;

static const uint64_t TONESHAPER_VST3_SPEAKERS_MONO = (uint64_t)1 << 19;  // kSpeakerM
static const uint64_t TONESHAPER_VST3_SPEAKERS_STEREO = 3;                // kSpeakerL | kSpeakerR

// ---- structures ------------------------------------------------------------------------

typedef struct toneshaper_vst3_factory_info {
    char vendor[64];
    char url[256];
    char email[128];
    int32_t flags;  // 1 << 4: kUnicode
} toneshaper_vst3_factory_info;

typedef struct toneshaper_vst3_class_info {
    uint8_t cid[16];
    int32_t cardinality;
    char category[32];
    char name[64];
} toneshaper_vst3_class_info;

typedef struct toneshaper_vst3_class_info2 {
    uint8_t cid[16];
    int32_t cardinality;
    char category[32];
    char name[64];
    uint32_t class_flags;
    char subcategories[128];
    char vendor[64];
    char version[64];
    char sdk_version[64];
} toneshaper_vst3_class_info2;

typedef struct toneshaper_vst3_class_info_w {
    uint8_t cid[16];
    int32_t cardinality;
    char category[32];
    toneshaper_vst3_char16 name[64];
    uint32_t class_flags;
    char subcategories[128];
    toneshaper_vst3_char16 vendor[64];
    toneshaper_vst3_char16 version[64];
    toneshaper_vst3_char16 sdk_version[64];
} toneshaper_vst3_class_info_w;

typedef struct toneshaper_vst3_bus_info {
    int32_t media_type;
    int32_t direction;
    int32_t channel_count;
    toneshaper_vst3_char16 name[128];
    int32_t bus_type;
    uint32_t flags;
} toneshaper_vst3_bus_info;

typedef struct toneshaper_vst3_parameter_info {
    toneshaper_vst3_param_id id;
    toneshaper_vst3_char16 title[128];
    toneshaper_vst3_char16 short_title[128];
    toneshaper_vst3_char16 units[128];
    int32_t step_count;
    double default_normalized_value;
    int32_t unit_id;
    int32_t flags;
} toneshaper_vst3_parameter_info;

typedef struct toneshaper_vst3_process_setup {
    int32_t process_mode;
    int32_t symbolic_sample_size;
    int32_t max_samples_per_block;
    double sample_rate;
} toneshaper_vst3_process_setup;

typedef struct toneshaper_vst3_audio_bus_buffers {
    int32_t channel_count;
    uint64_t silence_flags;
    float **channels32;  // a union with double **channels64: 32-bit is all the plugin takes
} toneshaper_vst3_audio_bus_buffers;

typedef struct toneshaper_vst3_process_context {
    uint32_t state;
    double sample_rate;
    int64_t project_time_samples;
    int64_t system_time;
    int64_t continuous_time_samples;
    double project_time_music;  // quarter notes
    double bar_position_music;
    double cycle_start_music;
    double cycle_end_music;
    double tempo;
    int32_t time_sig_numerator;
    int32_t time_sig_denominator;
    uint8_t chord[4];
    int32_t smpte_offset_subframes;
    uint32_t frame_rate[2];
    int32_t samples_to_next_clock;
} toneshaper_vst3_process_context;

struct toneshaper_vst3_parameter_changes;
struct toneshaper_vst3_event_list;

typedef struct toneshaper_vst3_process_data {
    int32_t process_mode;
    int32_t symbolic_sample_size;
    int32_t sample_count;
    int32_t input_count;
    int32_t output_count;
    toneshaper_vst3_audio_bus_buffers *inputs;
    toneshaper_vst3_audio_bus_buffers *outputs;
    struct toneshaper_vst3_parameter_changes *input_parameter_changes;
    struct toneshaper_vst3_parameter_changes *output_parameter_changes;
    struct toneshaper_vst3_event_list *input_events;
    struct toneshaper_vst3_event_list *output_events;
    toneshaper_vst3_process_context *context;
} toneshaper_vst3_process_data;

typedef struct toneshaper_vst3_note_on {
    int16_t channel;
    int16_t pitch;
    float tuning;  // cents
    float velocity;
    int32_t length;
    int32_t note_id;
} toneshaper_vst3_note_on;

typedef struct toneshaper_vst3_note_off {
    int16_t channel;
    int16_t pitch;
    float velocity;
    int32_t note_id;
    float tuning;
} toneshaper_vst3_note_off;

typedef struct toneshaper_vst3_note_expression_value {
    uint32_t type_id;
    int32_t note_id;
    double value;  // normalized 0...1
} toneshaper_vst3_note_expression_value;

/// DataEvent: `size` bytes at `bytes` (valid during process()), of DataTypes `type`.
typedef struct toneshaper_vst3_data_event {
    uint32_t size;
    uint32_t type;
    const uint8_t *bytes;
} toneshaper_vst3_data_event;

typedef struct toneshaper_vst3_event {
    int32_t bus_index;
    int32_t sample_offset;
    double ppq_position;
    uint16_t flags;
    uint16_t type;
    union {
        toneshaper_vst3_note_on note_on;
        toneshaper_vst3_note_off note_off;
        toneshaper_vst3_note_expression_value note_expression_value;
        toneshaper_vst3_data_event data;
        void *largest[3];  // the text expression event (type, id, length, pointer): the union's size
    };
} toneshaper_vst3_event;

typedef struct toneshaper_vst3_unit_info {
    int32_t id;
    int32_t parent_unit_id;
    toneshaper_vst3_char16 name[128];
    int32_t program_list_id;
} toneshaper_vst3_unit_info;

typedef struct toneshaper_vst3_program_list_info {
    int32_t id;
    toneshaper_vst3_char16 name[128];
    int32_t program_count;
} toneshaper_vst3_program_list_info;

typedef struct toneshaper_vst3_note_expression_type_info {
    uint32_t type_id;
    toneshaper_vst3_char16 title[128];
    toneshaper_vst3_char16 short_title[128];
    toneshaper_vst3_char16 units[128];
    int32_t unit_id;
    double default_value;
    double minimum;
    double maximum;
    int32_t step_count;
    int32_t value_padding;  // the value's description is a structure of its own, 32 bytes
    toneshaper_vst3_param_id associated_parameter_id;
    int32_t flags;
} toneshaper_vst3_note_expression_type_info;

typedef struct toneshaper_vst3_view_rect {
    int32_t left;
    int32_t top;
    int32_t right;
    int32_t bottom;
} toneshaper_vst3_view_rect;

// ---- the host's interfaces the plugin calls ---------------------------------------------

typedef struct toneshaper_vst3_stream_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*read)(void *self, void *buffer, int32_t count, int32_t *read);
    toneshaper_vst3_result (*write)(void *self, void *buffer, int32_t count, int32_t *written);
    toneshaper_vst3_result (*seek)(void *self, int64_t position, int32_t mode, int64_t *result);
    toneshaper_vst3_result (*tell)(void *self, int64_t *position);
} toneshaper_vst3_stream_vtable;
typedef struct toneshaper_vst3_stream {
    const toneshaper_vst3_stream_vtable *vtable;
} toneshaper_vst3_stream;

typedef struct toneshaper_vst3_event_list_vtable {
    TONESHAPER_VST3_UNKNOWN
    int32_t (*get_event_count)(void *self);
    toneshaper_vst3_result (*get_event)(void *self, int32_t index, toneshaper_vst3_event *event);
    toneshaper_vst3_result (*add_event)(void *self, toneshaper_vst3_event *event);
} toneshaper_vst3_event_list_vtable;
typedef struct toneshaper_vst3_event_list {
    const toneshaper_vst3_event_list_vtable *vtable;
} toneshaper_vst3_event_list;

typedef struct toneshaper_vst3_param_value_queue_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_param_id (*get_parameter_id)(void *self);
    int32_t (*get_point_count)(void *self);
    toneshaper_vst3_result (*get_point)(void *self, int32_t index, int32_t *sample_offset, double *value);
    toneshaper_vst3_result (*add_point)(void *self, int32_t sample_offset, double value, int32_t *index);
} toneshaper_vst3_param_value_queue_vtable;
typedef struct toneshaper_vst3_param_value_queue {
    const toneshaper_vst3_param_value_queue_vtable *vtable;
} toneshaper_vst3_param_value_queue;

typedef struct toneshaper_vst3_parameter_changes_vtable {
    TONESHAPER_VST3_UNKNOWN
    int32_t (*get_parameter_count)(void *self);
    toneshaper_vst3_param_value_queue *(*get_parameter_data)(void *self, int32_t index);
    toneshaper_vst3_param_value_queue *(*add_parameter_data)(void *self, const toneshaper_vst3_param_id *id, int32_t *index);
} toneshaper_vst3_parameter_changes_vtable;
typedef struct toneshaper_vst3_parameter_changes {
    const toneshaper_vst3_parameter_changes_vtable *vtable;
} toneshaper_vst3_parameter_changes;

typedef struct toneshaper_vst3_component_handler_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*begin_edit)(void *self, toneshaper_vst3_param_id id);
    toneshaper_vst3_result (*perform_edit)(void *self, toneshaper_vst3_param_id id, double normalized);
    toneshaper_vst3_result (*end_edit)(void *self, toneshaper_vst3_param_id id);
    toneshaper_vst3_result (*restart_component)(void *self, int32_t flags);
} toneshaper_vst3_component_handler_vtable;
typedef struct toneshaper_vst3_component_handler {
    const toneshaper_vst3_component_handler_vtable *vtable;
} toneshaper_vst3_component_handler;

typedef struct toneshaper_vst3_plug_frame_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*resize_view)(void *self, void *view, toneshaper_vst3_view_rect *size);
} toneshaper_vst3_plug_frame_vtable;
typedef struct toneshaper_vst3_plug_frame {
    const toneshaper_vst3_plug_frame_vtable *vtable;
} toneshaper_vst3_plug_frame;

/// Linux::IRunLoop: the host's loop runs the editor's timer and watches its X connection.
typedef struct toneshaper_vst3_run_loop_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*register_event_handler)(void *self, void *handler, int fd);
    toneshaper_vst3_result (*unregister_event_handler)(void *self, void *handler);
    toneshaper_vst3_result (*register_timer)(void *self, void *handler, uint64_t milliseconds);
    toneshaper_vst3_result (*unregister_timer)(void *self, void *handler);
} toneshaper_vst3_run_loop_vtable;
typedef struct toneshaper_vst3_run_loop {
    const toneshaper_vst3_run_loop_vtable *vtable;
} toneshaper_vst3_run_loop;

// ---- the plugin's interfaces (tables the Swift shell fills) ---------------------------

typedef struct toneshaper_vst3_component_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*initialize)(void *self, void *context);  // IPluginBase
    toneshaper_vst3_result (*terminate)(void *self);
    toneshaper_vst3_result (*get_controller_class_id)(void *self, uint8_t *class_id);
    toneshaper_vst3_result (*set_io_mode)(void *self, int32_t mode);
    int32_t (*get_bus_count)(void *self, int32_t type, int32_t direction);
    toneshaper_vst3_result (*get_bus_info)(void *self, int32_t type, int32_t direction, int32_t index, toneshaper_vst3_bus_info *bus);
    toneshaper_vst3_result (*get_routing_info)(void *self, void *input, void *output);
    toneshaper_vst3_result (*activate_bus)(void *self, int32_t type, int32_t direction, int32_t index, uint8_t state);
    toneshaper_vst3_result (*set_active)(void *self, uint8_t state);
    toneshaper_vst3_result (*set_state)(void *self, toneshaper_vst3_stream *state);
    toneshaper_vst3_result (*get_state)(void *self, toneshaper_vst3_stream *state);
} toneshaper_vst3_component_vtable;

typedef struct toneshaper_vst3_audio_processor_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*set_bus_arrangements)(void *self, uint64_t *inputs, int32_t input_count, uint64_t *outputs, int32_t output_count);
    toneshaper_vst3_result (*get_bus_arrangement)(void *self, int32_t direction, int32_t index, uint64_t *arrangement);
    toneshaper_vst3_result (*can_process_sample_size)(void *self, int32_t size);
    uint32_t (*get_latency_samples)(void *self);
    toneshaper_vst3_result (*setup_processing)(void *self, toneshaper_vst3_process_setup *setup);
    toneshaper_vst3_result (*set_processing)(void *self, uint8_t state);
    toneshaper_vst3_result (*process)(void *self, toneshaper_vst3_process_data *data);
    uint32_t (*get_tail_samples)(void *self);
} toneshaper_vst3_audio_processor_vtable;

typedef struct toneshaper_vst3_edit_controller_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*initialize)(void *self, void *context);  // IPluginBase
    toneshaper_vst3_result (*terminate)(void *self);
    toneshaper_vst3_result (*set_component_state)(void *self, toneshaper_vst3_stream *state);
    toneshaper_vst3_result (*set_state)(void *self, toneshaper_vst3_stream *state);
    toneshaper_vst3_result (*get_state)(void *self, toneshaper_vst3_stream *state);
    int32_t (*get_parameter_count)(void *self);
    toneshaper_vst3_result (*get_parameter_info)(void *self, int32_t index, toneshaper_vst3_parameter_info *info);
    toneshaper_vst3_result (*get_param_string_by_value)(void *self, toneshaper_vst3_param_id id, double normalized, toneshaper_vst3_char16 *string);
    toneshaper_vst3_result (*get_param_value_by_string)(void *self, toneshaper_vst3_param_id id, toneshaper_vst3_char16 *string, double *normalized);
    double (*normalized_param_to_plain)(void *self, toneshaper_vst3_param_id id, double normalized);
    double (*plain_param_to_normalized)(void *self, toneshaper_vst3_param_id id, double plain);
    double (*get_param_normalized)(void *self, toneshaper_vst3_param_id id);
    toneshaper_vst3_result (*set_param_normalized)(void *self, toneshaper_vst3_param_id id, double normalized);
    toneshaper_vst3_result (*set_component_handler)(void *self, toneshaper_vst3_component_handler *handler);
    void *(*create_view)(void *self, const char *name);
} toneshaper_vst3_edit_controller_vtable;

typedef struct toneshaper_vst3_midi_mapping_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*get_midi_controller_assignment)(void *self, int32_t bus, int16_t channel, int16_t controller,
                                                             toneshaper_vst3_param_id *id);
} toneshaper_vst3_midi_mapping_vtable;

typedef struct toneshaper_vst3_unit_info_vtable {
    TONESHAPER_VST3_UNKNOWN
    int32_t (*get_unit_count)(void *self);
    toneshaper_vst3_result (*get_unit_info)(void *self, int32_t index, toneshaper_vst3_unit_info *info);
    int32_t (*get_program_list_count)(void *self);
    toneshaper_vst3_result (*get_program_list_info)(void *self, int32_t index, toneshaper_vst3_program_list_info *info);
    toneshaper_vst3_result (*get_program_name)(void *self, int32_t list, int32_t index, toneshaper_vst3_char16 *name);
    toneshaper_vst3_result (*get_program_info)(void *self, int32_t list, int32_t index, const char *attribute, toneshaper_vst3_char16 *value);
    toneshaper_vst3_result (*has_program_pitch_names)(void *self, int32_t list, int32_t index);
    toneshaper_vst3_result (*get_program_pitch_name)(void *self, int32_t list, int32_t index, int16_t pitch, toneshaper_vst3_char16 *name);
    int32_t (*get_selected_unit)(void *self);
    toneshaper_vst3_result (*select_unit)(void *self, int32_t unit);
    toneshaper_vst3_result (*get_unit_by_bus)(void *self, int32_t type, int32_t direction, int32_t bus, int32_t channel, int32_t *unit);
    toneshaper_vst3_result (*set_unit_program_data)(void *self, int32_t list_or_unit, int32_t index, toneshaper_vst3_stream *data);
} toneshaper_vst3_unit_info_vtable;

typedef struct toneshaper_vst3_note_expression_controller_vtable {
    TONESHAPER_VST3_UNKNOWN
    int32_t (*get_note_expression_count)(void *self, int32_t bus, int16_t channel);
    toneshaper_vst3_result (*get_note_expression_info)(void *self, int32_t bus, int16_t channel, int32_t index,
                                                       toneshaper_vst3_note_expression_type_info *info);
    toneshaper_vst3_result (*get_note_expression_string_by_value)(void *self, int32_t bus, int16_t channel, uint32_t id, double normalized,
                                                                  toneshaper_vst3_char16 *string);
    toneshaper_vst3_result (*get_note_expression_value_by_string)(void *self, int32_t bus, int16_t channel, uint32_t id,
                                                                  const toneshaper_vst3_char16 *string, double *normalized);
} toneshaper_vst3_note_expression_controller_vtable;

typedef struct toneshaper_vst3_process_context_requirements_vtable {
    TONESHAPER_VST3_UNKNOWN
    uint32_t (*get_process_context_requirements)(void *self);
} toneshaper_vst3_process_context_requirements_vtable;

typedef struct toneshaper_vst3_plug_view_vtable {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*is_platform_type_supported)(void *self, const char *type);
    toneshaper_vst3_result (*attached)(void *self, void *parent, const char *type);
    toneshaper_vst3_result (*removed)(void *self);
    toneshaper_vst3_result (*on_wheel)(void *self, float distance);
    toneshaper_vst3_result (*on_key_down)(void *self, toneshaper_vst3_char16 key, int16_t code, int16_t modifiers);
    toneshaper_vst3_result (*on_key_up)(void *self, toneshaper_vst3_char16 key, int16_t code, int16_t modifiers);
    toneshaper_vst3_result (*get_size)(void *self, toneshaper_vst3_view_rect *size);
    toneshaper_vst3_result (*on_size)(void *self, toneshaper_vst3_view_rect *size);
    toneshaper_vst3_result (*on_focus)(void *self, uint8_t state);
    toneshaper_vst3_result (*set_frame)(void *self, toneshaper_vst3_plug_frame *frame);
    toneshaper_vst3_result (*can_resize)(void *self);
    toneshaper_vst3_result (*check_size_constraint)(void *self, toneshaper_vst3_view_rect *rect);
} toneshaper_vst3_plug_view_vtable;

/// Linux::ITimerHandler and Linux::IEventHandler: one function each, called by the host's loop.
typedef struct toneshaper_vst3_timer_handler_vtable {
    TONESHAPER_VST3_UNKNOWN
    void (*on_timer)(void *self);
} toneshaper_vst3_timer_handler_vtable;

typedef struct toneshaper_vst3_event_handler_vtable {
    TONESHAPER_VST3_UNKNOWN
    void (*on_fd_is_set)(void *self, int fd);
} toneshaper_vst3_event_handler_vtable;

// ---- the layout a host and the plugin must agree on --------------------------------------

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(toneshaper_vst3_factory_info) == 452 && offsetof(toneshaper_vst3_factory_info, flags) == 448, "PFactoryInfo");
_Static_assert(sizeof(toneshaper_vst3_class_info) == 116 && offsetof(toneshaper_vst3_class_info, name) == 52, "PClassInfo");
_Static_assert(sizeof(toneshaper_vst3_class_info2) == 440 && offsetof(toneshaper_vst3_class_info2, subcategories) == 120 &&
                   offsetof(toneshaper_vst3_class_info2, sdk_version) == 376, "PClassInfo2");
_Static_assert(sizeof(toneshaper_vst3_class_info_w) == 696 && offsetof(toneshaper_vst3_class_info_w, class_flags) == 180 &&
                   offsetof(toneshaper_vst3_class_info_w, vendor) == 312, "PClassInfoW");
_Static_assert(sizeof(toneshaper_vst3_bus_info) == 276 && offsetof(toneshaper_vst3_bus_info, bus_type) == 268, "BusInfo");
_Static_assert(sizeof(toneshaper_vst3_parameter_info) == 792 && offsetof(toneshaper_vst3_parameter_info, step_count) == 772 &&
                   offsetof(toneshaper_vst3_parameter_info, default_normalized_value) == 776 && offsetof(toneshaper_vst3_parameter_info, flags) == 788,
               "ParameterInfo");
_Static_assert(sizeof(toneshaper_vst3_process_setup) == 24 && offsetof(toneshaper_vst3_process_setup, sample_rate) == 16, "ProcessSetup");
_Static_assert(sizeof(toneshaper_vst3_audio_bus_buffers) == 24 && offsetof(toneshaper_vst3_audio_bus_buffers, channels32) == 16, "AudioBusBuffers");
_Static_assert(sizeof(toneshaper_vst3_process_context) == 112 && offsetof(toneshaper_vst3_process_context, tempo) == 72 &&
                   offsetof(toneshaper_vst3_process_context, time_sig_denominator) == 84 &&
                   offsetof(toneshaper_vst3_process_context, samples_to_next_clock) == 104,
               "ProcessContext");
_Static_assert(sizeof(toneshaper_vst3_process_data) == 80 && offsetof(toneshaper_vst3_process_data, inputs) == 24 &&
                   offsetof(toneshaper_vst3_process_data, input_events) == 56 && offsetof(toneshaper_vst3_process_data, context) == 72,
               "ProcessData");
_Static_assert(sizeof(toneshaper_vst3_note_on) == 20 && offsetof(toneshaper_vst3_note_on, note_id) == 16, "NoteOnEvent");
_Static_assert(sizeof(toneshaper_vst3_data_event) == 16 && offsetof(toneshaper_vst3_data_event, bytes) == 8, "DataEvent");
_Static_assert(sizeof(toneshaper_vst3_note_off) == 16 && offsetof(toneshaper_vst3_note_off, note_id) == 8, "NoteOffEvent");
_Static_assert(sizeof(toneshaper_vst3_note_expression_value) == 16 && offsetof(toneshaper_vst3_note_expression_value, value) == 8,
               "NoteExpressionValueEvent");
_Static_assert(sizeof(toneshaper_vst3_event) == 48 && offsetof(toneshaper_vst3_event, type) == 18 && offsetof(toneshaper_vst3_event, note_on) == 24,
               "Event");
_Static_assert(sizeof(toneshaper_vst3_unit_info) == 268 && offsetof(toneshaper_vst3_unit_info, program_list_id) == 264, "UnitInfo");
_Static_assert(sizeof(toneshaper_vst3_program_list_info) == 264 && offsetof(toneshaper_vst3_program_list_info, program_count) == 260,
               "ProgramListInfo");
_Static_assert(sizeof(toneshaper_vst3_note_expression_type_info) == 816 && offsetof(toneshaper_vst3_note_expression_type_info, default_value) == 776 &&
                   offsetof(toneshaper_vst3_note_expression_type_info, associated_parameter_id) == 808,
               "NoteExpressionTypeInfo");
_Static_assert(sizeof(toneshaper_vst3_view_rect) == 16, "ViewRect");
_Static_assert(sizeof(toneshaper_vst3_component_vtable) == 14 * 8, "IComponent");
_Static_assert(sizeof(toneshaper_vst3_audio_processor_vtable) == 11 * 8, "IAudioProcessor");
_Static_assert(sizeof(toneshaper_vst3_edit_controller_vtable) == 18 * 8, "IEditController");
_Static_assert(sizeof(toneshaper_vst3_unit_info_vtable) == 15 * 8, "IUnitInfo");
_Static_assert(sizeof(toneshaper_vst3_note_expression_controller_vtable) == 7 * 8, "INoteExpressionController");
_Static_assert(sizeof(toneshaper_vst3_plug_view_vtable) == 15 * 8, "IPlugView");
_Static_assert(sizeof(toneshaper_vst3_run_loop_vtable) == 7 * 8, "Linux::IRunLoop");
#endif

// ---- interface ids, classes, helpers for Embedded Swift -------------------------------

/// The plugin's objects (entry.c keeps their interfaces and reference count; `body` is the
/// Swift shell's): 0 the component, whose slots are 0 IComponent (and FUnknown, IPluginBase),
/// 1 IAudioProcessor, 2 IEditController, 3 IMidiMapping, 4 IUnitInfo, 5 INoteExpressionController,
/// 6 IProcessContextRequirements; 1 the editor view, whose slots are 0 IPlugView (and FUnknown),
/// 1 Linux::ITimerHandler, 2 Linux::IEventHandler. `tables` holds each slot's table; the last
/// release calls `destroy(body)`.
static const int32_t TONESHAPER_VST3_COMPONENT = 0;
static const int32_t TONESHAPER_VST3_VIEW = 1;
/// A new object of `kind`, as its slot 0 with one reference.
void *toneshaper_vst3_make(int32_t kind, void *body, void (*destroy)(void *body), const void *const *tables);
/// The Swift object behind any of an object's interfaces, and the interface in another slot.
void *toneshaper_vst3_body(void *interface);
void *toneshaper_vst3_slot(void *interface, int32_t slot);
/// FUnknown's three functions, the same for every interface of every object.
toneshaper_vst3_result toneshaper_vst3_query(void *self, const uint8_t *iid, void **object);
uint32_t toneshaper_vst3_add_ref(void *self);
uint32_t toneshaper_vst3_release(void *self);

/// The host's interfaces the plugin asks for.
static const int32_t TONESHAPER_VST3_HOST_RUN_LOOP = 0;
const uint8_t *toneshaper_vst3_host_iid(int which);

/// Whether two 16-byte ids are the same.
int toneshaper_vst3_same_id(const uint8_t *a, const uint8_t *b);

/// Writes a line to standard error (VST 3 gives a plugin no log).
static inline void toneshaper_vst3_log(const char *message) { fprintf(stderr, "toneshaper.vst3: %s\n", message); }

/// Asks `frame` (the host's IPlugFrame) to make `view` (an IPlugView) `width` x `height`
/// (resizeView: the host then calls the view's onSize); false without a frame, or refused.
static inline bool toneshaper_vst3_resize_view(toneshaper_vst3_plug_frame *frame, void *view, int32_t width, int32_t height) {
    toneshaper_vst3_view_rect rect = {0, 0, width, height};
    return frame && view && frame->vtable->resize_view && frame->vtable->resize_view(frame, view, &rect) == TONESHAPER_VST3_OK;
}

/// The built-in documents, compiled into the plugin by Scripts/build-vst3.sh (in name order,
/// as the node lists them): their count, and document `index`'s bytes and name.
int toneshaper_vst3_builtin_count(void);
const unsigned char *toneshaper_vst3_builtin(int index, size_t *size, const char **name);

#endif
