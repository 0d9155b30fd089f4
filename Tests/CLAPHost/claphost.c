// The project's own CLAP test host: loads a .clap file (dlopen, clap_entry, the plugin
// factory), makes one or more instances, activates them and processes a script of note,
// MIDI, parameter, modulation, expression and transport events block by block, as a DAW's
// audio thread would, with params flush, state save and load (into the new instance before
// it is activated), preset load, and the main-thread callback. It includes the plugin's own
// CLAP declarations (Sources/CCLAP/include/cclap.h): a third-party host (Qtractor's
// scanner) checks those against its own.
//
//   claphost --clap PATH [--id ID] [--rate 48000] [--block 256] --frames N
//            [--note FRAME:KEY:VEL[:OFFFRAME[:NOTEID]]]... [--midi-note FRAME:KEY:VEL[:OFFFRAME]]...
//            [--param ID=VALUE@FRAME]... [--mod ID=AMOUNT@FRAME]... [--flush ID=VALUE]...
//            [--expression FRAME:KEY:KIND:VALUE]... (KIND tuning or volume; KEY -1: every note)
//            [--expression-id FRAME:NOTEID:KIND:VALUE]... (the note of a --note's NOTEID)
//            [--channel-note FRAME:CHANNEL:KEY:VEL[:NOTEID]]... (a note-on on that channel)
//            [--sysex FRAME:HEX]... (a CLAP_EVENT_MIDI_SYSEX of the bytes HEX, e.g. F07E7F0901F7)
//            [--note-off FRAME:PORT:CHANNEL:KEY:NOTEID]... [--note-choke FRAME:PORT:CHANNEL:KEY:NOTEID]...
//                      (a NOTE_OFF or NOTE_CHOKE as given: -1 is CLAP's wildcard)
//            [--transport PLAYING:SECONDS:BPM@FRAME]... [--process-transport PLAYING:BPM]
//            [--save-state FILE] [--load-state FILE] [--preset-file PATH] [--preset-builtin NAME]
//            [--hostile KIND[@FRAME]]... [--realtime] [--instances 2] [--second-clap PATH]
//            [--out FILE] [--describe] [--bench-runs N [--bench-paced]] [--mpe N]
//            [--program N@FRAME]... [--report-value ID]... (the value params.get_value gives at the end)
//   claphost --clap PATH --list-presets   # the preset-discovery factory's providers, locations, presets
//   claphost --clap PATH --gui [--gui-flush] [--no-fd-support] [--gui-scale S] [--save-state FILE] ...
//   claphost --clap PATH --frames N [--gui-hostile] [--gui-reopen N] [--gui-parent-gone] [--gui-scale S]
//
// --bench-runs N times process() (CLOCK_MONOTONIC around each call, the first instance)
// for N blocks after one second of blocks, untimed; --bench-paced starts each block at its
// time (one a period, as an audio thread), not back to back. --mpe N sends, in every
// block from the second on, a tuning expression to each of the keys 36...36+N-1, moving
// (as an MPE controller's pitch does).
//
// --gui: the editor window (clap.gui, x11, embedded in a window of the host's) kept open
// while the plugin plays in real time, block by block, the editor's timers and its X
// connection's descriptor served between blocks, until standard input says "quit" or ends.
// Commands on standard input, one a line, each acknowledged by a report line:
//   preset NAME      a built-in preset loaded on the main thread   -> gui_preset_loaded: 1 (or 0)
//   param ID=VALUE   the parameter set in the next block (a PARAM_VALUE event)
//                                                                  -> param_sent: ID VALUE (once processed)
//   ticks N          the editor's timers called N more times       -> ticked: N
//   save FILE        the state saved into FILE now                 -> state_saved: FILE
//   quit             the window destroyed, the final report, the state saved (--save-state)
// and reports of its own: gui_shown: WxH once the window is made, embedded and shown;
// gui_resized: WxH each time the plugin's request_resize is answered (the host's window
// resized, then set_size), gui_resizes: N at the end;
// state_dirty: 1 when the plugin calls clap.state's mark_dirty;
// out_value: ID VALUE for each value the plugin sends the host, out_gesture: begin ID /
// end ID for its gestures. Standard output is line-buffered there. --gui-flush calls
// params.flush between blocks when the plugin asks; --no-fd-support offers no
// clap.posix-fd-support. --gui-hostile, --gui-reopen N and --gui-parent-gone are checks of
// the window's life run before the blocks (calls out of turn; N windows made and destroyed;
// the host's window destroyed under the editor's).
//
// An X error on the host's own connection is reported ("x_error: CODE on REQUEST") and the
// host carries on; a lost X connection is reported ("x_error: the X connection is lost") and
// the host exits with status 4.
//
// Offline render mode (clap.render) unless --realtime (or --gui): the plugin then gives each
// block's plans before the next block, so runs are repeatable to the sample.
//
// The report on standard output, one "key: value" a line: frames, peak, nonfinite,
// out_of_range, first_sound (first |x| > 1e-4), first_nonzero, log_messages, log_errors,
// stereo_differ, instances_differ, state_bytes, main_callbacks, rescans, out_events (the
// plugin's output events, and a note_end line for each note end); --describe adds each
// parameter and whether value_to_text and text_to_value read each other back. Exit status:
// 0 ok, 2 the output had a non-finite or out-of-range sample or instances differ, 3 the
// plugin refused something the host asked (init, activate, a state the test expects to
// load), 4 the X connection was lost, 1 a usage or load error.

#include "../../Sources/CCLAP/include/cclap.h"

#include <X11/Xlib.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <unistd.h>
#include <pthread.h>
#include <time.h>

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "claphost: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

// ---- the host's side -------------------------------------------------------------------

static atomic_int log_messages, log_errors, main_callbacks_requested, rescans;

static void host_log(const toneshaper_clap_host *host, int32_t severity, const char *message) {
    (void)host;
    atomic_fetch_add(&log_messages, 1);
    if (severity >= TONESHAPER_CLAP_LOG_ERROR) atomic_fetch_add(&log_errors, 1);
    fprintf(stderr, "[log %d] %s\n", severity, message);
}

static const toneshaper_clap_host_log log_extension = {host_log};

static void params_rescan(const toneshaper_clap_host *host, uint32_t flags) {
    (void)host;
    (void)flags;
    atomic_fetch_add(&rescans, 1);
}
static void params_clear(const toneshaper_clap_host *host, toneshaper_clap_id id, uint32_t flags) {
    (void)host;
    (void)id;
    (void)flags;
}
static atomic_int flush_requests;
static long gui_flushes, out_in_process;
static int in_process;
static void params_request_flush(const toneshaper_clap_host *host) {
    (void)host;
    atomic_fetch_add(&flush_requests, 1);
}
static const toneshaper_clap_host_params params_extension = {params_rescan, params_clear, params_request_flush};

// clap.timer-support: timers the main loop calls (on_timer) when due.
typedef struct {
    toneshaper_clap_id id;
    uint32_t period_ms;
    double due;
    int live;
} Timer;
static Timer timers[8];
static int timers_live, timers_registered;
/// How many times the editor's timers have been called (the window's chances to redraw).
static long timer_calls;
static toneshaper_clap_id next_timer_id = 100;

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static bool timer_register(const toneshaper_clap_host *host, uint32_t period_ms, toneshaper_clap_id *id) {
    (void)host;
    if (!id || period_ms == 0) return false;
    for (int t = 0; t < 8; t++) {
        if (timers[t].live) continue;
        timers[t] = (Timer){next_timer_id++, period_ms, monotonic() + period_ms / 1000.0, 1};
        *id = timers[t].id;
        timers_live++;
        timers_registered++;
        return true;
    }
    return false;
}
static bool timer_unregister(const toneshaper_clap_host *host, toneshaper_clap_id id) {
    (void)host;
    for (int t = 0; t < 8; t++) {
        if (!timers[t].live || timers[t].id != id) continue;
        timers[t].live = 0;
        timers_live--;
        return true;
    }
    return false;
}
static const toneshaper_clap_host_timer_support timer_extension = {timer_register, timer_unregister};

// clap.posix-fd-support: descriptors the main loop polls (without waiting) and reports ready
// with on_fd. --no-fd-support leaves it out, so the plugin has its timer alone.
static int watched_fds[8], watched_count, fds_registered, fd_calls, offer_fds = 1;

static bool fd_register(const toneshaper_clap_host *host, int fd, uint32_t flags) {
    (void)host;
    if (fd < 0 || watched_count == 8 || !(flags & TONESHAPER_CLAP_POSIX_FD_READ)) return false;
    for (int k = 0; k < watched_count; k++)
        if (watched_fds[k] == fd) return false;
    watched_fds[watched_count++] = fd;
    fds_registered++;
    return true;
}
static bool fd_modify(const toneshaper_clap_host *host, int fd, uint32_t flags) {
    (void)host;
    (void)fd;
    (void)flags;
    return false;
}
static bool fd_unregister(const toneshaper_clap_host *host, int fd) {
    (void)host;
    for (int k = 0; k < watched_count; k++) {
        if (watched_fds[k] != fd) continue;
        watched_fds[k] = watched_fds[--watched_count];
        return true;
    }
    return false;
}
static const toneshaper_clap_host_posix_fd_support fd_extension = {fd_register, fd_modify, fd_unregister};

// clap.gui, the host's side: request_resize answered as a DAW's plugin window does (its own
// X window resized to the size asked for, then the plugin's set_size), reported as
// "gui_resized: WxH" (or "gui_resize_refused: WxH" when set_size refused it). Defined with
// the editor window below.
static bool gui_request_resize(const toneshaper_clap_host *host, uint32_t width, uint32_t height);
static void gui_hints_changed(const toneshaper_clap_host *host) { (void)host; }
static bool gui_request_show(const toneshaper_clap_host *host) {
    (void)host;
    return false;
}
static bool gui_request_hide(const toneshaper_clap_host *host) {
    (void)host;
    return false;
}
static void gui_closed(const toneshaper_clap_host *host, bool was_destroyed) {
    (void)host;
    (void)was_destroyed;
}
static const toneshaper_clap_host_gui gui_extension = {gui_hints_changed, gui_request_resize, gui_request_show, gui_request_hide, gui_closed};

// clap.state: the plugin says its state changed (a shape opened in its window).
static void state_mark_dirty(const toneshaper_clap_host *host) {
    (void)host;
    printf("state_dirty: 1\n");
    fflush(stdout);
}
static const toneshaper_clap_host_state state_extension = {state_mark_dirty};

static const void *host_extension(const toneshaper_clap_host *host, const char *id) {
    (void)host;
    if (strcmp(id, TONESHAPER_CLAP_EXT_GUI) == 0) return &gui_extension;
    if (strcmp(id, TONESHAPER_CLAP_EXT_STATE) == 0) return &state_extension;
    if (strcmp(id, TONESHAPER_CLAP_EXT_LOG) == 0) return &log_extension;
    if (strcmp(id, TONESHAPER_CLAP_EXT_PARAMS) == 0) return &params_extension;
    if (strcmp(id, TONESHAPER_CLAP_EXT_TIMER_SUPPORT) == 0) return &timer_extension;
    if (strcmp(id, TONESHAPER_CLAP_EXT_POSIX_FD_SUPPORT) == 0 && offer_fds) return &fd_extension;
    return NULL;
}
static void host_request_restart(const toneshaper_clap_host *host) { (void)host; }
static void host_request_process(const toneshaper_clap_host *host) { (void)host; }
static void host_request_callback(const toneshaper_clap_host *host) {
    (void)host;
    atomic_fetch_add(&main_callbacks_requested, 1);
}

static const toneshaper_clap_host host = {
    {TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION},
    NULL, "claphost", "ToneShaper tests", "", "1.0", host_extension, host_request_restart, host_request_process, host_request_callback};

// ---- event lists -------------------------------------------------------------------------

typedef struct {
    union {
        toneshaper_clap_event_header header;
        toneshaper_clap_event_note note;
        toneshaper_clap_event_note_expression expression;
        toneshaper_clap_event_param_value value;
        toneshaper_clap_event_param_mod mod;
        toneshaper_clap_event_transport transport;
        toneshaper_clap_event_midi midi;
        toneshaper_clap_event_midi_sysex sysex;
        unsigned char bytes[128];
    };
} Event;

typedef struct {
    Event *events;
    uint32_t count, capacity;
} EventList;

static uint32_t list_size(const toneshaper_clap_input_events *list) { return ((EventList *)list->ctx)->count; }
static const toneshaper_clap_event_header *list_get(const toneshaper_clap_input_events *list, uint32_t index) {
    EventList *events = list->ctx;
    return index < events->count ? &events->events[index].header : NULL;
}
// The plugin's output events. Parameter values, and the gestures around them, are checked
// as they come: a value of a parameter with no gesture open, or an end with no begin, is
// counted. The first instance's note ends are printed, one
// "note_end: FRAME NOTE_ID PORT CHANNEL KEY" line each (FRAME from the run's start, the list's
// context: an OutputContext, or NULL outside process()). Every event is counted in out_events.
typedef struct OutputContext {
    long start;
    int instance;
} OutputContext;

static long output_events;
static long out_values, out_begins, out_ends, out_outside, out_unmatched;
/// --gui: each value and gesture the plugin sends is reported as it comes (out_value,
/// out_gesture lines), so a test knows an edit reached the host.
static int live_reports;
static int gesture_open[64];
static double out_last[64];
static int out_has_last[64];

static bool list_push(const toneshaper_clap_output_events *list, const toneshaper_clap_event_header *event) {
    const OutputContext *context = list->ctx;
    if (!event) return false;
    output_events++;
    if (event->space_id != TONESHAPER_CLAP_CORE_EVENT_SPACE) return true;
    if (in_process) out_in_process++;
    if (event->type == TONESHAPER_CLAP_EVENT_NOTE_END) {
        if (event->size < sizeof(toneshaper_clap_event_note)) return false;
        const toneshaper_clap_event_note *note = (const toneshaper_clap_event_note *)event;
        if (context && context->instance == 0)
            printf("note_end: %ld %d %d %d %d\n", context->start + (long)event->time, note->note_id, note->port_index, note->channel, note->key);
    } else if (event->type == TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN || event->type == TONESHAPER_CLAP_EVENT_PARAM_GESTURE_END) {
        if (event->size < sizeof(toneshaper_clap_event_param_gesture)) return false;
        uint32_t id = ((const toneshaper_clap_event_param_gesture *)event)->param_id;
        if (live_reports) printf("out_gesture: %s %u\n", event->type == TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN ? "begin" : "end", id);
        if (event->type == TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN) {
            out_begins++;
            if (id < 64) gesture_open[id]++;
        } else {
            out_ends++;
            if (id < 64 && gesture_open[id] > 0) gesture_open[id]--;
            else out_unmatched++;
        }
    } else if (event->type == TONESHAPER_CLAP_EVENT_PARAM_VALUE) {
        if (event->size < sizeof(toneshaper_clap_event_param_value)) return false;
        const toneshaper_clap_event_param_value *value = (const toneshaper_clap_event_param_value *)event;
        out_values++;
        if (live_reports) printf("out_value: %u %.9g\n", value->param_id, value->value);
        if (value->param_id >= 64 || gesture_open[value->param_id] == 0) out_outside++;
        if (value->param_id < 64) {
            out_last[value->param_id] = value->value;
            out_has_last[value->param_id] = 1;
        }
    }
    return true;
}

static Event *list_add(EventList *list) {
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 64;
        list->events = realloc(list->events, list->capacity * sizeof(Event));
    }
    Event *event = &list->events[list->count++];
    memset(event, 0, sizeof *event);
    return event;
}

// ---- the script ----------------------------------------------------------------------------

typedef enum { NOTE_ON, NOTE_OFF, MIDI, PARAM, MOD, EXPRESSION, TRANSPORT, HOSTILE, SYSEX } Kind;

typedef struct {
    Kind kind;
    long frame;
    int key, note_id, expression;
    int port, channel, choke; // notes: the port and channel (0 unless given); a NOTE_OFF that chokes
    double value, seconds, tempo;
    uint32_t id;
    unsigned char midi[3];
    char hostile[64];
    unsigned char *sysex; // SYSEX: its bytes (kept to the end), and how many
    uint32_t sysex_size;
} Step;

static Step steps[4096];
static int step_count;

static Step *add_step(Kind kind, long frame) {
    if (step_count == 4096) die("too many steps");
    Step *step = &steps[step_count++];
    memset(step, 0, sizeof *step);
    step->kind = kind;
    step->frame = frame;
    return step;
}

static void header(Event *event, uint16_t type, uint32_t size, uint32_t time) {
    event->header.size = size;
    event->header.time = time;
    event->header.space_id = TONESHAPER_CLAP_CORE_EVENT_SPACE;
    event->header.type = type;
}

/// The hostile events of `kind` at `time` in a block of `frames`: each must be refused and
/// change nothing.
static void add_hostile(EventList *list, const char *kind, uint32_t time, uint32_t frames) {
    Event *e;
    if (strcmp(kind, "past-block") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_VALUE, sizeof e->value, frames);
        e->value.param_id = 6;
        e->value.value = 0.9;
    } else if (strcmp(kind, "out-of-order") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_GESTURE_BEGIN, 24, time + 10);
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_VALUE, sizeof e->value, time);
        e->value.param_id = 6;
        e->value.value = 0.9;
    } else if (strcmp(kind, "unknown-type") == 0) {
        e = list_add(list);
        header(e, 99, 24, time);
    } else if (strcmp(kind, "too-short") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_NOTE_ON, 16, time);
    } else if (strcmp(kind, "unknown-param") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_VALUE, sizeof e->value, time);
        e->value.param_id = 999;
        e->value.value = 0.5;
    } else if (strcmp(kind, "nan-param") == 0 || strcmp(kind, "inf-param") == 0 || strcmp(kind, "range-param") == 0 ||
               strcmp(kind, "range-stepped") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_VALUE, sizeof e->value, time);
        e->value.param_id = kind[0] == 'r' && kind[6] == 's' ? 2 : 6;
        e->value.value = kind[0] == 'n' ? NAN : kind[0] == 'i' ? INFINITY : kind[6] == 's' ? 17 : 5;
    } else if (strcmp(kind, "nan-mod") == 0 || strcmp(kind, "mod-not-modulatable") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_MOD, sizeof e->mod, time);
        e->mod.param_id = kind[0] == 'n' ? 6 : 2;
        e->mod.amount = kind[0] == 'n' ? NAN : 1;
    } else if (strcmp(kind, "midi-data-high") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_MIDI, sizeof e->midi, time);
        e->midi.data[0] = 0x90;
        e->midi.data[1] = 0xC5;
        e->midi.data[2] = 100;
    } else if (strcmp(kind, "note-bad-key") == 0 || strcmp(kind, "note-bad-velocity") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_NOTE_ON, sizeof e->note, time);
        e->note.note_id = -1;
        e->note.channel = 0;
        e->note.key = kind[5] == 'b' && kind[9] == 'k' ? 200 : 69;
        e->note.velocity = kind[9] == 'k' ? 0.8 : NAN;
    } else if (strcmp(kind, "expression-nan") == 0 || strcmp(kind, "expression-range") == 0) {
        e = list_add(list);
        header(e, TONESHAPER_CLAP_EVENT_NOTE_EXPRESSION, sizeof e->expression, time);
        e->expression.expression_id = TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING;
        e->expression.note_id = -1;
        e->expression.key = -1;
        e->expression.channel = -1;
        e->expression.value = kind[11] == 'n' ? NAN : 500;
    } else if (strncmp(kind, "random:", 7) == 0) {
        // Random bytes in events of random types: nothing may crash.
        unsigned seed = (unsigned)atoi(kind + 7) * 2654435761u + time;
        for (int i = 0; i < 8; i++) {
            e = list_add(list);
            for (size_t b = 0; b < sizeof e->bytes; b++) {
                seed = seed * 1103515245u + 12345u;
                e->bytes[b] = (unsigned char)(seed >> 16);
            }
            seed = seed * 1103515245u + 12345u;
            uint16_t type = (uint16_t)((seed >> 16) % 14);
            uint32_t sizes[] = {40, 40, 40, 40, 40, 56, 56, 24, 24, 104, 24, 32, 32};
            header(e, type, type < 13 ? sizes[type] : 16, time);
        }
    } else {
        die("unknown --hostile kind %s", kind);
    }
}

// ---- streams -------------------------------------------------------------------------------

typedef struct {
    unsigned char *bytes;
    size_t size, capacity, read;
} Buffer;

static int64_t stream_write(const toneshaper_clap_ostream *stream, const void *data, uint64_t size) {
    Buffer *buffer = stream->ctx;
    if (buffer->size + size > buffer->capacity) {
        buffer->capacity = (buffer->size + size) * 2;
        buffer->bytes = realloc(buffer->bytes, buffer->capacity);
    }
    memcpy(buffer->bytes + buffer->size, data, size);
    buffer->size += size;
    return (int64_t)size;
}

/// Reads in pieces of at most 7 bytes: a plugin must read until the stream ends.
static int64_t stream_read(const toneshaper_clap_istream *stream, void *data, uint64_t size) {
    Buffer *buffer = stream->ctx;
    size_t left = buffer->size - buffer->read;
    size_t n = left < size ? left : size;
    if (n > 7) n = 7;
    memcpy(data, buffer->bytes + buffer->read, n);
    buffer->read += n;
    return (int64_t)n;
}

static Buffer read_whole(const char *path) {
    Buffer buffer = {0};
    FILE *file = fopen(path, "rb");
    if (!file) die("cannot read %s", path);
    fseek(file, 0, SEEK_END);
    buffer.size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    buffer.bytes = malloc(buffer.size + 1);
    if (fread(buffer.bytes, 1, buffer.size, file) != buffer.size) die("cannot read %s", path);
    fclose(file);
    return buffer;
}

// ---- instances -----------------------------------------------------------------------------

typedef struct {
    const toneshaper_clap_plugin *plugin;
    const toneshaper_clap_plugin_params *params;
    const toneshaper_clap_plugin_state *state;
    float *channels[2];
    void *library;
} Instance;

static const toneshaper_clap_plugin_entry *load_entry(const char *path, void **library) {
    *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!*library) die("dlopen %s: %s", path, dlerror());
    const toneshaper_clap_plugin_entry *entry = dlsym(*library, "clap_entry");
    if (!entry) die("%s has no clap_entry", path);
    if (entry->clap_version.major != 1) die("%s is CLAP %u, not 1", path, entry->clap_version.major);
    if (!entry->init(path)) die("clap_entry.init refused");
    return entry;
}

static Instance make_instance(const char *path, const char *id) {
    Instance instance = {0};
    const toneshaper_clap_plugin_entry *entry = load_entry(path, &instance.library);
    const toneshaper_clap_plugin_factory *factory = entry->get_factory(TONESHAPER_CLAP_PLUGIN_FACTORY_ID);
    if (!factory) die("no plugin factory");
    instance.plugin = factory->create_plugin(factory, &host, id);
    if (!instance.plugin) die("the factory made no %s", id);
    if (!instance.plugin->init(instance.plugin)) {
        printf("init: refused\n");
        exit(3);
    }
    instance.params = instance.plugin->get_extension(instance.plugin, TONESHAPER_CLAP_EXT_PARAMS);
    instance.state = instance.plugin->get_extension(instance.plugin, TONESHAPER_CLAP_EXT_STATE);
    if (!instance.params || !instance.state) die("no params or state extension");
    return instance;
}

/// Every parameter: its info, and whether text and value read each other back.
static void describe(Instance *instance) {
    uint32_t count = instance->params->count(instance->plugin);
    int mismatches = 0;
    printf("params: %u\n", count);
    for (uint32_t i = 0; i < count; i++) {
        toneshaper_clap_param_info info;
        memset(&info, 0, sizeof info);
        if (!instance->params->get_info(instance->plugin, i, &info)) die("get_info %u refused", i);
        double value = 0;
        instance->params->get_value(instance->plugin, info.id, &value);
        printf("param: %u \"%s\" %g..%g default %g value %g flags 0x%x", info.id, info.name, info.min_value, info.max_value,
               info.default_value, value, info.flags);
        // Each whole value of a stepped parameter (at most 20), or 5 points of a real one.
        int stepped = info.flags & TONESHAPER_CLAP_PARAM_IS_STEPPED;
        int points = stepped ? (int)fmin(info.max_value - info.min_value, 19) + 1 : 5;
        for (int p = 0; p < points; p++) {
            double v = stepped ? info.min_value + p : info.min_value + (info.max_value - info.min_value) * p / 4.0;
            char text[256];
            double back = NAN;
            if (!instance->params->value_to_text(instance->plugin, info.id, v, text, sizeof text) ||
                !instance->params->text_to_value(instance->plugin, info.id, text, &back) || fabs(back - v) > 1e-2 * fmax(1, fabs(v))) {
                mismatches++;
                printf(" [%g -> \"%s\" -> %g]", v, text, back);
            } else if (p < 3) {
                printf(" \"%s\"", text);
            }
        }
        printf(" module \"%s\"\n", info.module);
    }
    printf("text_mismatches: %d\n", mismatches);
    const toneshaper_clap_plugin_latency *latency = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_LATENCY);
    printf("latency: %d\n", latency ? (int)latency->get(instance->plugin) : -1);
    const toneshaper_clap_plugin_note_ports *notes = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_NOTE_PORTS);
    toneshaper_clap_note_port_info note_port;
    if (notes && notes->count(instance->plugin, true) == 1 && notes->count(instance->plugin, false) == 0 &&
        notes->get(instance->plugin, 0, true, &note_port))
        printf("note_port: %s dialects 0x%x preferred 0x%x\n", note_port.name, note_port.supported_dialects, note_port.preferred_dialect);
    const toneshaper_clap_plugin_audio_ports *audio = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_AUDIO_PORTS);
    toneshaper_clap_audio_port_info audio_port;
    if (audio && audio->count(instance->plugin, true) == 0 && audio->get(instance->plugin, 0, false, &audio_port))
        printf("audio_port: %s %u %s main %u\n", audio_port.name, audio_port.channel_count, audio_port.port_type,
               audio_port.flags & TONESHAPER_CLAP_AUDIO_PORT_IS_MAIN);
    const toneshaper_clap_plugin_descriptor *desc = instance->plugin->desc;
    printf("descriptor: %s \"%s\" features", desc->id, desc->name);
    for (const char *const *f = desc->features; f && *f; f++) printf(" %s", *f);
    printf("\n");
}

static void load_state(Instance *instance, Buffer buffer, int must) {
    buffer.read = 0;
    toneshaper_clap_istream stream = {&buffer, stream_read};
    bool loaded = instance->state->load(instance->plugin, &stream);
    printf("state_loaded: %d\n", loaded);
    if (must && !loaded) exit(3);
}

// ---- the editor window (--gui) ------------------------------------------------------------

// A top-level X window of the host's own, as a DAW's plugin window, in which the plugin's
// editor is embedded (clap.gui, "x11", not floating); the host's timers drive it.
static Display *gui_display;
static Window gui_parent;
static const toneshaper_clap_plugin_gui *gui;
static const toneshaper_clap_plugin_timer_support *gui_timers;
static const toneshaper_clap_plugin_posix_fd_support *gui_fds;
/// The plugin whose window is open (request_resize answers it), NULL while none is.
static const toneshaper_clap_plugin *gui_plugin;
static long gui_resizes;

static bool gui_request_resize(const toneshaper_clap_host *host, uint32_t width, uint32_t height) {
    (void)host;
    if (!gui_plugin || !gui_display || width == 0 || height == 0) return false;
    XResizeWindow(gui_display, gui_parent, width, height);
    XFlush(gui_display);
    if (!gui->set_size(gui_plugin, width, height)) {
        printf("gui_resize_refused: %ux%u\n", width, height);
        fflush(stdout);
        return false;
    }
    gui_resizes++;
    printf("gui_resized: %ux%u\n", width, height);
    fflush(stdout);
    return true;
}

/// The file descriptors this process has open (the X connections a window leaves behind show here).
static int open_fds(void) {
    DIR *directory = opendir("/proc/self/fd");
    if (!directory) return -1;
    int count = 0;
    while (readdir(directory)) count++;
    closedir(directory);
    return count;
}

/// The resident memory in KB (VmRSS of /proc/self/status), -1 when unknown.
static long resident_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1) break;
    fclose(status);
    return kb;
}

/// An X error on the host's connection: said plainly, and the host carries on (Xlib's
/// default handler would print and exit). The editor's own connection has its own handler,
/// which passes other connections' errors on to this one.
static int x_error(Display *display, XErrorEvent *error) {
    char code[128] = "", number[16], request[128] = "";
    XGetErrorText(display, error->error_code, code, sizeof code);
    snprintf(number, sizeof number, "%d", error->request_code);
    XGetErrorDatabaseText(display, "XRequest", number, number, request, sizeof request);
    printf("x_error: %s on %s (resource 0x%lx)\n", code, request, error->resourceid);
    fflush(stdout);
    return 0;
}

/// The X connection lost (the server gone): said plainly, and the host ends (Xlib ends the
/// process when this returns).
static int x_connection_lost(Display *display) {
    (void)display;
    printf("x_error: the X connection is lost\n");
    fflush(stdout);
    _exit(4);
}

static void gui_prepare(Instance *instance) {
    gui = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_GUI);
    gui_timers = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_TIMER_SUPPORT);
    gui_fds = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_POSIX_FD_SUPPORT);
    if (!gui || !gui_timers) die("the plugin offers no clap.gui or clap.timer-support");
    if (offer_fds && !gui_fds) die("the plugin offers no clap.posix-fd-support");
    if (!gui_display) {
        XSetErrorHandler(x_error);
        XSetIOErrorHandler(x_connection_lost);
        gui_display = XOpenDisplay(NULL);
        if (!gui_display) die("cannot open the X display (DISPLAY)");
        gui_parent = XCreateSimpleWindow(gui_display, DefaultRootWindow(gui_display), 0, 0, 900, 420, 0, 0, 0);
        XStoreName(gui_display, gui_parent, "claphost");
        XMapWindow(gui_display, gui_parent);
        XFlush(gui_display);
    }
}

/// The descriptors that are ready, the timers that are due, and the host's own X events
/// (read and dropped).
static void gui_pump(Instance *instance) {
    for (int k = 0; k < watched_count; k++) {
        struct pollfd ready = {watched_fds[k], POLLIN, 0};
        if (poll(&ready, 1, 0) == 1 && (ready.revents & (POLLIN | POLLERR | POLLHUP))) {
            fd_calls++;
            gui_fds->on_fd(instance->plugin, watched_fds[k], ready.revents & POLLIN ? TONESHAPER_CLAP_POSIX_FD_READ : TONESHAPER_CLAP_POSIX_FD_ERROR);
        }
    }
    double now = monotonic();
    for (int t = 0; t < 8; t++) {
        if (!timers[t].live || now < timers[t].due) continue;
        timers[t].due = now + timers[t].period_ms / 1000.0;
        gui_timers->on_timer(instance->plugin, timers[t].id);
        timer_calls++;
    }
    while (gui_display && XPending(gui_display)) {
        XEvent event;
        XNextEvent(gui_display, &event);
    }
}

/// Serves the window (gui_pump) until its timers have been called `ticks` more times: the
/// editor has had that many chances to read its events and draw.
static void gui_pump_ticks(Instance *instance, long ticks) {
    long until = timer_calls + ticks;
    while (timer_calls < until) {
        if (timers_live == 0) die("the editor has no timer to call");
        gui_pump(instance);
        if (timer_calls < until) usleep(1000);
    }
}

/// create, the size asked (the parent takes it), set_parent, show.
static void gui_open(Instance *instance, double scale) {
    if (!gui->is_api_supported(instance->plugin, TONESHAPER_CLAP_WINDOW_API_X11, false)) die("the plugin refused x11");
    const char *api = NULL;
    bool floating = true;
    if (!gui->get_preferred_api(instance->plugin, &api, &floating) || !api || strcmp(api, "x11") || floating) die("preferred api not x11");
    if (!gui->create(instance->plugin, TONESHAPER_CLAP_WINDOW_API_X11, false)) die("gui create refused");
    if (scale > 0 && !gui->set_scale(instance->plugin, scale)) die("set_scale %g refused", scale);
    uint32_t width = 0, height = 0;
    if (!gui->get_size(instance->plugin, &width, &height) || width == 0 || height == 0) die("get_size refused");
    XResizeWindow(gui_display, gui_parent, width, height);
    toneshaper_clap_window window = {TONESHAPER_CLAP_WINDOW_API_X11, {.x11 = gui_parent}};
    if (!gui->set_parent(instance->plugin, &window)) die("set_parent refused");
    gui_plugin = instance->plugin;
    if (!gui->show(instance->plugin)) die("show refused");
    XFlush(gui_display);
    printf("gui_size: %ux%u\ngui_parent: 0x%lx\n", width, height, gui_parent);
    fflush(stdout);
}

/// Calls out of turn and malformed ones, each of which the plugin must refuse; prints how
/// many it refused of those tried. The window is made and destroyed twice on the way.
static void gui_hostile(Instance *instance) {
    const toneshaper_clap_plugin *p = instance->plugin;
    toneshaper_clap_window window = {TONESHAPER_CLAP_WINDOW_API_X11, {.x11 = gui_parent}};
    toneshaper_clap_window foreign = {"win32", {.x11 = gui_parent}};
    toneshaper_clap_window none = {TONESHAPER_CLAP_WINDOW_API_X11, {.x11 = 0}};
    uint32_t w = 0, h = 0;
    int tried = 0, refused = 0;
#define REFUSED(call) (tried++, refused += !(call))
    REFUSED(gui->set_parent(p, &window));
    REFUSED(gui->show(p));
    REFUSED(gui->get_size(p, &w, &h));
    REFUSED(gui->set_size(p, 300, 200));
    REFUSED(gui->create(p, "cocoa", false));
    REFUSED(gui->create(p, TONESHAPER_CLAP_WINDOW_API_X11, true));
    REFUSED(gui->create(p, NULL, false));
    REFUSED(gui->is_api_supported(p, TONESHAPER_CLAP_WINDOW_API_X11, true));
    REFUSED(gui->is_api_supported(p, "wayland", false));
    gui->destroy(p);  // nothing made: nothing to do
    if (!gui->create(p, TONESHAPER_CLAP_WINDOW_API_X11, false)) die("gui create refused");
    REFUSED(gui->create(p, TONESHAPER_CLAP_WINDOW_API_X11, false));
    REFUSED(gui->set_size(p, 0, 200));
    REFUSED(gui->set_size(p, 100000, 200));
    REFUSED(gui->show(p));
    REFUSED(gui->set_parent(p, &foreign));
    REFUSED(gui->set_parent(p, &none));
    REFUSED(gui->set_parent(p, NULL));
    REFUSED(gui->set_scale(p, NAN));
    REFUSED(gui->set_scale(p, 1000));
    REFUSED(gui->set_transient(p, &window));
    REFUSED(gui->get_size(p, NULL, &h));
    gui->suggest_title(p, NULL);
    if (!gui->set_parent(p, &window)) die("set_parent refused");
    REFUSED(gui->set_parent(p, &window));
    REFUSED(gui->set_scale(p, 2));
    if (!gui->set_size(p, 640, 300) || !gui->get_size(p, &w, &h) || w != 640 || h != 300) die("set_size 640x300 not taken");
    uint32_t small_w = 1, small_h = 1;
    if (!gui->adjust_size(p, &small_w, &small_h) || small_w < 100 || small_h < 100) die("adjust_size let 1x1 through");
    if (!gui->show(p) || !gui->hide(p) || !gui->show(p)) die("show or hide refused");
    for (int k = 0; k < 5; k++) gui_pump(instance);
    gui->destroy(p);
    gui->destroy(p);
#undef REFUSED
    printf("gui_hostile_refused: %d of %d\n", refused, tried);
}

// ---- preset discovery ------------------------------------------------------------------

static int preset_plugins;

static bool indexer_filetype(const toneshaper_clap_preset_indexer *indexer, const toneshaper_clap_preset_filetype *filetype) {
    (void)indexer;
    printf("filetype: %s .%s\n", filetype->name, filetype->file_extension ? filetype->file_extension : "");
    return true;
}
static bool indexer_location(const toneshaper_clap_preset_indexer *indexer, const toneshaper_clap_preset_location *location) {
    (void)indexer;
    printf("location: %u %s %s\n", location->kind, location->name, location->location ? location->location : "(plugin)");
    return true;
}
static bool indexer_soundpack(const toneshaper_clap_preset_indexer *indexer, const void *soundpack) {
    (void)indexer;
    (void)soundpack;
    return true;
}
static const void *indexer_extension(const toneshaper_clap_preset_indexer *indexer, const char *id) {
    (void)indexer;
    (void)id;
    return NULL;
}
static void receiver_error(const toneshaper_clap_preset_metadata_receiver *r, int32_t error, const char *message) {
    (void)r;
    printf("preset_error: %d %s\n", error, message);
}
static bool receiver_begin(const toneshaper_clap_preset_metadata_receiver *r, const char *name, const char *key) {
    (void)r;
    printf("preset: %s %s\n", name ? name : "(file)", key ? key : "(none)");
    return true;
}
static void receiver_plugin(const toneshaper_clap_preset_metadata_receiver *r, const toneshaper_clap_universal_plugin_id *id) {
    (void)r;
    if (!strcmp(id->abi, "clap")) preset_plugins++;
}
static void receiver_text(const toneshaper_clap_preset_metadata_receiver *r, const char *text) {
    (void)r;
    (void)text;
}
static void receiver_flags(const toneshaper_clap_preset_metadata_receiver *r, uint32_t flags) {
    (void)r;
    (void)flags;
}
static void receiver_times(const toneshaper_clap_preset_metadata_receiver *r, uint64_t a, uint64_t b) {
    (void)r;
    (void)a;
    (void)b;
}
static void receiver_extra(const toneshaper_clap_preset_metadata_receiver *r, const char *key, const char *value) {
    (void)r;
    (void)key;
    (void)value;
}

static int list_presets(const char *path) {
    void *library;
    const toneshaper_clap_plugin_entry *entry = load_entry(path, &library);
    const toneshaper_clap_preset_discovery_factory *factory = entry->get_factory(TONESHAPER_CLAP_PRESET_DISCOVERY_FACTORY_ID);
    if (!factory) die("no preset-discovery factory");
    uint32_t providers = factory->count(factory);
    printf("providers: %u\n", providers);
    for (uint32_t i = 0; i < providers; i++) {
        const toneshaper_clap_preset_provider_descriptor *descriptor = factory->get_descriptor(factory, i);
        if (!descriptor) die("no provider descriptor %u", i);
        printf("provider: %s %s\n", descriptor->id, descriptor->name);
        toneshaper_clap_preset_indexer indexer = {{TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION},
            "claphost", "ToneShaper tests", "", "1.0", NULL, indexer_filetype, indexer_location, indexer_soundpack, indexer_extension};
        const toneshaper_clap_preset_provider *provider = factory->create(factory, &indexer, descriptor->id);
        if (!provider || !provider->init(provider)) die("the provider %s was not made", descriptor->id);
        toneshaper_clap_preset_metadata_receiver receiver = {NULL, receiver_error, receiver_begin, receiver_plugin, receiver_text,
            receiver_flags, receiver_text, receiver_text, receiver_times, receiver_text, receiver_extra};
        if (!provider->get_metadata(provider, TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN, NULL, &receiver)) die("no metadata");
        printf("file_metadata: %d\n", provider->get_metadata(provider, TONESHAPER_CLAP_PRESET_LOCATION_FILE, "Sessions/siren.toneshaper", &receiver));
        printf("foreign_metadata: %d\n", provider->get_metadata(provider, TONESHAPER_CLAP_PRESET_LOCATION_FILE, "notes.txt", &receiver));
        provider->destroy(provider);
    }
    printf("preset_plugin_ids: %d\n", preset_plugins);
    return 0;
}

// ---- the options ---------------------------------------------------------------------------

typedef struct {
    const char *path, *id, *out, *save, *load, *second, *preset_file, *preset_builtin, *hostile_state;
    double rate, gui_scale, process_playing, process_tempo;
    long block, frames, bench_runs;
    int instances, realtime, describe, list_presets, process_transport, paced, mpe;
    int gui_window, gui_reopen, gui_hostile, gui_flush, gui_parent_gone;
    uint32_t report_ids[64];
    int report_count;
    uint32_t flush_ids[64];
    double flush_values[64];
    int flush_count;
} Options;

/// The command line into `o`; the events of the script (--note, --param, ...) into steps.
static void parse_options(int argc, char **argv, Options *o) {
    memset(o, 0, sizeof *o);
    o->id = "org.toneshaper.instrument";
    o->rate = 48000;
    o->block = 256;
    o->instances = 1;
    o->process_tempo = 120;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEXT (v ? (i++, v) : (die("%s needs a value", a), ""))
        if (!strcmp(a, "--clap")) o->path = NEXT;
        else if (!strcmp(a, "--id")) o->id = NEXT;
        else if (!strcmp(a, "--rate")) o->rate = atof(NEXT);
        else if (!strcmp(a, "--block")) o->block = atol(NEXT);
        else if (!strcmp(a, "--frames")) o->frames = atol(NEXT);
        else if (!strcmp(a, "--out")) o->out = NEXT;
        else if (!strcmp(a, "--save-state")) o->save = NEXT;
        else if (!strcmp(a, "--load-state")) o->load = NEXT;
        else if (!strcmp(a, "--hostile-state")) o->hostile_state = NEXT;
        else if (!strcmp(a, "--preset-file")) o->preset_file = NEXT;
        else if (!strcmp(a, "--preset-builtin")) o->preset_builtin = NEXT;
        else if (!strcmp(a, "--second-clap")) o->second = NEXT;
        else if (!strcmp(a, "--instances")) o->instances = atoi(NEXT);
        else if (!strcmp(a, "--realtime")) o->realtime = 1;
        else if (!strcmp(a, "--gui")) {
            if (v && strspn(v, "0123456789.") == strlen(v) && *v)
                die("--gui takes no number: the window stays until standard input says quit or ends");
            o->gui_window = 1;
        } else if (!strcmp(a, "--gui-scale")) o->gui_scale = atof(NEXT);
        else if (!strcmp(a, "--gui-reopen")) o->gui_reopen = atoi(NEXT);
        else if (!strcmp(a, "--gui-hostile")) o->gui_hostile = 1;
        else if (!strcmp(a, "--gui-flush")) o->gui_flush = 1;
        else if (!strcmp(a, "--gui-parent-gone")) o->gui_parent_gone = 1;
        else if (!strcmp(a, "--no-fd-support")) offer_fds = 0;
        else if (!strcmp(a, "--describe")) o->describe = 1;
        else if (!strcmp(a, "--list-presets")) o->list_presets = 1;
        else if (!strcmp(a, "--bench-runs")) o->bench_runs = atol(NEXT);
        else if (!strcmp(a, "--bench-paced")) o->paced = 1;
        else if (!strcmp(a, "--report-value")) {
            if (o->report_count == 64) die("too many --report-value");
            o->report_ids[o->report_count++] = (uint32_t)atoi(NEXT);
        } else if (!strcmp(a, "--program")) {
            int program = 0;
            long frame = 0;
            if (sscanf(NEXT, "%d@%ld", &program, &frame) != 2) die("bad --program");
            Step *s = add_step(MIDI, frame);
            s->midi[0] = 0xC0, s->midi[1] = (unsigned char)program, s->midi[2] = 0;
        } else if (!strcmp(a, "--mpe")) o->mpe = atoi(NEXT);
        else if (!strcmp(a, "--note") || !strcmp(a, "--midi-note")) {
            long frame = 0, off = -1;
            int key = 0, velocity = 0, note_id = -1;
            if (sscanf(NEXT, "%ld:%d:%d:%ld:%d", &frame, &key, &velocity, &off, &note_id) < 3) die("bad %s", a);
            Step *on = add_step(a[2] == 'n' ? NOTE_ON : MIDI, frame);
            on->key = key;
            on->value = velocity;
            on->note_id = note_id;
            on->midi[0] = 0x90, on->midi[1] = (unsigned char)key, on->midi[2] = (unsigned char)velocity;
            if (off >= 0) {
                Step *off_step = add_step(a[2] == 'n' ? NOTE_OFF : MIDI, off);
                off_step->key = key;
                off_step->note_id = note_id;
                off_step->midi[0] = 0x80, off_step->midi[1] = (unsigned char)key, off_step->midi[2] = 0;
            }
        } else if (!strcmp(a, "--sysex")) {
            long frame = 0;
            int used = 0;
            const char *text = NEXT;
            if (sscanf(text, "%ld:%n", &frame, &used) != 1 || used == 0) die("bad --sysex");
            const char *hex = text + used;
            size_t length = strlen(hex) / 2;
            Step *step = add_step(SYSEX, frame);
            step->sysex = malloc(length ? length : 1);
            step->sysex_size = (uint32_t)length;
            for (size_t i = 0; i < length; i++) {
                unsigned byte = 0;
                if (sscanf(hex + 2 * i, "%2x", &byte) != 1) die("bad --sysex bytes");
                step->sysex[i] = (unsigned char)byte;
            }
        } else if (!strcmp(a, "--channel-note")) {
            long frame = 0;
            int channel = 0, key = 0, velocity = 0, note_id = -1;
            if (sscanf(NEXT, "%ld:%d:%d:%d:%d", &frame, &channel, &key, &velocity, &note_id) < 4) die("bad --channel-note");
            Step *on = add_step(NOTE_ON, frame);
            on->channel = channel, on->key = key, on->value = velocity, on->note_id = note_id;
        } else if (!strcmp(a, "--note-off") || !strcmp(a, "--note-choke")) {
            // Any field -1: CLAP's wildcard.
            long frame = 0;
            int port = 0, channel = 0, key = 0, note_id = -1;
            if (sscanf(NEXT, "%ld:%d:%d:%d:%d", &frame, &port, &channel, &key, &note_id) != 5) die("bad %s", a);
            Step *off = add_step(NOTE_OFF, frame);
            off->port = port, off->channel = channel, off->key = key, off->note_id = note_id;
            off->choke = a[7] == 'c';
        } else if (!strcmp(a, "--param") || !strcmp(a, "--mod")) {
            unsigned pid = 0;
            char number[64];
            long frame = 0;
            if (sscanf(NEXT, "%u=%63[^@]@%ld", &pid, number, &frame) != 3) die("bad %s", a);
            Step *s = add_step(a[2] == 'p' ? PARAM : MOD, frame);
            s->id = pid;
            s->value = strtod(number, NULL);
        } else if (!strcmp(a, "--flush")) {
            char number[64];
            if (o->flush_count == 64 || sscanf(NEXT, "%u=%63s", &o->flush_ids[o->flush_count], number) != 2) die("bad --flush");
            o->flush_values[o->flush_count++] = strtod(number, NULL);
        } else if (!strcmp(a, "--expression") || !strcmp(a, "--expression-id")) {
            long frame = 0;
            int key = 0;
            char kind[16];
            double value = 0;
            if (sscanf(NEXT, "%ld:%d:%15[a-z]:%lf", &frame, &key, kind, &value) != 4) die("bad %s", a);
            Step *s = add_step(EXPRESSION, frame);
            // --expression-id: the number is the note id of a --note's note-on, the key -1.
            s->key = a[12] ? -1 : key;
            s->note_id = a[12] ? key : -1;
            s->value = value;
            s->expression = !strcmp(kind, "tuning") ? TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING : TONESHAPER_CLAP_NOTE_EXPRESSION_VOLUME;
        } else if (!strcmp(a, "--transport")) {
            long frame = 0;
            int playing = 0;
            double seconds = 0, tempo = 120;
            if (sscanf(NEXT, "%d:%lf:%lf@%ld", &playing, &seconds, &tempo, &frame) != 4) die("bad --transport");
            Step *s = add_step(TRANSPORT, frame);
            s->value = playing;
            s->seconds = seconds;
            s->tempo = tempo;
        } else if (!strcmp(a, "--process-transport")) {
            if (sscanf(NEXT, "%lf:%lf", &o->process_playing, &o->process_tempo) != 2) die("bad --process-transport");
            o->process_transport = 1;
        } else if (!strcmp(a, "--hostile")) {
            const char *spec = NEXT;
            const char *at = strchr(spec, '@');
            Step *s = add_step(HOSTILE, at ? atol(at + 1) : 0);
            snprintf(s->hostile, sizeof s->hostile, "%.*s", at ? (int)(at - spec) : (int)strlen(spec), spec);
        } else die("unknown argument %s", a);
#undef NEXT
    }
    if (!o->path) die("--clap PATH is required");
    if (o->list_presets) return;
    if (o->bench_runs > 0) o->frames = (long)o->rate + o->bench_runs * o->block;
    // The window is used while the plugin plays in real time, block by block, for as long
    // as the test keeps it.
    if (o->gui_window) o->realtime = 1;
    if ((!o->gui_window && o->frames <= 0) || o->block <= 0 || o->block > 8192) die("--frames N (and a --block of 1...8192) are required");
    if (o->instances < 1 || o->instances > 2) die("--instances is 1 or 2");
}

// ---- the instances made ready ------------------------------------------------------------

/// A state --hostile-state names: empty, foreign, truncated, out of range.
static Buffer hostile_state_bytes(const char *kind) {
    Buffer b = {0};
    if (!strcmp(kind, "empty")) b.size = 0;
    else if (!strcmp(kind, "foreign")) b.bytes = (unsigned char *)strdup("RIFF\x24\x00\x00\x00WAVEfmt "), b.size = 16;
    else if (!strcmp(kind, "truncated")) {
        b = read_whole("Sessions/siren.toneshaper");
        b.size /= 2;
    } else if (!strcmp(kind, "out-of-range")) {
        const char *text = "{\"minFrequency\": 100, \"maxFrequency\": 900, \"duration\": 1, \"amplitude\": 7, \"points\": []}";
        b.bytes = (unsigned char *)strdup(text), b.size = strlen(text);
    } else die("unknown --hostile-state %s", kind);
    return b;
}

/// Parameters set before activation, through params.flush (the main thread's).
static void flush_before_activation(Instance *instance, const Options *o) {
    EventList list = {0};
    for (int f = 0; f < o->flush_count; f++) {
        Event *e = list_add(&list);
        header(e, TONESHAPER_CLAP_EVENT_PARAM_VALUE, sizeof e->value, 0);
        e->value.param_id = o->flush_ids[f];
        e->value.value = o->flush_values[f];
    }
    toneshaper_clap_input_events in = {&list, list_size, list_get};
    toneshaper_clap_output_events outs = {NULL, list_push};
    instance->params->flush(instance->plugin, &in, &outs);
    free(list.events);
}

/// A state, a preset, the flushed parameters, the render mode; activated and processing.
static void make_ready(Instance *instance, int first, const Options *o) {
    if (o->load) load_state(instance, read_whole(o->load), 1);
    if (o->hostile_state) load_state(instance, hostile_state_bytes(o->hostile_state), 0);
    if (o->preset_file || o->preset_builtin) {
        const toneshaper_clap_plugin_preset_load *presets = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_PRESET_LOAD);
        if (!presets) die("no preset-load extension");
        bool loaded = o->preset_file ? presets->from_location(instance->plugin, TONESHAPER_CLAP_PRESET_LOCATION_FILE, o->preset_file, NULL)
                                     : presets->from_location(instance->plugin, TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN, NULL, o->preset_builtin);
        printf("preset_loaded: %d\n", loaded);
    }
    if (o->flush_count) flush_before_activation(instance, o);
    if (o->describe && first) describe(instance);
    const toneshaper_clap_plugin_render *render = instance->plugin->get_extension(instance->plugin, TONESHAPER_CLAP_EXT_RENDER);
    if (render && !render->set(instance->plugin, o->realtime ? TONESHAPER_CLAP_RENDER_REALTIME : TONESHAPER_CLAP_RENDER_OFFLINE))
        die("render mode refused");
    if (!instance->plugin->activate(instance->plugin, o->rate, 1, (uint32_t)o->block)) {
        printf("activate: refused\n");
        exit(3);
    }
    if (!instance->plugin->start_processing(instance->plugin)) die("start_processing refused");
    instance->channels[0] = calloc((size_t)o->block, sizeof(float));
    instance->channels[1] = calloc((size_t)o->block, sizeof(float));
}

// ---- the blocks ------------------------------------------------------------------------

/// A run: the instances, what their output showed so far, the bench's times.
typedef struct {
    const Options *o;
    Instance inst[2];
    int count;
    uint32_t channel_count;
    FILE *output;
    EventList list;
    long nonfinite, out_of_range, first_sound, first_nonzero, differ, stereo_differ;
    float peak;
    int main_callbacks;
    double *times;
    long timed, warmup;
} Run;

/// This block's steps into the list, in time order (steps are stable-sorted by frame).
static void add_steps(Run *run, long start, uint32_t n) {
    for (long t = 0; t < n; t++) {
        for (int s = 0; s < step_count; s++) {
            Step *step = &steps[s];
            if (step->frame != start + t) continue;
            uint32_t time = (uint32_t)t;
            Event *e;
            switch (step->kind) {
            case NOTE_ON:
            case NOTE_OFF:
                e = list_add(&run->list);
                header(e,
                       step->kind == NOTE_ON ? TONESHAPER_CLAP_EVENT_NOTE_ON
                       : step->choke         ? TONESHAPER_CLAP_EVENT_NOTE_CHOKE
                                             : TONESHAPER_CLAP_EVENT_NOTE_OFF,
                       sizeof e->note, time);
                e->note.note_id = step->note_id;
                e->note.port_index = (int16_t)step->port;
                e->note.channel = (int16_t)step->channel;
                e->note.key = (int16_t)step->key;
                e->note.velocity = step->value / 127.0;
                break;
            case MIDI:
                e = list_add(&run->list);
                header(e, TONESHAPER_CLAP_EVENT_MIDI, sizeof e->midi, time);
                memcpy(e->midi.data, step->midi, 3);
                break;
            case PARAM:
            case MOD:
                e = list_add(&run->list);
                header(e, step->kind == PARAM ? TONESHAPER_CLAP_EVENT_PARAM_VALUE : TONESHAPER_CLAP_EVENT_PARAM_MOD, sizeof e->value, time);
                e->value.param_id = step->id;
                e->value.note_id = -1;
                e->value.key = e->value.channel = e->value.port_index = -1;
                e->value.value = step->value;
                break;
            case EXPRESSION:
                e = list_add(&run->list);
                header(e, TONESHAPER_CLAP_EVENT_NOTE_EXPRESSION, sizeof e->expression, time);
                e->expression.expression_id = step->expression;
                e->expression.note_id = step->note_id;
                e->expression.port_index = 0;
                e->expression.channel = step->key < 0 ? -1 : 0;
                e->expression.key = (int16_t)step->key;
                e->expression.value = step->value;
                break;
            case TRANSPORT:
                e = list_add(&run->list);
                header(e, TONESHAPER_CLAP_EVENT_TRANSPORT, sizeof e->transport, time);
                e->transport.flags = TONESHAPER_CLAP_TRANSPORT_HAS_TEMPO | TONESHAPER_CLAP_TRANSPORT_HAS_SECONDS_TIMELINE |
                                     TONESHAPER_CLAP_TRANSPORT_HAS_BEATS_TIMELINE | TONESHAPER_CLAP_TRANSPORT_HAS_TIME_SIGNATURE |
                                     (step->value > 0 ? TONESHAPER_CLAP_TRANSPORT_IS_PLAYING : 0);
                e->transport.song_pos_seconds = (int64_t)(step->seconds * TONESHAPER_CLAP_TIME_FACTOR);
                e->transport.song_pos_beats = (int64_t)(step->seconds * step->tempo / 60 * TONESHAPER_CLAP_TIME_FACTOR);
                e->transport.tempo = step->tempo;
                e->transport.tsig_num = 4;
                e->transport.tsig_denom = 4;
                e->transport.bar_number = (int32_t)(step->seconds * step->tempo / 60 / 4);
                e->transport.bar_start = (int64_t)(e->transport.bar_number * 4 * TONESHAPER_CLAP_TIME_FACTOR);
                break;
            case HOSTILE: add_hostile(&run->list, step->hostile, time, n); break;
            case SYSEX:
                e = list_add(&run->list);
                header(e, TONESHAPER_CLAP_EVENT_MIDI_SYSEX, sizeof e->sysex, time);
                e->sysex.buffer = step->sysex;
                e->sysex.size = step->sysex_size;
                break;
            }
        }
    }
    if (run->o->mpe > 0 && start > 0) {
        for (int k = 0; k < run->o->mpe; k++) {
            Event *e = list_add(&run->list);
            header(e, TONESHAPER_CLAP_EVENT_NOTE_EXPRESSION, sizeof e->expression, 0);
            e->expression.expression_id = TONESHAPER_CLAP_NOTE_EXPRESSION_TUNING;
            e->expression.note_id = -1;
            e->expression.channel = 0;
            e->expression.key = (int16_t)(36 + k);
            e->expression.value = 0.5 * sin((double)start / run->o->rate * 6.0 + k);
        }
    }
}

/// A parameter's value at the block's start, as a host's automation or knob sets it.
static void add_param_value(EventList *list, uint32_t id, double value) {
    Event *e = list_add(list);
    header(e, TONESHAPER_CLAP_EVENT_PARAM_VALUE, sizeof e->value, 0);
    e->value.param_id = id;
    e->value.note_id = -1;
    e->value.key = e->value.channel = e->value.port_index = -1;
    e->value.value = value;
}

/// Every instance processes the block in the run's list (the first timed for --bench-runs),
/// the main thread's callbacks the plugin asked for are made, and the output is looked at.
static void process_block(Run *run, long start, uint32_t n) {
    const Options *o = run->o;
    toneshaper_clap_event_transport transport;
    memset(&transport, 0, sizeof transport);
    if (o->process_transport) {
        transport.header.size = sizeof transport;
        transport.header.space_id = TONESHAPER_CLAP_CORE_EVENT_SPACE;
        transport.header.type = TONESHAPER_CLAP_EVENT_TRANSPORT;
        transport.flags = TONESHAPER_CLAP_TRANSPORT_HAS_TEMPO | TONESHAPER_CLAP_TRANSPORT_HAS_SECONDS_TIMELINE |
                          (o->process_playing > 0 ? TONESHAPER_CLAP_TRANSPORT_IS_PLAYING : 0);
        transport.tempo = o->process_tempo;
        transport.song_pos_seconds = (int64_t)((double)start / o->rate * TONESHAPER_CLAP_TIME_FACTOR);
    }
    for (int k = 0; k < run->count; k++) {
        Instance *instance = &run->inst[k];
        toneshaper_clap_input_events in = {&run->list, list_size, list_get};
        OutputContext context = {start, k};
        toneshaper_clap_output_events outs = {&context, list_push};
        toneshaper_clap_audio_buffer buffer = {instance->channels, NULL, run->channel_count, 0, 0};
        toneshaper_clap_process process = {start, n, o->process_transport ? &transport : NULL, NULL, &buffer, 0, 1, &in, &outs};
        struct timespec before, after;
        clock_gettime(CLOCK_MONOTONIC, &before);
        in_process = 1;
        int32_t status = instance->plugin->process(instance->plugin, &process);
        in_process = 0;
        clock_gettime(CLOCK_MONOTONIC, &after);
        if (k == 0 && run->times && start >= run->warmup && run->timed < o->bench_runs)
            run->times[run->timed++] = (double)(after.tv_sec - before.tv_sec) * 1e9 + (double)(after.tv_nsec - before.tv_nsec);
        if (status == TONESHAPER_CLAP_PROCESS_ERROR) die("process returned an error");
    }
    // The main thread's callback, when the plugin asked for it.
    while (atomic_load(&main_callbacks_requested) > run->main_callbacks) {
        run->main_callbacks++;
        for (int k = 0; k < run->count; k++) run->inst[k].plugin->on_main_thread(run->inst[k].plugin);
    }
    const float *first = run->inst[0].channels[0];
    for (uint32_t i = 0; i < n; i++) {
        float x = first[i];
        if (!isfinite(x)) run->nonfinite++;
        else {
            if (fabsf(x) > 1) run->out_of_range++;
            if (fabsf(x) > run->peak) run->peak = fabsf(x);
            if (run->first_sound < 0 && fabsf(x) > 1e-4f) run->first_sound = start + i;
            if (run->first_nonzero < 0 && x != 0) run->first_nonzero = start + i;
        }
        if (run->channel_count > 1 && run->inst[0].channels[1][i] != x) run->stereo_differ++;
        if (run->count > 1 && run->inst[1].channels[0][i] != x) run->differ++;
    }
    if (run->output) fwrite(first, sizeof(float), n, run->output);
}

/// --bench-paced: one block a period, as an audio thread: waits for this block's time.
static void wait_for_block_time(Run *run, long start) {
    static struct timespec origin;
    if (origin.tv_sec == 0 && origin.tv_nsec == 0) clock_gettime(CLOCK_MONOTONIC, &origin);
    double due = (double)(start - run->warmup) / run->o->rate;
    struct timespec at = origin;
    at.tv_sec += (time_t)due;
    at.tv_nsec += (long)((due - (double)(time_t)due) * 1e9);
    if (at.tv_nsec >= 1000000000L) at.tv_sec++, at.tv_nsec -= 1000000000L;
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
}

/// --frames N: the blocks back to back (or paced, for --bench-paced), offline unless
/// --realtime.
static long run_blocks(Run *run) {
    const Options *o = run->o;
    for (long start = 0; start < o->frames; start += o->block) {
        uint32_t n = (uint32_t)(o->frames - start < o->block ? o->frames - start : o->block);
        run->list.count = 0;
        add_steps(run, start, n);
        if (o->paced && start >= run->warmup) wait_for_block_time(run, start);
        process_block(run, start, n);
    }
    return o->frames;
}

// ---- the window kept open (--gui) ----------------------------------------------------------

/// What standard input asked for and the host owes: parameters for the next block, timer
/// calls awaited, the end.
typedef struct {
    char line[512];
    size_t length;
    int ended, quit;
    struct {
        uint32_t id;
        double value;
    } params[64];
    int param_count;
    struct {
        long until, asked;
    } ticks[16];
    int tick_count;
} Commands;

static void save_state(Instance *instance, const char *path);

/// One command line: done now (a preset, a save), or owed (a parameter's block, timer calls).
static void command(Run *run, Commands *c, char *line) {
    while (*line == ' ' || *line == '\t') line++;
    size_t length = strlen(line);
    while (length && (line[length - 1] == ' ' || line[length - 1] == '\r')) line[--length] = 0;
    char name[128];
    unsigned id = 0;
    char number[64];
    long ticks = 0;
    if (length == 0) return;
    if (!strcmp(line, "quit")) c->quit = 1;
    else if (sscanf(line, "preset %127s", name) == 1) {
        const toneshaper_clap_plugin_preset_load *presets = run->inst[0].plugin->get_extension(run->inst[0].plugin, TONESHAPER_CLAP_EXT_PRESET_LOAD);
        int loaded = presets && presets->from_location(run->inst[0].plugin, TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN, NULL, name);
        printf("gui_preset_loaded: %d\n", loaded);
    } else if (!strncmp(line, "save ", 5) && line[5]) {
        save_state(&run->inst[0], line + 5);
        printf("state_saved: %s\n", line + 5);
    } else if (sscanf(line, "param %u=%63s", &id, number) == 2 && c->param_count < 64) {
        c->params[c->param_count].id = id;
        c->params[c->param_count++].value = strtod(number, NULL);
    } else if (sscanf(line, "ticks %ld", &ticks) == 1 && ticks >= 0 && c->tick_count < 16) {
        c->ticks[c->tick_count].until = timer_calls + ticks;
        c->ticks[c->tick_count++].asked = ticks;
    } else printf("command_refused: %s\n", line);
    fflush(stdout);
}

/// The lines standard input has for us now (never waits for one); its end is a quit.
static void read_commands(Run *run, Commands *c) {
    while (!c->ended) {
        struct pollfd input = {0, POLLIN, 0};
        if (poll(&input, 1, 0) != 1) return;
        char bytes[256];
        ssize_t got = read(0, bytes, sizeof bytes);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            c->ended = 1;
            break;
        }
        for (ssize_t k = 0; k < got; k++) {
            if (bytes[k] != '\n') {
                if (c->length + 1 < sizeof c->line) c->line[c->length++] = bytes[k];
                continue;
            }
            c->line[c->length] = 0;
            c->length = 0;
            command(run, c, c->line);
        }
    }
    if (c->length) {
        // A last line with no newline before the end.
        c->line[c->length] = 0;
        c->length = 0;
        command(run, c, c->line);
    }
}

/// The timer calls awaited that have come: reported.
static void report_ticks(Commands *c) {
    for (int k = 0; k < c->tick_count;) {
        if (timer_calls < c->ticks[k].until) {
            k++;
            continue;
        }
        printf("ticked: %ld\n", c->ticks[k].asked);
        fflush(stdout);
        c->ticks[k] = c->ticks[--c->tick_count];
    }
}

/// --gui-flush: the flush the plugin asked for, between blocks (as a host that is not
/// processing does), so the window's edits reach the host through it.
static void flush_when_asked(Run *run, int *flushed) {
    while (atomic_load(&flush_requests) > *flushed) {
        *flushed = atomic_load(&flush_requests);
        EventList empty = {0};
        toneshaper_clap_input_events in = {&empty, list_size, list_get};
        toneshaper_clap_output_events outs = {NULL, list_push};
        run->inst[0].params->flush(run->inst[0].plugin, &in, &outs);
        gui_flushes++;
        fflush(stdout);
    }
}

/// The editor window open while the plugin plays in real time, one block a period, the
/// window's timers and descriptors served and standard input read between blocks, until
/// standard input says quit or ends. Returns the frames played.
static long run_window(Run *run) {
    const Options *o = run->o;
    Instance *instance = &run->inst[0];
    live_reports = 1;
    gui_open(instance, o->gui_scale);
    uint32_t width = 0, height = 0;
    gui->get_size(instance->plugin, &width, &height);
    printf("gui_shown: %ux%u\n", width, height);
    fflush(stdout);
    Commands commands = {0};
    int flushed = 0;
    double origin = monotonic();
    long start = 0;
    while (!commands.quit && !commands.ended) {
        // Until this block's time: the window served, commands read.
        double due = origin + (double)start / o->rate;
        for (;;) {
            gui_pump(instance);
            read_commands(run, &commands);
            report_ticks(&commands);
            if (o->gui_flush) flush_when_asked(run, &flushed);
            if (commands.quit || commands.ended || monotonic() >= due) break;
            usleep(1000);
        }
        if (commands.quit || commands.ended) break;
        run->list.count = 0;
        add_steps(run, start, (uint32_t)o->block);
        int sent = commands.param_count;
        for (int k = 0; k < sent; k++) add_param_value(&run->list, commands.params[k].id, commands.params[k].value);
        commands.param_count = 0;
        process_block(run, start, (uint32_t)o->block);
        for (int k = 0; k < sent; k++) printf("param_sent: %u %.9g\n", commands.params[k].id, commands.params[k].value);
        fflush(stdout);
        start += o->block;
    }
    gui->destroy(instance->plugin);
    gui_plugin = NULL;
    live_reports = 0;
    printf("gui_timers_live: %d\nfds_watched: %d\ngui_resizes: %ld\n", timers_live, watched_count, gui_resizes);
    return start;
}

// ---- checks of the window's life, before the blocks ---------------------------------------

/// --gui-reopen N: made and destroyed again and again, each time shown and driven for a
/// few timer calls: every X connection it opened is closed again (the open files show it).
static void gui_reopen_check(Instance *instance, const Options *o) {
    int before = open_fds();
    long first_kb = 0, half_kb = 0, resident_before = resident_kb();
    for (int r = 0; r < o->gui_reopen; r++) {
        if (r == 1) first_kb = resident_kb();
        if (r == o->gui_reopen / 2) half_kb = resident_kb();
        gui_open(instance, o->gui_scale);
        gui_pump_ticks(instance, 5);
        gui->destroy(instance->plugin);
        gui_plugin = NULL;
    }
    printf("gui_resident_kb: before %ld, after the first window %ld, after half %ld, after all %ld\n", resident_before, first_kb, half_kb,
           resident_kb());
    printf("fds_watched: %d\n", watched_count);
    printf("gui_reopened: %d\ngui_fds_before: %d\ngui_fds_after: %d\ngui_timers_live: %d\n", o->gui_reopen, before, open_fds(), timers_live);
}

/// --gui-parent-gone: a careless host: its window (the editor's parent, and so the editor's
/// window with it) destroyed while the editor is open, the editor's timers still called, and
/// clap.gui's destroy last. The host's process must live on, and the editor opens again in
/// the host's new window.
static void gui_parent_gone_check(Instance *instance, const Options *o) {
    gui_open(instance, o->gui_scale);
    gui_pump_ticks(instance, 10);
    XDestroyWindow(gui_display, gui_parent);
    XSync(gui_display, False);
    gui_parent = XCreateSimpleWindow(gui_display, DefaultRootWindow(gui_display), 0, 0, 900, 420, 0, 0, 0);
    gui_pump_ticks(instance, 15);
    gui->destroy(instance->plugin);
    gui_plugin = NULL;
    gui_open(instance, o->gui_scale);
    gui_pump_ticks(instance, 10);
    gui->destroy(instance->plugin);
    gui_plugin = NULL;
    printf("gui_outlived_its_parent: 1\ngui_timers_live: %d\nfds_watched: %d\n", timers_live, watched_count);
    fflush(stdout);
}

// ---- the reports -----------------------------------------------------------------------------

/// What the plugin sent the host while a window was there (values, gestures, flushes, timers).
static void report_gui(void) {
    printf("out_values: %ld\nout_gesture_begins: %ld\nout_gesture_ends: %ld\nout_values_outside_gesture: %ld\nout_unmatched_ends: %ld\n", out_values,
           out_begins, out_ends, out_outside, out_unmatched);
    printf("fds_registered: %d\nfd_calls: %d\n", fds_registered, fd_calls);
    printf("flush_requests: %d\nflushes: %ld\ntimers_registered: %d\nout_in_process: %ld\n", atomic_load(&flush_requests), gui_flushes,
           timers_registered, out_in_process);
    for (int k = 0; k < 64; k++)
        if (out_has_last[k]) printf("out_last_%d: %g\n", k, out_last[k]);
}

/// --save-state FILE: the first instance's state, written whole.
static void save_state(Instance *instance, const char *path) {
    Buffer buffer = {0};
    toneshaper_clap_ostream stream = {&buffer, stream_write};
    if (!instance->state->save(instance->plugin, &stream)) die("state save refused");
    FILE *file = fopen(path, "wb");
    if (!file) die("cannot write %s", path);
    fwrite(buffer.bytes, 1, buffer.size, file);
    fclose(file);
    printf("state_bytes: %zu\n", buffer.size);
    free(buffer.bytes);
}

/// --bench-runs: process()'s times, sorted: median, mean, 99.9th percentile, maximum.
static void report_bench(Run *run) {
    double *times = run->times;
    long timed = run->timed;
    if (timed == 0) return;
    for (long i = 1; i < timed; i++) {
        double x = times[i];
        long j = i - 1;
        while (j >= 0 && times[j] > x) times[j + 1] = times[j], j--;
        times[j + 1] = x;
    }
    double sum = 0;
    for (long i = 0; i < timed; i++) sum += times[i];
    printf("process_count: %ld\nprocess_ns_median: %.0f\nprocess_ns_mean: %.0f\nprocess_ns_p99_9: %.0f\nprocess_ns_max: %.0f\n", timed,
           times[timed / 2], sum / (double)timed, times[(long)((double)timed * 0.999)], times[timed - 1]);
    printf("process_ns_per_sample_median: %.4f\n", times[timed / 2] / (double)run->o->block);
}

/// The run's closing report: the values asked for, the instances ended, what the output showed.
static void report_run(Run *run, long frames) {
    printf("out_events: %ld\n", output_events);
    for (int r = 0; r < run->o->report_count; r++) {
        double value = NAN;
        run->inst[0].params->get_value(run->inst[0].plugin, run->o->report_ids[r], &value);
        printf("value_%u: %g\n", run->o->report_ids[r], value);
    }
    for (int k = 0; k < run->count; k++) {
        run->inst[k].plugin->stop_processing(run->inst[k].plugin);
        run->inst[k].plugin->deactivate(run->inst[k].plugin);
        run->inst[k].plugin->destroy(run->inst[k].plugin);
        free(run->inst[k].channels[0]);
        free(run->inst[k].channels[1]);
    }
    printf("frames: %ld\npeak: %g\nnonfinite: %ld\nout_of_range: %ld\nfirst_sound: %ld\nfirst_nonzero: %ld\n", frames, run->peak, run->nonfinite,
           run->out_of_range, run->first_sound, run->first_nonzero);
    printf("log_messages: %d\nlog_errors: %d\nstereo_differ: %ld\ninstances_differ: %ld\nmain_callbacks: %d\nrescans: %d\n",
           atomic_load(&log_messages), atomic_load(&log_errors), run->stereo_differ, run->differ, run->main_callbacks, atomic_load(&rescans));
}

// ---- main ----------------------------------------------------------------------------------

int main(int argc, char **argv) {
    static Options o;
    parse_options(argc, argv, &o);
    if (o.list_presets) return list_presets(o.path);
    // A test reads the window's reports as they come.
    if (o.gui_window) setvbuf(stdout, NULL, _IOLBF, 0);

    static Run run;
    run.o = &o;
    run.count = o.second ? 2 : o.instances;
    run.first_sound = run.first_nonzero = -1;
    run.warmup = (long)o.rate;
    for (int k = 0; k < run.count; k++) run.inst[k] = make_instance(k == 1 && o.second ? o.second : o.path, o.id);
    for (int k = 0; k < run.count; k++) make_ready(&run.inst[k], k == 0, &o);
    const toneshaper_clap_plugin_audio_ports *ports = run.inst[0].plugin->get_extension(run.inst[0].plugin, TONESHAPER_CLAP_EXT_AUDIO_PORTS);
    toneshaper_clap_audio_port_info port;
    if (!ports || ports->count(run.inst[0].plugin, false) != 1 || !ports->get(run.inst[0].plugin, 0, false, &port)) die("no audio output port");
    run.channel_count = port.channel_count;

    int with_gui = o.gui_window || o.gui_reopen > 0 || o.gui_hostile || o.gui_parent_gone;
    if (with_gui) gui_prepare(&run.inst[0]);
    if (o.gui_hostile) gui_hostile(&run.inst[0]);
    if (o.gui_reopen > 0) gui_reopen_check(&run.inst[0], &o);
    if (o.gui_parent_gone) gui_parent_gone_check(&run.inst[0], &o);

    run.output = o.out ? fopen(o.out, "wb") : NULL;
    if (o.out && !run.output) die("cannot write %s", o.out);
    run.times = o.bench_runs > 0 ? calloc((size_t)o.bench_runs, sizeof(double)) : NULL;
    long frames = o.gui_window ? run_window(&run) : run_blocks(&run);
    if (run.output) fclose(run.output);

    if (with_gui) report_gui();
    if (o.save) save_state(&run.inst[0], o.save);
    if (run.times) report_bench(&run);
    report_run(&run, frames);
    free(run.list.events);
    return run.nonfinite || run.out_of_range || run.stereo_differ || run.differ ? 2 : 0;
}
