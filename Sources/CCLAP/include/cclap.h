#ifndef TONESHAPER_CCLAP_H
#define TONESHAPER_CCLAP_H

// The parts of the CLAP ABI this plugin uses, declared here from the CLAP 1.2.x
// specification (its headers are the specification; this file copies none of them), with
// static assertions on the sizes and offsets a host and the plugin must agree on (x86-64 and
// AArch64 Linux, LP64). Then the few C helpers Embedded Swift needs: it imports no C library
// module of its own, and cannot call a variadic function. It is the C target CCLAP
// (Package.swift); Scripts/build-clap.sh maps it as SwiftPM does.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- versions, ids ---------------------------------------------------------------------

typedef struct toneshaper_clap_version {
    uint32_t major;
    uint32_t minor;
    uint32_t revision;
} toneshaper_clap_version;

/// The version this plugin is written against.
#define TONESHAPER_CLAP_MAJOR 1
#define TONESHAPER_CLAP_MINOR 2
#define TONESHAPER_CLAP_REVISION 2

typedef uint32_t toneshaper_clap_id;
#define TONESHAPER_CLAP_INVALID_ID UINT32_MAX
#define TONESHAPER_CLAP_NAME_SIZE 256
#define TONESHAPER_CLAP_PATH_SIZE 1024

// ---- the host ----------------------------------------------------------------------------

typedef struct toneshaper_clap_host {
    toneshaper_clap_version clap_version;
    void *host_data;
    const char *name;
    const char *vendor;
    const char *url;
    const char *version;
    const void *(*get_extension)(const struct toneshaper_clap_host *host, const char *extension_id);
    void (*request_restart)(const struct toneshaper_clap_host *host);
    void (*request_process)(const struct toneshaper_clap_host *host);
    void (*request_callback)(const struct toneshaper_clap_host *host);
} toneshaper_clap_host;

// ---- events ------------------------------------------------------------------------------

typedef struct toneshaper_clap_event_header {
    uint32_t size;      // the whole event's size, header included
    uint32_t time;      // the frame in the block
    uint16_t space_id;  // 0: the core event space
    uint16_t type;
    uint32_t flags;
} toneshaper_clap_event_header;

enum {
    TONESHAPER_CLAP_CORE_EVENT_SPACE = 0,
    TONESHAPER_CLAP_EVENT_NOTE_ON = 0,
    TONESHAPER_CLAP_EVENT_NOTE_OFF = 1,
    TONESHAPER_CLAP_EVENT_NOTE_CHOKE = 2,
    TONESHAPER_CLAP_EVENT_NOTE_END = 3,
    TONESHAPER_CLAP_EVENT_NOTE_EXPRESSION = 4,
    TONESHAPER_CLAP_EVENT_PARAM_VALUE = 5,
    TONESHAPER_CLAP_EVENT_PARAM_MOD = 6,
    TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN = 7,
    TONESHAPER_CLAP_EVENT_PARAM_GESTURE_END = 8,
    TONESHAPER_CLAP_EVENT_TRANSPORT = 9,
    TONESHAPER_CLAP_EVENT_MIDI = 10,
    TONESHAPER_CLAP_EVENT_MIDI_SYSEX = 11,
    TONESHAPER_CLAP_EVENT_MIDI2 = 12,
};

typedef struct toneshaper_clap_event_note {
    toneshaper_clap_event_header header;
    int32_t note_id;  // -1: none
    int16_t port_index;
    int16_t channel;  // 0..15, -1: any
    int16_t key;      // 0..127, -1: any
    double velocity;  // 0..1
} toneshaper_clap_event_note;

enum {
    TONESHAPER_CLAP_NOTE_EXPRESSION_VOLUME = 0,  // linear gain, 0 < x <= 4
    TONESHAPER_CLAP_NOTE_EXPRESSION_PAN = 1,
    TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING = 2,  // semitones, -120..120
    TONESHAPER_CLAP_NOTE_EXPRESSION_VIBRATO = 3,
    TONESHAPER_CLAP_NOTE_EXPRESSION_EXPRESSION = 4,
    TONESHAPER_CLAP_NOTE_EXPRESSION_BRIGHTNESS = 5,
    TONESHAPER_CLAP_NOTE_EXPRESSION_PRESSURE = 6,
};

typedef struct toneshaper_clap_event_note_expression {
    toneshaper_clap_event_header header;
    int32_t expression_id;
    int32_t note_id;
    int16_t port_index;
    int16_t channel;
    int16_t key;
    double value;
} toneshaper_clap_event_note_expression;

typedef struct toneshaper_clap_event_param_value {
    toneshaper_clap_event_header header;
    toneshaper_clap_id param_id;
    void *cookie;
    int32_t note_id;
    int16_t port_index;
    int16_t channel;
    int16_t key;
    double value;
} toneshaper_clap_event_param_value;

/// PARAM_GESTURE_BEGIN and PARAM_GESTURE_END: the user took hold of a parameter, let go of it.
typedef struct toneshaper_clap_event_param_gesture {
    toneshaper_clap_event_header header;
    toneshaper_clap_id param_id;
} toneshaper_clap_event_param_gesture;

typedef struct toneshaper_clap_event_param_mod {
    toneshaper_clap_event_header header;
    toneshaper_clap_id param_id;
    void *cookie;
    int32_t note_id;
    int16_t port_index;
    int16_t channel;
    int16_t key;
    double amount;
} toneshaper_clap_event_param_mod;

enum {
    TONESHAPER_CLAP_TRANSPORT_HAS_TEMPO = 1 << 0,
    TONESHAPER_CLAP_TRANSPORT_HAS_BEATS_TIMELINE = 1 << 1,
    TONESHAPER_CLAP_TRANSPORT_HAS_SECONDS_TIMELINE = 1 << 2,
    TONESHAPER_CLAP_TRANSPORT_HAS_TIME_SIGNATURE = 1 << 3,
    TONESHAPER_CLAP_TRANSPORT_IS_PLAYING = 1 << 4,
    TONESHAPER_CLAP_TRANSPORT_IS_RECORDING = 1 << 5,
    TONESHAPER_CLAP_TRANSPORT_IS_LOOP_ACTIVE = 1 << 6,
    TONESHAPER_CLAP_TRANSPORT_IS_WITHIN_PRE_ROLL = 1 << 7,
};

/// Beat and second times are fixed point, with this factor (2^31).
#define TONESHAPER_CLAP_TIME_FACTOR 2147483648.0

typedef struct toneshaper_clap_event_transport {
    toneshaper_clap_event_header header;
    uint32_t flags;
    int64_t song_pos_beats;    // fixed point
    int64_t song_pos_seconds;  // fixed point
    double tempo;              // beats per minute
    double tempo_inc;          // per sample
    int64_t loop_start_beats;
    int64_t loop_end_beats;
    int64_t loop_start_seconds;
    int64_t loop_end_seconds;
    int64_t bar_start;  // the bar's start, in beats (fixed point)
    int32_t bar_number; // from 0
    uint16_t tsig_num;
    uint16_t tsig_denom;
} toneshaper_clap_event_transport;

typedef struct toneshaper_clap_event_midi {
    toneshaper_clap_event_header header;
    uint16_t port_index;
    uint8_t data[3];
} toneshaper_clap_event_midi;

/// clap_event_midi_sysex_t: a system exclusive message (the MIDI Tuning Standard's), its
/// bytes valid during process().
typedef struct toneshaper_clap_event_midi_sysex {
    toneshaper_clap_event_header header;
    uint16_t port_index;
    const uint8_t *buffer;
    uint32_t size;
} toneshaper_clap_event_midi_sysex;

typedef struct toneshaper_clap_input_events {
    void *ctx;
    uint32_t (*size)(const struct toneshaper_clap_input_events *list);
    const toneshaper_clap_event_header *(*get)(const struct toneshaper_clap_input_events *list, uint32_t index);
} toneshaper_clap_input_events;

typedef struct toneshaper_clap_output_events {
    void *ctx;
    bool (*try_push)(const struct toneshaper_clap_output_events *list, const toneshaper_clap_event_header *event);
} toneshaper_clap_output_events;

// ---- process -----------------------------------------------------------------------------

typedef struct toneshaper_clap_audio_buffer {
    float **data32;
    double **data64;
    uint32_t channel_count;
    uint32_t latency;
    uint64_t constant_mask;
} toneshaper_clap_audio_buffer;

enum {
    TONESHAPER_CLAP_PROCESS_ERROR = 0,
    TONESHAPER_CLAP_PROCESS_CONTINUE = 1,
    TONESHAPER_CLAP_PROCESS_CONTINUE_IF_NOT_QUIET = 2,
    TONESHAPER_CLAP_PROCESS_TAIL = 3,
    TONESHAPER_CLAP_PROCESS_SLEEP = 4,
};

typedef struct toneshaper_clap_process {
    int64_t steady_time;
    uint32_t frames_count;
    const toneshaper_clap_event_transport *transport;
    const toneshaper_clap_audio_buffer *audio_inputs;
    toneshaper_clap_audio_buffer *audio_outputs;
    uint32_t audio_inputs_count;
    uint32_t audio_outputs_count;
    const toneshaper_clap_input_events *in_events;
    const toneshaper_clap_output_events *out_events;
} toneshaper_clap_process;

// ---- the plugin, its descriptor and factory, the entry -----------------------------------

typedef struct toneshaper_clap_plugin_descriptor {
    toneshaper_clap_version clap_version;
    const char *id;
    const char *name;
    const char *vendor;
    const char *url;
    const char *manual_url;
    const char *support_url;
    const char *version;
    const char *description;
    const char *const *features;  // NULL-terminated
} toneshaper_clap_plugin_descriptor;

typedef struct toneshaper_clap_plugin {
    const toneshaper_clap_plugin_descriptor *desc;
    void *plugin_data;
    bool (*init)(const struct toneshaper_clap_plugin *plugin);
    void (*destroy)(const struct toneshaper_clap_plugin *plugin);
    bool (*activate)(const struct toneshaper_clap_plugin *plugin, double sample_rate, uint32_t min_frames_count, uint32_t max_frames_count);
    void (*deactivate)(const struct toneshaper_clap_plugin *plugin);
    bool (*start_processing)(const struct toneshaper_clap_plugin *plugin);
    void (*stop_processing)(const struct toneshaper_clap_plugin *plugin);
    void (*reset)(const struct toneshaper_clap_plugin *plugin);
    int32_t (*process)(const struct toneshaper_clap_plugin *plugin, const toneshaper_clap_process *process);
    const void *(*get_extension)(const struct toneshaper_clap_plugin *plugin, const char *id);
    void (*on_main_thread)(const struct toneshaper_clap_plugin *plugin);
} toneshaper_clap_plugin;

#define TONESHAPER_CLAP_PLUGIN_FACTORY_ID "clap.plugin-factory"

typedef struct toneshaper_clap_plugin_factory {
    uint32_t (*get_plugin_count)(const struct toneshaper_clap_plugin_factory *factory);
    const toneshaper_clap_plugin_descriptor *(*get_plugin_descriptor)(const struct toneshaper_clap_plugin_factory *factory, uint32_t index);
    const toneshaper_clap_plugin *(*create_plugin)(const struct toneshaper_clap_plugin_factory *factory, const toneshaper_clap_host *host,
                                                    const char *plugin_id);
} toneshaper_clap_plugin_factory;

typedef struct toneshaper_clap_plugin_entry {
    toneshaper_clap_version clap_version;
    bool (*init)(const char *plugin_path);
    void (*deinit)(void);
    const void *(*get_factory)(const char *factory_id);
} toneshaper_clap_plugin_entry;

// ---- extensions --------------------------------------------------------------------------

#define TONESHAPER_CLAP_EXT_AUDIO_PORTS "clap.audio-ports"
#define TONESHAPER_CLAP_EXT_NOTE_PORTS "clap.note-ports"
#define TONESHAPER_CLAP_EXT_PARAMS "clap.params"
#define TONESHAPER_CLAP_EXT_STATE "clap.state"
#define TONESHAPER_CLAP_EXT_LATENCY "clap.latency"
#define TONESHAPER_CLAP_EXT_RENDER "clap.render"
#define TONESHAPER_CLAP_EXT_LOG "clap.log"
#define TONESHAPER_CLAP_EXT_NOTE_EXPRESSIONS_NONE ""

#define TONESHAPER_CLAP_AUDIO_PORT_IS_MAIN 1u

typedef struct toneshaper_clap_audio_port_info {
    toneshaper_clap_id id;
    char name[TONESHAPER_CLAP_NAME_SIZE];
    uint32_t flags;
    uint32_t channel_count;
    const char *port_type;  // "mono", "stereo"
    toneshaper_clap_id in_place_pair;
} toneshaper_clap_audio_port_info;

typedef struct toneshaper_clap_plugin_audio_ports {
    uint32_t (*count)(const toneshaper_clap_plugin *plugin, bool is_input);
    bool (*get)(const toneshaper_clap_plugin *plugin, uint32_t index, bool is_input, toneshaper_clap_audio_port_info *info);
} toneshaper_clap_plugin_audio_ports;

enum {
    TONESHAPER_CLAP_NOTE_DIALECT_CLAP = 1 << 0,
    TONESHAPER_CLAP_NOTE_DIALECT_MIDI = 1 << 1,
    TONESHAPER_CLAP_NOTE_DIALECT_MIDI_MPE = 1 << 2,
    TONESHAPER_CLAP_NOTE_DIALECT_MIDI2 = 1 << 3,
};

typedef struct toneshaper_clap_note_port_info {
    toneshaper_clap_id id;
    uint32_t supported_dialects;
    uint32_t preferred_dialect;
    char name[TONESHAPER_CLAP_NAME_SIZE];
} toneshaper_clap_note_port_info;

typedef struct toneshaper_clap_plugin_note_ports {
    uint32_t (*count)(const toneshaper_clap_plugin *plugin, bool is_input);
    bool (*get)(const toneshaper_clap_plugin *plugin, uint32_t index, bool is_input, toneshaper_clap_note_port_info *info);
} toneshaper_clap_plugin_note_ports;

enum {
    TONESHAPER_CLAP_PARAM_IS_STEPPED = 1 << 0,
    TONESHAPER_CLAP_PARAM_IS_PERIODIC = 1 << 1,
    TONESHAPER_CLAP_PARAM_IS_HIDDEN = 1 << 2,
    TONESHAPER_CLAP_PARAM_IS_READONLY = 1 << 3,
    TONESHAPER_CLAP_PARAM_IS_BYPASS = 1 << 4,
    TONESHAPER_CLAP_PARAM_IS_AUTOMATABLE = 1 << 5,
    TONESHAPER_CLAP_PARAM_IS_MODULATABLE = 1 << 10,
    TONESHAPER_CLAP_PARAM_REQUIRES_PROCESS = 1 << 15,
    TONESHAPER_CLAP_PARAM_IS_ENUM = 1 << 16,
};

typedef struct toneshaper_clap_param_info {
    toneshaper_clap_id id;
    uint32_t flags;
    void *cookie;
    char name[TONESHAPER_CLAP_NAME_SIZE];
    char module[TONESHAPER_CLAP_PATH_SIZE];
    double min_value;
    double max_value;
    double default_value;
} toneshaper_clap_param_info;

typedef struct toneshaper_clap_plugin_params {
    uint32_t (*count)(const toneshaper_clap_plugin *plugin);
    bool (*get_info)(const toneshaper_clap_plugin *plugin, uint32_t param_index, toneshaper_clap_param_info *info);
    bool (*get_value)(const toneshaper_clap_plugin *plugin, toneshaper_clap_id param_id, double *value);
    bool (*value_to_text)(const toneshaper_clap_plugin *plugin, toneshaper_clap_id param_id, double value, char *buffer, uint32_t capacity);
    bool (*text_to_value)(const toneshaper_clap_plugin *plugin, toneshaper_clap_id param_id, const char *text, double *value);
    void (*flush)(const toneshaper_clap_plugin *plugin, const toneshaper_clap_input_events *in, const toneshaper_clap_output_events *out);
} toneshaper_clap_plugin_params;

typedef struct toneshaper_clap_ostream {
    void *ctx;
    int64_t (*write)(const struct toneshaper_clap_ostream *stream, const void *buffer, uint64_t size);
} toneshaper_clap_ostream;

typedef struct toneshaper_clap_istream {
    void *ctx;
    int64_t (*read)(const struct toneshaper_clap_istream *stream, void *buffer, uint64_t size);
} toneshaper_clap_istream;

typedef struct toneshaper_clap_plugin_state {
    bool (*save)(const toneshaper_clap_plugin *plugin, const toneshaper_clap_ostream *stream);
    bool (*load)(const toneshaper_clap_plugin *plugin, const toneshaper_clap_istream *stream);
} toneshaper_clap_plugin_state;

typedef struct toneshaper_clap_plugin_latency {
    uint32_t (*get)(const toneshaper_clap_plugin *plugin);
} toneshaper_clap_plugin_latency;

enum { TONESHAPER_CLAP_RENDER_REALTIME = 0, TONESHAPER_CLAP_RENDER_OFFLINE = 1 };

typedef struct toneshaper_clap_plugin_render {
    bool (*has_hard_realtime_requirement)(const toneshaper_clap_plugin *plugin);
    bool (*set)(const toneshaper_clap_plugin *plugin, int32_t mode);
} toneshaper_clap_plugin_render;

enum {
    TONESHAPER_CLAP_LOG_DEBUG = 0,
    TONESHAPER_CLAP_LOG_INFO = 1,
    TONESHAPER_CLAP_LOG_WARNING = 2,
    TONESHAPER_CLAP_LOG_ERROR = 3,
    TONESHAPER_CLAP_LOG_FATAL = 4,
    TONESHAPER_CLAP_LOG_HOST_MISBEHAVING = 5,
    TONESHAPER_CLAP_LOG_PLUGIN_MISBEHAVING = 6,
};

typedef struct toneshaper_clap_host_log {
    void (*log)(const toneshaper_clap_host *host, int32_t severity, const char *message);
} toneshaper_clap_host_log;

typedef struct toneshaper_clap_host_params {
    void (*rescan)(const toneshaper_clap_host *host, uint32_t flags);
    void (*clear)(const toneshaper_clap_host *host, toneshaper_clap_id param_id, uint32_t flags);
    void (*request_flush)(const toneshaper_clap_host *host);
} toneshaper_clap_host_params;

#define TONESHAPER_CLAP_PARAM_RESCAN_VALUES 1u

#define TONESHAPER_CLAP_EXT_PRESET_LOAD "clap.preset-load"
#define TONESHAPER_CLAP_EXT_PRESET_LOAD_COMPAT "clap.preset-load.draft/2"

enum {
    TONESHAPER_CLAP_PRESET_LOCATION_FILE = 0,
    TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN = 1,
};

typedef struct toneshaper_clap_plugin_preset_load {
    bool (*from_location)(const toneshaper_clap_plugin *plugin, uint32_t location_kind, const char *location, const char *load_key);
} toneshaper_clap_plugin_preset_load;

// ---- the editor window: clap.gui, clap.timer-support --------------------------------------

#define TONESHAPER_CLAP_EXT_GUI "clap.gui"
#define TONESHAPER_CLAP_EXT_TIMER_SUPPORT "clap.timer-support"
#define TONESHAPER_CLAP_EXT_POSIX_FD_SUPPORT "clap.posix-fd-support"
/// The one window API the plugin offers: an X11 window embedded in the host's (physical
/// pixels; the host's scale comes through set_scale).
#define TONESHAPER_CLAP_WINDOW_API_X11 "x11"

/// A host's window: the API's name, then its handle (for X11 the window's XID).
typedef struct toneshaper_clap_window {
    const char *api;
    union {
        void *cocoa;
        unsigned long x11;
        void *win32;
        void *ptr;
    };
} toneshaper_clap_window;

typedef struct toneshaper_clap_gui_resize_hints {
    bool can_resize_horizontally;
    bool can_resize_vertically;
    bool preserve_aspect_ratio;
    uint32_t aspect_ratio_width;
    uint32_t aspect_ratio_height;
} toneshaper_clap_gui_resize_hints;

/// The plugin's side of clap.gui (every call on the main thread).
typedef struct toneshaper_clap_plugin_gui {
    bool (*is_api_supported)(const toneshaper_clap_plugin *plugin, const char *api, bool is_floating);
    bool (*get_preferred_api)(const toneshaper_clap_plugin *plugin, const char **api, bool *is_floating);
    bool (*create)(const toneshaper_clap_plugin *plugin, const char *api, bool is_floating);
    void (*destroy)(const toneshaper_clap_plugin *plugin);
    bool (*set_scale)(const toneshaper_clap_plugin *plugin, double scale);
    bool (*get_size)(const toneshaper_clap_plugin *plugin, uint32_t *width, uint32_t *height);
    bool (*can_resize)(const toneshaper_clap_plugin *plugin);
    bool (*get_resize_hints)(const toneshaper_clap_plugin *plugin, toneshaper_clap_gui_resize_hints *hints);
    bool (*adjust_size)(const toneshaper_clap_plugin *plugin, uint32_t *width, uint32_t *height);
    bool (*set_size)(const toneshaper_clap_plugin *plugin, uint32_t width, uint32_t height);
    bool (*set_parent)(const toneshaper_clap_plugin *plugin, const toneshaper_clap_window *window);
    bool (*set_transient)(const toneshaper_clap_plugin *plugin, const toneshaper_clap_window *window);
    void (*suggest_title)(const toneshaper_clap_plugin *plugin, const char *title);
    bool (*show)(const toneshaper_clap_plugin *plugin);
    bool (*hide)(const toneshaper_clap_plugin *plugin);
} toneshaper_clap_plugin_gui;

/// The host's side of clap.gui.
typedef struct toneshaper_clap_host_gui {
    void (*resize_hints_changed)(const toneshaper_clap_host *host);
    bool (*request_resize)(const toneshaper_clap_host *host, uint32_t width, uint32_t height);
    bool (*request_show)(const toneshaper_clap_host *host);
    bool (*request_hide)(const toneshaper_clap_host *host);
    void (*closed)(const toneshaper_clap_host *host, bool was_destroyed);
} toneshaper_clap_host_gui;

/// The plugin's side of clap.timer-support: the host calls on_timer on the main thread.
typedef struct toneshaper_clap_plugin_timer_support {
    void (*on_timer)(const toneshaper_clap_plugin *plugin, toneshaper_clap_id timer_id);
} toneshaper_clap_plugin_timer_support;

/// The host's side: a periodic timer on the main thread, or false when it cannot.
typedef struct toneshaper_clap_host_timer_support {
    bool (*register_timer)(const toneshaper_clap_host *host, uint32_t period_ms, toneshaper_clap_id *timer_id);
    bool (*unregister_timer)(const toneshaper_clap_host *host, toneshaper_clap_id timer_id);
} toneshaper_clap_host_timer_support;

/// What a file descriptor is watched for (clap.posix-fd-support's flags).
enum {
    TONESHAPER_CLAP_POSIX_FD_READ = 1 << 0,
    TONESHAPER_CLAP_POSIX_FD_WRITE = 1 << 1,
    TONESHAPER_CLAP_POSIX_FD_ERROR = 1 << 2,
};

/// The plugin's side of clap.posix-fd-support: the host calls on_fd on the main thread when
/// a registered descriptor is ready.
typedef struct toneshaper_clap_plugin_posix_fd_support {
    void (*on_fd)(const toneshaper_clap_plugin *plugin, int fd, uint32_t flags);
} toneshaper_clap_plugin_posix_fd_support;

typedef struct toneshaper_clap_host_posix_fd_support {
    bool (*register_fd)(const toneshaper_clap_host *host, int fd, uint32_t flags);
    bool (*modify_fd)(const toneshaper_clap_host *host, int fd, uint32_t flags);
    bool (*unregister_fd)(const toneshaper_clap_host *host, int fd);
} toneshaper_clap_host_posix_fd_support;

// ---- preset discovery (a factory of its own) ----------------------------------------------

#define TONESHAPER_CLAP_PRESET_DISCOVERY_FACTORY_ID "clap.preset-discovery-factory/2"
#define TONESHAPER_CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT "clap.preset-discovery-factory/draft-2"

enum {
    TONESHAPER_CLAP_PRESET_IS_FACTORY_CONTENT = 1 << 0,
    TONESHAPER_CLAP_PRESET_IS_USER_CONTENT = 1 << 1,
};

typedef struct toneshaper_clap_universal_plugin_id {
    const char *abi;  // "clap"
    const char *id;
} toneshaper_clap_universal_plugin_id;

typedef struct toneshaper_clap_preset_metadata_receiver {
    void *receiver_data;
    void (*on_error)(const struct toneshaper_clap_preset_metadata_receiver *receiver, int32_t os_error, const char *message);
    bool (*begin_preset)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const char *name, const char *load_key);
    void (*add_plugin_id)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const toneshaper_clap_universal_plugin_id *id);
    void (*set_soundpack_id)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const char *soundpack_id);
    void (*set_flags)(const struct toneshaper_clap_preset_metadata_receiver *receiver, uint32_t flags);
    void (*add_creator)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const char *creator);
    void (*set_description)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const char *description);
    void (*set_timestamps)(const struct toneshaper_clap_preset_metadata_receiver *receiver, uint64_t created, uint64_t modified);
    void (*add_feature)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const char *feature);
    void (*add_extra_info)(const struct toneshaper_clap_preset_metadata_receiver *receiver, const char *key, const char *value);
} toneshaper_clap_preset_metadata_receiver;

typedef struct toneshaper_clap_preset_filetype {
    const char *name;
    const char *description;
    const char *file_extension;  // without the dot
} toneshaper_clap_preset_filetype;

typedef struct toneshaper_clap_preset_location {
    uint32_t flags;
    const char *name;
    uint32_t kind;         // TONESHAPER_CLAP_PRESET_LOCATION_FILE or _PLUGIN
    const char *location;  // a file or folder; NULL for the plugin's own
} toneshaper_clap_preset_location;

typedef struct toneshaper_clap_preset_provider_descriptor {
    toneshaper_clap_version clap_version;
    const char *id;
    const char *name;
    const char *vendor;
} toneshaper_clap_preset_provider_descriptor;

typedef struct toneshaper_clap_preset_provider {
    const toneshaper_clap_preset_provider_descriptor *desc;
    void *provider_data;
    bool (*init)(const struct toneshaper_clap_preset_provider *provider);
    void (*destroy)(const struct toneshaper_clap_preset_provider *provider);
    bool (*get_metadata)(const struct toneshaper_clap_preset_provider *provider, uint32_t location_kind, const char *location,
                         const toneshaper_clap_preset_metadata_receiver *receiver);
    const void *(*get_extension)(const struct toneshaper_clap_preset_provider *provider, const char *id);
} toneshaper_clap_preset_provider;

typedef struct toneshaper_clap_preset_indexer {
    toneshaper_clap_version clap_version;
    const char *name;
    const char *vendor;
    const char *url;
    const char *version;
    void *indexer_data;
    bool (*declare_filetype)(const struct toneshaper_clap_preset_indexer *indexer, const toneshaper_clap_preset_filetype *filetype);
    bool (*declare_location)(const struct toneshaper_clap_preset_indexer *indexer, const toneshaper_clap_preset_location *location);
    bool (*declare_soundpack)(const struct toneshaper_clap_preset_indexer *indexer, const void *soundpack);
    const void *(*get_extension)(const struct toneshaper_clap_preset_indexer *indexer, const char *id);
} toneshaper_clap_preset_indexer;

typedef struct toneshaper_clap_preset_discovery_factory {
    uint32_t (*count)(const struct toneshaper_clap_preset_discovery_factory *factory);
    const toneshaper_clap_preset_provider_descriptor *(*get_descriptor)(const struct toneshaper_clap_preset_discovery_factory *factory,
                                                                        uint32_t index);
    const toneshaper_clap_preset_provider *(*create)(const struct toneshaper_clap_preset_discovery_factory *factory,
                                                     const toneshaper_clap_preset_indexer *indexer, const char *provider_id);
} toneshaper_clap_preset_discovery_factory;

// ---- the layout a host and the plugin must agree on --------------------------------------

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(toneshaper_clap_version) == 12, "clap_version_t");
_Static_assert(sizeof(toneshaper_clap_host) == 88 && offsetof(toneshaper_clap_host, get_extension) == 56, "clap_host_t");
_Static_assert(sizeof(toneshaper_clap_event_header) == 16 && offsetof(toneshaper_clap_event_header, type) == 10, "clap_event_header_t");
_Static_assert(sizeof(toneshaper_clap_event_note) == 40 && offsetof(toneshaper_clap_event_note, key) == 24 &&
                   offsetof(toneshaper_clap_event_note, velocity) == 32, "clap_event_note_t");
_Static_assert(sizeof(toneshaper_clap_event_note_expression) == 40 && offsetof(toneshaper_clap_event_note_expression, key) == 28 &&
                   offsetof(toneshaper_clap_event_note_expression, value) == 32, "clap_event_note_expression_t");
_Static_assert(sizeof(toneshaper_clap_event_param_value) == 56 && offsetof(toneshaper_clap_event_param_value, cookie) == 24 &&
                   offsetof(toneshaper_clap_event_param_value, value) == 48, "clap_event_param_value_t");
_Static_assert(sizeof(toneshaper_clap_event_param_mod) == 56 && offsetof(toneshaper_clap_event_param_mod, amount) == 48, "clap_event_param_mod_t");
_Static_assert(sizeof(toneshaper_clap_event_transport) == 104 && offsetof(toneshaper_clap_event_transport, song_pos_beats) == 24 &&
                   offsetof(toneshaper_clap_event_transport, tempo) == 40 && offsetof(toneshaper_clap_event_transport, bar_start) == 88 &&
                   offsetof(toneshaper_clap_event_transport, bar_number) == 96 && offsetof(toneshaper_clap_event_transport, tsig_denom) == 102,
               "clap_event_transport_t");
_Static_assert(sizeof(toneshaper_clap_event_midi) == 24 && offsetof(toneshaper_clap_event_midi, data) == 18, "clap_event_midi_t");
_Static_assert(sizeof(toneshaper_clap_event_midi_sysex) == 40 && offsetof(toneshaper_clap_event_midi_sysex, buffer) == 24 &&
                   offsetof(toneshaper_clap_event_midi_sysex, size) == 32, "clap_event_midi_sysex_t");
_Static_assert(sizeof(toneshaper_clap_audio_buffer) == 32 && offsetof(toneshaper_clap_audio_buffer, constant_mask) == 24, "clap_audio_buffer_t");
_Static_assert(sizeof(toneshaper_clap_process) == 64 && offsetof(toneshaper_clap_process, audio_outputs_count) == 44 &&
                   offsetof(toneshaper_clap_process, in_events) == 48, "clap_process_t");
_Static_assert(sizeof(toneshaper_clap_plugin_descriptor) == 88 && offsetof(toneshaper_clap_plugin_descriptor, features) == 80,
               "clap_plugin_descriptor_t");
_Static_assert(sizeof(toneshaper_clap_plugin) == 96 && offsetof(toneshaper_clap_plugin, process) == 72, "clap_plugin_t");
_Static_assert(sizeof(toneshaper_clap_plugin_entry) == 40 && offsetof(toneshaper_clap_plugin_entry, init) == 16, "clap_plugin_entry_t");
_Static_assert(sizeof(toneshaper_clap_audio_port_info) == 288 && offsetof(toneshaper_clap_audio_port_info, port_type) == 272,
               "clap_audio_port_info_t");
_Static_assert(sizeof(toneshaper_clap_note_port_info) == 268 && offsetof(toneshaper_clap_note_port_info, name) == 12, "clap_note_port_info_t");
_Static_assert(sizeof(toneshaper_clap_param_info) == 1320 && offsetof(toneshaper_clap_param_info, name) == 16 &&
                   offsetof(toneshaper_clap_param_info, module) == 272 && offsetof(toneshaper_clap_param_info, min_value) == 1296,
               "clap_param_info_t");
_Static_assert(sizeof(toneshaper_clap_preset_metadata_receiver) == 88, "clap_preset_discovery_metadata_receiver_t");
_Static_assert(sizeof(toneshaper_clap_preset_location) == 32 && offsetof(toneshaper_clap_preset_location, kind) == 16,
               "clap_preset_discovery_location_t");
_Static_assert(sizeof(toneshaper_clap_preset_provider_descriptor) == 40, "clap_preset_discovery_provider_descriptor_t");
_Static_assert(sizeof(toneshaper_clap_preset_provider) == 48, "clap_preset_discovery_provider_t");
_Static_assert(sizeof(toneshaper_clap_preset_indexer) == 88 && offsetof(toneshaper_clap_preset_indexer, declare_filetype) == 56,
               "clap_preset_discovery_indexer_t");
_Static_assert(sizeof(toneshaper_clap_event_param_gesture) == 20 && offsetof(toneshaper_clap_event_param_gesture, param_id) == 16,
               "clap_event_param_gesture_t");
_Static_assert(sizeof(toneshaper_clap_window) == 16 && offsetof(toneshaper_clap_window, x11) == 8, "clap_window_t");
_Static_assert(sizeof(toneshaper_clap_gui_resize_hints) == 12 && offsetof(toneshaper_clap_gui_resize_hints, aspect_ratio_width) == 4,
               "clap_gui_resize_hints_t");
_Static_assert(sizeof(toneshaper_clap_plugin_gui) == 120 && offsetof(toneshaper_clap_plugin_gui, set_parent) == 80 &&
                   offsetof(toneshaper_clap_plugin_gui, hide) == 112,
               "clap_plugin_gui_t");
_Static_assert(sizeof(toneshaper_clap_host_gui) == 40 && offsetof(toneshaper_clap_host_gui, closed) == 32, "clap_host_gui_t");
_Static_assert(sizeof(toneshaper_clap_plugin_timer_support) == 8, "clap_plugin_timer_support_t");
_Static_assert(sizeof(toneshaper_clap_plugin_posix_fd_support) == 8, "clap_plugin_posix_fd_support_t");
_Static_assert(sizeof(toneshaper_clap_host_posix_fd_support) == 24 && offsetof(toneshaper_clap_host_posix_fd_support, unregister_fd) == 16,
               "clap_host_posix_fd_support_t");
_Static_assert(sizeof(toneshaper_clap_host_timer_support) == 16 && offsetof(toneshaper_clap_host_timer_support, unregister_timer) == 8,
               "clap_host_timer_support_t");
#endif

// ---- helpers for Embedded Swift ----------------------------------------------------------

/// Writes `message` to the host's log when it has one, else to standard error.
static inline void toneshaper_clap_log(const toneshaper_clap_host *host, const toneshaper_clap_host_log *log, int32_t severity,
                                       const char *message) {
    if (host && log && log->log) log->log(host, severity, message);
    else fprintf(stderr, "toneshaper.clap: %s\n", message);
}

/// Asks the host for a window of `width` x `height` (clap.gui's request_resize: the host then
/// calls set_size, or leaves the size to the plugin); false when it offers no clap.gui or refuses.
static inline bool toneshaper_clap_request_resize(const toneshaper_clap_host *host, uint32_t width, uint32_t height) {
    const toneshaper_clap_host_gui *gui = host && host->get_extension ? host->get_extension(host, TONESHAPER_CLAP_EXT_GUI) : NULL;
    return gui && gui->request_resize && gui->request_resize(host, width, height);
}

/// The plugin's descriptor (entry.c): 0 mono, 1 stereo.
const toneshaper_clap_plugin_descriptor *toneshaper_clap_descriptor(int stereo);

/// The built-in documents, compiled into the plugin by Scripts/build-clap.sh (in name
/// order, as the node lists them): their count, and document `index`'s bytes and name
/// (without ".toneshaper").
/// The host's clap.state: mark_dirty, the plugin's state changed outside a host's edit.
typedef struct toneshaper_clap_host_state {
    void (*mark_dirty)(const toneshaper_clap_host *host);
} toneshaper_clap_host_state;

/// Tells the host the state changed (when it offers clap.state); true, so a shell can chain it.
static inline bool toneshaper_clap_mark_dirty(const toneshaper_clap_host *host) {
    const toneshaper_clap_host_state *state = host->get_extension ? host->get_extension(host, TONESHAPER_CLAP_EXT_STATE) : NULL;
    if (state && state->mark_dirty) state->mark_dirty(host);
    return true;
}

int toneshaper_clap_builtin_count(void);
const unsigned char *toneshaper_clap_builtin(int index, size_t *size, const char **name);

#endif
