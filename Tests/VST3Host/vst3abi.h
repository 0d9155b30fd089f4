// The VST3 ABI as the project's VST3 test host sees it: its own declarations, written from
// Steinberg's documentation of the interfaces (https://steinbergmedia.github.io/vst3_dev_portal,
// the SDK's pluginterfaces reference), only what the host calls or implements. They are kept
// apart from the plugin's own (Sources/ToneShaperVST3) on purpose: the host cross-checks
// them, as a third-party host does. Linux: the plugin ABI is not COM's. A TUID's four 32-bit
// words are stored each big-endian (the SDK's INLINE_UID outside Windows), kNoInterface is
// -1, and every method takes `this` first (the vtable's first three entries are FUnknown's).

#ifndef TONESHAPER_VST3HOST_ABI_H
#define TONESHAPER_VST3HOST_ABI_H

#include <stdint.h>

typedef int32_t v3_result;
typedef uint8_t v3_tuid[16];
typedef uint16_t v3_char16;
typedef v3_char16 v3_string128[128];
typedef uint32_t v3_param_id;
typedef double v3_param_value;
typedef uint64_t v3_speaker_arrangement;
typedef uint8_t v3_bool;

enum {
    V3_NO_INTERFACE = -1,
    V3_OK = 0,
    V3_TRUE = 0,
    V3_FALSE = 1,
    V3_INVALID_ARGUMENT = 2,
    V3_NOT_IMPLEMENTED = 3,
    V3_INTERNAL_ERROR = 4,
    V3_NOT_INITIALIZED = 5,
    V3_OUT_OF_MEMORY = 6,
};

/// A TUID from its four words, each stored big-endian (INLINE_UID, non-COM).
#define V3_UID(a, b, c, d)                                                                                                           \
    {(uint8_t)((a) >> 24), (uint8_t)((a) >> 16), (uint8_t)((a) >> 8), (uint8_t)(a), (uint8_t)((b) >> 24), (uint8_t)((b) >> 16),     \
     (uint8_t)((b) >> 8),  (uint8_t)(b),         (uint8_t)((c) >> 24), (uint8_t)((c) >> 16), (uint8_t)((c) >> 8), (uint8_t)(c),     \
     (uint8_t)((d) >> 24), (uint8_t)((d) >> 16), (uint8_t)((d) >> 8),  (uint8_t)(d)}

// ---- FUnknown: every interface starts with these three ---------------------------------------

#define V3_FUNKNOWN_METHODS                                                                                                          \
    v3_result (*query_interface)(void *self, const v3_tuid iid, void **object);                                                     \
    uint32_t (*add_ref)(void *self);                                                                                                \
    uint32_t (*release)(void *self)

typedef struct {
    V3_FUNKNOWN_METHODS;
} v3_funknown_vtbl;

/// Any interface pointer: a pointer to its vtable pointer.
typedef struct {
    const v3_funknown_vtbl *vtbl;
} v3_object;

// ---- the factory ------------------------------------------------------------------------------

typedef struct {
    char vendor[64];
    char url[256];
    char email[128];
    int32_t flags;
} v3_factory_info;

typedef struct {
    v3_tuid class_id;
    int32_t cardinality;
    char category[32];
    char name[64];
} v3_class_info;

typedef struct {
    v3_tuid class_id;
    int32_t cardinality;
    char category[32];
    char name[64];
    uint32_t class_flags;
    char sub_categories[128];
    char vendor[64];
    char version[64];
    char sdk_version[64];
} v3_class_info2;

typedef struct {
    v3_tuid class_id;
    int32_t cardinality;
    char category[32];
    v3_char16 name[64];
    uint32_t class_flags;
    char sub_categories[128];
    v3_char16 vendor[64];
    v3_char16 version[64];
    v3_char16 sdk_version[64];
} v3_class_info_w;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*get_factory_info)(void *self, v3_factory_info *info);
    int32_t (*count_classes)(void *self);
    v3_result (*get_class_info)(void *self, int32_t index, v3_class_info *info);
    v3_result (*create_instance)(void *self, const char *class_id, const char *iid, void **object);
    // IPluginFactory2
    v3_result (*get_class_info2)(void *self, int32_t index, v3_class_info2 *info);
    // IPluginFactory3
    v3_result (*get_class_info_unicode)(void *self, int32_t index, v3_class_info_w *info);
    v3_result (*set_host_context)(void *self, void *context);
} v3_factory_vtbl;

// ---- the component -------------------------------------------------------------------------------

enum { V3_AUDIO = 0, V3_EVENT = 1 };
enum { V3_INPUT = 0, V3_OUTPUT = 1 };
enum { V3_MAIN_BUS = 0, V3_AUX_BUS = 1 };
enum { V3_DEFAULT_ACTIVE = 1 };

typedef struct {
    int32_t media_type;
    int32_t direction;
    int32_t channel_count;
    v3_string128 name;
    int32_t bus_type;
    uint32_t flags;
} v3_bus_info;

typedef struct {
    int32_t media_type;
    int32_t bus_index;
    int32_t channel;
} v3_routing_info;

typedef struct {
    V3_FUNKNOWN_METHODS;
    // IPluginBase
    v3_result (*initialize)(void *self, void *context);
    v3_result (*terminate)(void *self);
    // IComponent
    v3_result (*get_controller_class_id)(void *self, v3_tuid class_id);
    v3_result (*set_io_mode)(void *self, int32_t mode);
    int32_t (*get_bus_count)(void *self, int32_t media_type, int32_t direction);
    v3_result (*get_bus_info)(void *self, int32_t media_type, int32_t direction, int32_t index, v3_bus_info *info);
    v3_result (*get_routing_info)(void *self, v3_routing_info *input, v3_routing_info *output);
    v3_result (*activate_bus)(void *self, int32_t media_type, int32_t direction, int32_t index, v3_bool state);
    v3_result (*set_active)(void *self, v3_bool state);
    v3_result (*set_state)(void *self, void *stream);
    v3_result (*get_state)(void *self, void *stream);
} v3_component_vtbl;

// ---- the audio processor --------------------------------------------------------------------

enum { V3_REALTIME = 0, V3_PREFETCH = 1, V3_OFFLINE = 2 };
enum { V3_SAMPLE32 = 0, V3_SAMPLE64 = 1 };

#define V3_SPEAKER_L ((v3_speaker_arrangement)1 << 0)
#define V3_SPEAKER_R ((v3_speaker_arrangement)1 << 1)
#define V3_SPEAKER_M ((v3_speaker_arrangement)1 << 19)

typedef struct {
    int32_t process_mode;
    int32_t sample_size;
    int32_t max_block;
    double sample_rate;
} v3_process_setup;

typedef struct {
    int32_t channel_count;
    uint64_t silence_flags;
    union {
        float **channels32;
        double **channels64;
    };
} v3_audio_buffers;

typedef struct {
    int32_t process_mode;
    int32_t sample_size;
    int32_t frames;
    int32_t input_count;
    int32_t output_count;
    v3_audio_buffers *inputs;
    v3_audio_buffers *outputs;
    void *input_params;  // IParameterChanges
    void *output_params; // IParameterChanges
    void *input_events;  // IEventList
    void *output_events; // IEventList
    void *context;       // ProcessContext (none here)
} v3_process_data;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*set_bus_arrangements)(void *self, v3_speaker_arrangement *inputs, int32_t input_count, v3_speaker_arrangement *outputs,
                                      int32_t output_count);
    v3_result (*get_bus_arrangement)(void *self, int32_t direction, int32_t index, v3_speaker_arrangement *arrangement);
    v3_result (*can_process_sample_size)(void *self, int32_t size);
    uint32_t (*get_latency_samples)(void *self);
    v3_result (*setup_processing)(void *self, v3_process_setup *setup);
    v3_result (*set_processing)(void *self, v3_bool state);
    v3_result (*process)(void *self, v3_process_data *data);
    uint32_t (*get_tail_samples)(void *self);
} v3_processor_vtbl;

// ---- the controller -----------------------------------------------------------------------------

enum {
    V3_PARAM_CAN_AUTOMATE = 1 << 0,
    V3_PARAM_READ_ONLY = 1 << 1,
    V3_PARAM_WRAP_AROUND = 1 << 2,
    V3_PARAM_IS_LIST = 1 << 3,
    V3_PARAM_IS_HIDDEN = 1 << 4,
    V3_PARAM_PROGRAM_CHANGE = 1 << 15,
    V3_PARAM_IS_BYPASS = 1 << 16,
};

typedef struct {
    v3_param_id id;
    v3_string128 title;
    v3_string128 short_title;
    v3_string128 units;
    int32_t step_count;
    v3_param_value default_normalized;
    int32_t unit_id;
    int32_t flags;
} v3_param_info;

typedef struct {
    V3_FUNKNOWN_METHODS;
    // IPluginBase
    v3_result (*initialize)(void *self, void *context);
    v3_result (*terminate)(void *self);
    // IEditController
    v3_result (*set_component_state)(void *self, void *stream);
    v3_result (*set_state)(void *self, void *stream);
    v3_result (*get_state)(void *self, void *stream);
    int32_t (*get_parameter_count)(void *self);
    v3_result (*get_parameter_info)(void *self, int32_t index, v3_param_info *info);
    v3_result (*get_param_string_by_value)(void *self, v3_param_id id, v3_param_value normalized, v3_string128 text);
    v3_result (*get_param_value_by_string)(void *self, v3_param_id id, const v3_char16 *text, v3_param_value *normalized);
    v3_param_value (*normalized_param_to_plain)(void *self, v3_param_id id, v3_param_value normalized);
    v3_param_value (*plain_param_to_normalized)(void *self, v3_param_id id, v3_param_value plain);
    v3_param_value (*get_param_normalized)(void *self, v3_param_id id);
    v3_result (*set_param_normalized)(void *self, v3_param_id id, v3_param_value normalized);
    v3_result (*set_component_handler)(void *self, void *handler);
    void *(*create_view)(void *self, const char *name);
} v3_controller_vtbl;

/// MIDI controller numbers beyond the 128 CCs (IMidiMapping's ControllerNumbers).
enum { V3_AFTER_TOUCH = 128, V3_PITCH_BEND = 129, V3_PROGRAM_CHANGE = 130 };

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*get_midi_controller_assignment)(void *self, int32_t bus, int16_t channel, int16_t controller, v3_param_id *id);
} v3_midi_mapping_vtbl;

typedef struct {
    int32_t id;
    int32_t parent_id;
    v3_string128 name;
    int32_t program_list_id;
} v3_unit_info;

typedef struct {
    int32_t id;
    v3_string128 name;
    int32_t program_count;
} v3_program_list_info;

typedef struct {
    V3_FUNKNOWN_METHODS;
    int32_t (*get_unit_count)(void *self);
    v3_result (*get_unit_info)(void *self, int32_t index, v3_unit_info *info);
    int32_t (*get_program_list_count)(void *self);
    v3_result (*get_program_list_info)(void *self, int32_t index, v3_program_list_info *info);
    v3_result (*get_program_name)(void *self, int32_t list, int32_t program, v3_string128 name);
    v3_result (*get_program_info)(void *self, int32_t list, int32_t program, const char *attribute, v3_string128 value);
    v3_result (*has_program_pitch_names)(void *self, int32_t list, int32_t program);
    v3_result (*get_program_pitch_name)(void *self, int32_t list, int32_t program, int16_t pitch, v3_string128 name);
    int32_t (*get_selected_unit)(void *self);
    v3_result (*select_unit)(void *self, int32_t unit);
    v3_result (*get_unit_by_bus)(void *self, int32_t media_type, int32_t direction, int32_t bus, int32_t channel, int32_t *unit);
    v3_result (*set_unit_program_data)(void *self, int32_t list_or_unit, int32_t program, void *stream);
} v3_unit_info_vtbl;

enum { V3_NOTE_EXPRESSION_VOLUME = 0, V3_NOTE_EXPRESSION_PAN = 1, V3_NOTE_EXPRESSION_TUNING = 2 };

typedef struct {
    uint32_t type_id;
    v3_string128 title;
    v3_string128 short_title;
    v3_string128 units;
    int32_t unit_id;
    struct {
        double default_value, minimum, maximum;
        int32_t step_count;
    } value;
    v3_param_id associated_param;
    int32_t flags;
} v3_note_expression_info;

typedef struct {
    V3_FUNKNOWN_METHODS;
    int32_t (*get_note_expression_count)(void *self, int32_t bus, int16_t channel);
    v3_result (*get_note_expression_info)(void *self, int32_t bus, int16_t channel, int32_t index, v3_note_expression_info *info);
    v3_result (*get_note_expression_string_by_value)(void *self, int32_t bus, int16_t channel, uint32_t type, double normalized,
                                                      v3_string128 text);
    v3_result (*get_note_expression_value_by_string)(void *self, int32_t bus, int16_t channel, uint32_t type, const v3_char16 *text,
                                                      double *normalized);
} v3_note_expression_vtbl;

// ---- what the host implements ----------------------------------------------------------------

enum { V3_SEEK_SET = 0, V3_SEEK_CUR = 1, V3_SEEK_END = 2 };

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*read)(void *self, void *buffer, int32_t bytes, int32_t *read);
    v3_result (*write)(void *self, void *buffer, int32_t bytes, int32_t *written);
    v3_result (*seek)(void *self, int64_t position, int32_t mode, int64_t *result);
    v3_result (*tell)(void *self, int64_t *position);
} v3_stream_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_param_id (*get_parameter_id)(void *self);
    int32_t (*get_point_count)(void *self);
    v3_result (*get_point)(void *self, int32_t index, int32_t *offset, v3_param_value *value);
    v3_result (*add_point)(void *self, int32_t offset, v3_param_value value, int32_t *index);
} v3_param_queue_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    int32_t (*get_parameter_count)(void *self);
    void *(*get_parameter_data)(void *self, int32_t index);
    void *(*add_parameter_data)(void *self, const v3_param_id *id, int32_t *index);
} v3_param_changes_vtbl;

enum {
    V3_EVENT_NOTE_ON = 0,
    V3_EVENT_NOTE_OFF = 1,
    V3_EVENT_DATA = 2,
    V3_EVENT_POLY_PRESSURE = 3,
    V3_EVENT_NOTE_EXPRESSION_VALUE = 4,
    V3_EVENT_NOTE_EXPRESSION_TEXT = 5,
    V3_EVENT_CHORD = 6,
    V3_EVENT_SCALE = 7,
};
enum { V3_EVENT_IS_LIVE = 1 << 0 };

typedef struct {
    int32_t bus_index;
    int32_t sample_offset;
    double ppq_position;
    uint16_t flags;
    uint16_t type;
    union {
        struct {
            int16_t channel, pitch;
            float tuning, velocity;
            int32_t length, note_id;
        } note_on;
        struct {
            int16_t channel, pitch;
            float velocity;
            int32_t note_id;
            float tuning;
        } note_off;
        struct {
            uint32_t size, type;
            const uint8_t *bytes;
        } data;
        struct {
            int16_t channel, pitch;
            float pressure;
            int32_t note_id;
        } poly_pressure;
        struct {
            uint32_t type_id;
            int32_t note_id;
            double value;
        } expression;
        struct {
            uint32_t type_id;
            int32_t note_id;
            uint32_t text_length;
            const v3_char16 *text;
        } expression_text;
        uint8_t bytes[24];
    };
} v3_event;

typedef struct {
    V3_FUNKNOWN_METHODS;
    int32_t (*get_event_count)(void *self);
    v3_result (*get_event)(void *self, int32_t index, v3_event *event);
    v3_result (*add_event)(void *self, v3_event *event);
} v3_event_list_vtbl;

enum {
    V3_RESTART_RELOAD_COMPONENT = 1 << 0,
    V3_RESTART_IO_CHANGED = 1 << 1,
    V3_RESTART_PARAM_VALUES_CHANGED = 1 << 2,
    V3_RESTART_LATENCY_CHANGED = 1 << 3,
    V3_RESTART_PARAM_TITLES_CHANGED = 1 << 4,
};

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*begin_edit)(void *self, v3_param_id id);
    v3_result (*perform_edit)(void *self, v3_param_id id, v3_param_value normalized);
    v3_result (*end_edit)(void *self, v3_param_id id);
    v3_result (*restart_component)(void *self, int32_t flags);
} v3_component_handler_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*get_name)(void *self, v3_string128 name);
    v3_result (*create_instance)(void *self, v3_tuid class_id, v3_tuid iid, void **object);
} v3_host_application_vtbl;

// ---- the editor ---------------------------------------------------------------------------------

#define V3_VIEW_TYPE_X11 "X11EmbedWindowID"

typedef struct {
    int32_t left, top, right, bottom;
} v3_view_rect;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*is_platform_type_supported)(void *self, const char *type);
    v3_result (*attached)(void *self, void *parent, const char *type);
    v3_result (*removed)(void *self);
    v3_result (*on_wheel)(void *self, float distance);
    v3_result (*on_key_down)(void *self, v3_char16 key, int16_t code, int16_t modifiers);
    v3_result (*on_key_up)(void *self, v3_char16 key, int16_t code, int16_t modifiers);
    v3_result (*get_size)(void *self, v3_view_rect *rect);
    v3_result (*on_size)(void *self, v3_view_rect *rect);
    v3_result (*on_focus)(void *self, v3_bool state);
    v3_result (*set_frame)(void *self, void *frame);
    v3_result (*can_resize)(void *self);
    v3_result (*check_size_constraint)(void *self, v3_view_rect *rect);
} v3_view_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*resize_view)(void *self, void *view, v3_view_rect *rect);
} v3_frame_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    void (*on_fd_is_set)(void *self, int fd);
} v3_event_handler_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    void (*on_timer)(void *self);
} v3_timer_handler_vtbl;

typedef struct {
    V3_FUNKNOWN_METHODS;
    v3_result (*register_event_handler)(void *self, void *handler, int fd);
    v3_result (*unregister_event_handler)(void *self, void *handler);
    v3_result (*register_timer)(void *self, void *handler, uint64_t milliseconds);
    v3_result (*unregister_timer)(void *self, void *handler);
} v3_run_loop_vtbl;

// ---- interface ids ---------------------------------------------------------------------------------

static const v3_tuid v3_funknown_iid = V3_UID(0x00000000, 0x00000000, 0xC0000000, 0x00000046);
static const v3_tuid v3_plugin_base_iid = V3_UID(0x22888DDB, 0x156E45AE, 0x8358B348, 0x08190625);
static const v3_tuid v3_factory_iid = V3_UID(0x7A4D811C, 0x52114A1F, 0xAED9D2EE, 0x0B43BF9F);
static const v3_tuid v3_factory2_iid = V3_UID(0x0007B650, 0xF24B4C0B, 0xA464EDB9, 0xF00B2ABB);
static const v3_tuid v3_factory3_iid = V3_UID(0x4555A2AB, 0xC1234E57, 0x9B122910, 0x36878931);
static const v3_tuid v3_component_iid = V3_UID(0xE831FF31, 0xF2D54301, 0x928EBBEE, 0x25697802);
static const v3_tuid v3_processor_iid = V3_UID(0x42043F99, 0xB7DA453C, 0xA569E79D, 0x9AAEC33D);
static const v3_tuid v3_controller_iid = V3_UID(0xDCD7BBE3, 0x7742448D, 0xA874AACC, 0x979C759E);
static const v3_tuid v3_midi_mapping_iid = V3_UID(0xDF0FF9F7, 0x49B74669, 0xB63AB732, 0x7ADBF5E5);
static const v3_tuid v3_unit_info_iid = V3_UID(0x3D4BD6B5, 0x913A4FD2, 0xA886E768, 0xA5EB92C1);
static const v3_tuid v3_note_expression_iid = V3_UID(0xB7F8F859, 0x41234872, 0x91169581, 0x4F3721A3);
static const v3_tuid v3_stream_iid = V3_UID(0xC3BF6EA2, 0x30994752, 0x9B6BF990, 0x1EE33E9B);
static const v3_tuid v3_param_queue_iid = V3_UID(0x01263A18, 0xED074F6F, 0x98C9D356, 0x4686F9BA);
static const v3_tuid v3_param_changes_iid = V3_UID(0xA4779663, 0x0BB64A56, 0xB44384A8, 0x466FEB9D);
static const v3_tuid v3_event_list_iid = V3_UID(0x3A2C4214, 0x346349FE, 0xB2C4F397, 0xB9695A44);
static const v3_tuid v3_component_handler_iid = V3_UID(0x93A0BEA3, 0x0BD045DB, 0x8E890B0C, 0xC1E46AC6);
static const v3_tuid v3_host_application_iid = V3_UID(0x58E595CC, 0xDB2D4969, 0x8B6AAF8C, 0x36A664E5);
static const v3_tuid v3_view_iid = V3_UID(0x5BC32507, 0xD06049EA, 0xA6151B52, 0x2B755B29);
static const v3_tuid v3_frame_iid = V3_UID(0x367FAF01, 0xAFA94693, 0x8D4DA2A0, 0xED0882A3);
static const v3_tuid v3_run_loop_iid = V3_UID(0x18C35366, 0x97764F1A, 0x9C5B8385, 0x7A871389);
static const v3_tuid v3_connection_point_iid = V3_UID(0x70A4156F, 0x6E6E4026, 0x989148BF, 0xAA60D8D1);

/// The sizes the documentation gives for x86-64 (checked when this header is compiled).
_Static_assert(sizeof(v3_factory_info) == 452, "PFactoryInfo");
_Static_assert(sizeof(v3_class_info) == 116, "PClassInfo");
_Static_assert(sizeof(v3_class_info2) == 440, "PClassInfo2");
_Static_assert(sizeof(v3_bus_info) == 276, "BusInfo");
_Static_assert(sizeof(v3_param_info) == 792, "ParameterInfo");
_Static_assert(sizeof(v3_process_setup) == 24, "ProcessSetup");
_Static_assert(sizeof(v3_audio_buffers) == 24, "AudioBusBuffers");
_Static_assert(sizeof(v3_process_data) == 80, "ProcessData");
_Static_assert(sizeof(v3_event) == 48, "Event");
_Static_assert(sizeof(v3_unit_info) == 268, "UnitInfo");
_Static_assert(sizeof(v3_program_list_info) == 264, "ProgramListInfo");
_Static_assert(sizeof(v3_note_expression_info) == 816, "NoteExpressionTypeInfo");

#endif
