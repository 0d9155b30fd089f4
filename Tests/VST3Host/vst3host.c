// The project's own VST3 test host: loads a .vst3 bundle (dlopen of
// Contents/x86_64-linux/NAME.so, ModuleEntry, GetPluginFactory), makes an instance of one of
// its classes, connects it as a DAW does (IHostApplication as the context, the controller
// of a single-component plugin queried from the component, IComponentHandler, the event
// input and audio output buses activated, the speaker arrangement, setupProcessing,
// setActive, setProcessing), and processes a script of notes, parameter changes, pitch bend
// (through IMidiMapping), note expressions and program changes block by block, as a DAW's
// audio thread would, with state save and load, a description of everything the plugin
// declares, hostile calls, the editor (IPlugView on X11, the host's IPlugFrame with a
// Linux IRunLoop) and a timing mode. It ends with ModuleExit, and reports any reference
// count that does not come back where it should.
//
// It declares the VST3 ABI itself (vst3abi.h, from Steinberg's documentation), not with the
// plugin's declarations: a third-party host's view of the plugin.
//
//   vst3host --vst3 BUNDLE [--class mono|stereo|INDEX] [--rate 48000] [--block 256] --frames N
//            [--out FILE.wav] [--realtime]
//            [--note FRAME:KEY:VEL[:OFFFRAME[:NOTEID]]]...     (VEL 0...127; OFFFRAME -1: held)
//            [--sysex FRAME:HEX]...        (a kDataEvent of type kMidiSysEx with the bytes HEX)
//            [--param ID=VALUE@FRAME]...   (VALUE plain, turned into the normalized value by the
//                                           controller's plainParamToNormalized; VALUE with a
//                                           trailing n, 0.5n, is normalized as given)
//            [--pitch-bend FRAME:VALUE]... (VALUE normalized, 0.5 the centre: sent as a change of
//                                           the parameter IMidiMapping gives for kPitchBend)
//            [--expression FRAME:NOTEID:tuning|volume:VALUE]... (kNoteExpressionValueEvent;
//                                           VALUE normalized: tuning 0.5 + semitones/240)
//            [--program N[@FRAME]]         (the program-change parameter of the unit: N/steps,
//                                           changed in the block, the controller told after it)
//            [--flush ID=VALUE]...         (VALUE plain: sent before the first block, in a
//                                           process call of no samples, a host's flush)
//            [--program-before N]          (the same parameter set on the controller alone,
//                                           setParamNormalized before activation, as a DAW's
//                                           program menu does while the plugin is stopped)
//            [--save-state FILE] [--load-state FILE] [--describe] [--hostile]
//            [--bench-runs N] [--report-value ID]... (the controller's value at the end, plain)
//   vst3host --vst3 BUNDLE --gui ...        (commands on standard input, see below)
//   vst3host --vst3 BUNDLE --frames N --gui-reopen N
//
// --out writes a WAV file, 32-bit float, the output bus's channels interleaved. Offline
// processing (kOffline) unless --realtime or --gui.
//
// --hostile: calls a host must not make, each of which the plugin must refuse without
// crashing ("hostile: NAME refused" or "hostile: NAME ACCEPTED", and "hostile_refused: R of
// N"), made on a second instance: unknown interface ids (kNoInterface and a null object),
// unknown class ids, class and bus and parameter and unit and note-expression indices out of
// range, process before setupProcessing and setActive, bus arrangements the plugin does not
// have, kSample64, setParamNormalized with NaN, infinity and values out of 0...1, setupProcessing
// while active; a block longer than maxSamplesPerBlock and a bus of one channel too few, which
// may be refused or played ("hostile_survived"), but not written past; then blocks of every
// size from 1 to the maximum and zero-length blocks (with and without buffers), each output
// finite. The instance that plays is given, before it is
// activated, empty, garbage, truncated and null states (each must be refused), and in its
// block at frame 300 events it must ignore (an unknown parameter id, a NaN and an infinite
// parameter value, a note of key 200, a note of NaN velocity, a NaN expression, an unknown
// event type): a test compares its sound with the run without --hostile.
//
// --gui: the editor embedded in an X11 window of the host's on $DISPLAY, its run loop's
// timers and descriptors served between blocks played in real time, until standard input
// says "quit" or ends. Commands, one a line, each acknowledged:
//   ticks N          the editor's timers called N more times       -> ticked: N
//   param ID=VALUE   a parameter change (plain) in the next block   -> param_sent: ID VALUE
//   quit             the view removed and released, the final report
// and reports of its own: gui_shown: WxH; gui_resized: WxH each time the view's
// IPlugFrame::resizeView is answered (the host's window resized, then onSize; resizes: N at
// the end); out_edit: begin|perform|end ID [VALUE] for each edit the editor makes through
// IComponentHandler. --gui-reopen N: the view made, attached,
// driven for 5 timer calls, removed and released N times; the open descriptors and the
// resident memory are reported before and after.
//
// The report on standard output, one "key: value" a line: frames, peak, nonfinite,
// out_of_range, first_sound, first_nonzero, stereo_differ, state_bytes, restarts, edits,
// out_param_changes, and at the end the reference counts (refcount_problems, host_refs_leaked).
// Exit status: 0 ok, 2 a non-finite or out-of-range sample, 3 the plugin refused something
// the host needs (a state the test gave, activation), 4 the X connection was lost, 1 a
// usage or load error.

#define _GNU_SOURCE
#include "vst3abi.h"

#include <X11/Xlib.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "vst3host: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static bool same_iid(const void *a, const v3_tuid b) { return a && memcmp(a, b, 16) == 0; }

/// An interface's vtable, typed.
#define VT(object, type) ((const type *)(((v3_object *)(object))->vtbl))

/// UTF-16 (the plugin's String128) as UTF-8, for the report.
static const char *utf8(const v3_char16 *text, size_t capacity) {
    static char buffers[4][512];
    static int turn;
    char *out = buffers[turn++ & 3];
    size_t n = 0;
    for (size_t i = 0; i < capacity && text[i] && n + 4 < sizeof buffers[0]; i++) {
        uint32_t c = text[i];
        if (c < 0x80) out[n++] = (char)c;
        else if (c < 0x800) out[n++] = (char)(0xC0 | c >> 6), out[n++] = (char)(0x80 | (c & 0x3F));
        else out[n++] = (char)(0xE0 | c >> 12), out[n++] = (char)(0x80 | ((c >> 6) & 0x3F)), out[n++] = (char)(0x80 | (c & 0x3F));
    }
    out[n] = 0;
    return out;
}

static void to_utf16(const char *text, v3_char16 *out, size_t capacity) {
    size_t n = 0;
    for (; text[n] && n + 1 < capacity; n++) out[n] = (unsigned char)text[n];
    out[n] = 0;
}

static const char *hex_id(const uint8_t *id) {
    static char text[33];
    for (int i = 0; i < 16; i++) snprintf(text + 2 * i, 3, "%02X", id[i]);
    return text;
}

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/// The file descriptors this process has open.
static int open_fds(void) {
    DIR *directory = opendir("/proc/self/fd");
    if (!directory) return -1;
    int count = 0;
    while (readdir(directory)) count++;
    closedir(directory);
    return count;
}

/// The resident memory in KB (VmRSS), -1 when unknown.
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

// ---- the host's objects ---------------------------------------------------------------------
//
// Each is a vtable pointer followed by a reference count that starts at 1 (the host's own);
// the plugin's add_ref and release move it, and at the end every one must be back at 1.

typedef struct HostObject {
    const void *vtbl;
    atomic_int refs;
    const char *name;
    const uint8_t *const *iids; // the interfaces it answers, FUnknown's first; NULL-terminated
    struct HostObject *next;
} HostObject;

static HostObject *host_objects;

static void host_object_init(HostObject *object, const void *vtbl, const char *name, const uint8_t *const *iids) {
    object->vtbl = vtbl;
    atomic_store(&object->refs, 1);
    object->name = name;
    object->iids = iids;
    object->next = host_objects;
    host_objects = object;
}

static uint32_t host_add_ref(void *self) { return (uint32_t)(atomic_fetch_add(&((HostObject *)self)->refs, 1) + 1); }
static uint32_t host_release(void *self) {
    HostObject *object = self;
    int left = atomic_fetch_sub(&object->refs, 1) - 1;
    if (left < 1) fprintf(stderr, "vst3host: the plugin released the host's %s once too often (%d)\n", object->name, left);
    return (uint32_t)(left < 0 ? 0 : left);
}
static v3_result host_query(void *self, const v3_tuid iid, void **object);

// The run loop answers through the frame (IRunLoop from IPlugFrame's queryInterface).
static HostObject run_loop_object;

static v3_result host_query(void *self, const v3_tuid iid, void **object) {
    HostObject *host = self;
    if (!object) return V3_INVALID_ARGUMENT;
    for (const uint8_t *const *id = host->iids; *id; id++) {
        if (same_iid(iid, *id)) {
            host_add_ref(host);
            *object = host;
            return V3_OK;
        }
    }
    if (strcmp(host->name, "IPlugFrame") == 0 && same_iid(iid, v3_run_loop_iid)) {
        host_add_ref(&run_loop_object);
        *object = &run_loop_object;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

// IHostApplication
static v3_result application_get_name(void *self, v3_string128 name) {
    (void)self;
    to_utf16("vst3host (ToneShaper tests)", name, 128);
    return V3_OK;
}
static v3_result application_create_instance(void *self, v3_tuid class_id, v3_tuid iid, void **object) {
    (void)self, (void)class_id, (void)iid;
    if (object) *object = NULL;
    return V3_FALSE;
}
static const v3_host_application_vtbl application_vtbl = {host_query, host_add_ref, host_release, application_get_name,
                                                          application_create_instance};
static const uint8_t *const application_iids[] = {v3_funknown_iid, v3_host_application_iid, NULL};
static HostObject application;

// IComponentHandler: what the editor (or the plugin) tells the host.
static atomic_int restarts, edits, edits_outside;
static int live_reports, edit_open[256];
static double last_edit[256];
static int has_last_edit[256];

static v3_result handler_begin(void *self, v3_param_id id) {
    (void)self;
    if (id < 256) edit_open[id]++;
    if (live_reports) printf("out_edit: begin %u\n", id), fflush(stdout);
    return V3_OK;
}
static v3_result handler_perform(void *self, v3_param_id id, v3_param_value value) {
    (void)self;
    atomic_fetch_add(&edits, 1);
    if (id >= 256 || edit_open[id] == 0) atomic_fetch_add(&edits_outside, 1);
    if (id < 256) last_edit[id] = value, has_last_edit[id] = 1;
    if (live_reports) printf("out_edit: perform %u %.9g\n", id, value), fflush(stdout);
    return V3_OK;
}
static v3_result handler_end(void *self, v3_param_id id) {
    (void)self;
    if (id < 256 && edit_open[id] > 0) edit_open[id]--;
    if (live_reports) printf("out_edit: end %u\n", id), fflush(stdout);
    return V3_OK;
}
static v3_result handler_restart(void *self, int32_t flags) {
    (void)self;
    atomic_fetch_add(&restarts, 1);
    if (live_reports) printf("restart: 0x%x\n", flags), fflush(stdout);
    return V3_OK;
}
static const v3_component_handler_vtbl handler_vtbl = {host_query, host_add_ref, host_release, handler_begin, handler_perform, handler_end,
                                                       handler_restart};
static const uint8_t *const handler_iids[] = {v3_funknown_iid, v3_component_handler_iid, NULL};
static HostObject component_handler;

// IBStream over a growing buffer. Reads are given at most 7 bytes at a time: a plugin must
// read until the stream says it has no more.
typedef struct {
    HostObject base;
    unsigned char *bytes;
    int64_t size, capacity, position;
} Stream;

static v3_result stream_read(void *self, void *buffer, int32_t bytes, int32_t *read) {
    Stream *s = self;
    if (!buffer || bytes < 0) return V3_INVALID_ARGUMENT;
    int64_t left = s->size - s->position;
    int32_t n = (int32_t)(left < bytes ? left : bytes);
    if (n > 7) n = 7;
    if (n < 0) n = 0;
    memcpy(buffer, s->bytes + s->position, (size_t)n);
    s->position += n;
    if (read) *read = n;
    return V3_OK;
}
static v3_result stream_write(void *self, void *buffer, int32_t bytes, int32_t *written) {
    Stream *s = self;
    if (!buffer || bytes < 0) return V3_INVALID_ARGUMENT;
    if (s->position + bytes > s->capacity) {
        s->capacity = (s->position + bytes) * 2;
        s->bytes = realloc(s->bytes, (size_t)s->capacity);
    }
    memcpy(s->bytes + s->position, buffer, (size_t)bytes);
    s->position += bytes;
    if (s->position > s->size) s->size = s->position;
    if (written) *written = bytes;
    return V3_OK;
}
static v3_result stream_seek(void *self, int64_t position, int32_t mode, int64_t *result) {
    Stream *s = self;
    int64_t to = mode == V3_SEEK_SET ? position : mode == V3_SEEK_CUR ? s->position + position : mode == V3_SEEK_END ? s->size + position : -1;
    if (to < 0) return V3_INVALID_ARGUMENT;
    s->position = to;
    if (result) *result = to;
    return V3_OK;
}
static v3_result stream_tell(void *self, int64_t *position) {
    if (!position) return V3_INVALID_ARGUMENT;
    *position = ((Stream *)self)->position;
    return V3_OK;
}
static const v3_stream_vtbl stream_vtbl = {host_query, host_add_ref, host_release, stream_read, stream_write, stream_seek, stream_tell};
static const uint8_t *const stream_iids[] = {v3_funknown_iid, v3_stream_iid, NULL};

static Stream *stream_new(const char *name) {
    Stream *s = calloc(1, sizeof *s);
    host_object_init(&s->base, &stream_vtbl, name, stream_iids);
    return s;
}

static Stream *stream_from_file(const char *path, const char *name) {
    FILE *file = fopen(path, "rb");
    if (!file) die("cannot read %s", path);
    Stream *s = stream_new(name);
    unsigned char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) stream_write(s, chunk, (int32_t)got, NULL);
    fclose(file);
    s->position = 0;
    return s;
}

// IParamValueQueue and IParameterChanges: the block's changes (input) and the plugin's (output).
typedef struct {
    HostObject base;
    v3_param_id id;
    int32_t count;
    int32_t offsets[64];
    double values[64];
} Queue;

typedef struct {
    HostObject base;
    Queue queues[64];
    int32_t count;
    int output; // the plugin's list
} Changes;

static v3_param_id queue_id(void *self) { return ((Queue *)self)->id; }
static int32_t queue_count(void *self) { return ((Queue *)self)->count; }
static v3_result queue_get(void *self, int32_t index, int32_t *offset, v3_param_value *value) {
    Queue *q = self;
    if (index < 0 || index >= q->count || !offset || !value) return V3_INVALID_ARGUMENT;
    *offset = q->offsets[index];
    *value = q->values[index];
    return V3_OK;
}
static v3_result queue_add(void *self, int32_t offset, v3_param_value value, int32_t *index) {
    Queue *q = self;
    if (q->count == 64) return V3_OUT_OF_MEMORY;
    q->offsets[q->count] = offset;
    q->values[q->count] = value;
    if (index) *index = q->count;
    q->count++;
    return V3_OK;
}
static const v3_param_queue_vtbl queue_vtbl = {host_query, host_add_ref, host_release, queue_id, queue_count, queue_get, queue_add};
static const uint8_t *const queue_iids[] = {v3_funknown_iid, v3_param_queue_iid, NULL};

static int32_t changes_count(void *self) { return ((Changes *)self)->count; }
static void *changes_get(void *self, int32_t index) {
    Changes *c = self;
    return index >= 0 && index < c->count ? &c->queues[index] : NULL;
}
static Queue *changes_queue(Changes *c, v3_param_id id, int32_t *index) {
    for (int32_t k = 0; k < c->count; k++)
        if (c->queues[k].id == id) {
            if (index) *index = k;
            return &c->queues[k];
        }
    if (c->count == 64) return NULL;
    Queue *q = &c->queues[c->count];
    q->id = id;
    q->count = 0;
    if (index) *index = c->count;
    c->count++;
    return q;
}
static void *changes_add(void *self, const v3_param_id *id, int32_t *index) {
    if (!id) return NULL;
    return changes_queue(self, *id, index);
}
static const v3_param_changes_vtbl changes_vtbl = {host_query, host_add_ref, host_release, changes_count, changes_get, changes_add};
static const uint8_t *const changes_iids[] = {v3_funknown_iid, v3_param_changes_iid, NULL};

static void changes_init(Changes *c, const char *name, int output) {
    host_object_init(&c->base, &changes_vtbl, name, changes_iids);
    c->output = output;
    for (int k = 0; k < 64; k++) host_object_init(&c->queues[k].base, &queue_vtbl, output ? "output IParamValueQueue" : "IParamValueQueue", queue_iids);
}

// IEventList: the block's events (input) and the plugin's (output).
typedef struct {
    HostObject base;
    v3_event *events;
    int32_t count, capacity;
} Events;

static int32_t events_count(void *self) { return ((Events *)self)->count; }
static v3_result events_get(void *self, int32_t index, v3_event *event) {
    Events *e = self;
    if (index < 0 || index >= e->count || !event) return V3_INVALID_ARGUMENT;
    *event = e->events[index];
    return V3_OK;
}
static v3_result events_add(void *self, v3_event *event) {
    Events *e = self;
    if (!event) return V3_INVALID_ARGUMENT;
    if (e->count == e->capacity) {
        e->capacity = e->capacity ? e->capacity * 2 : 64;
        e->events = realloc(e->events, (size_t)e->capacity * sizeof(v3_event));
    }
    e->events[e->count++] = *event;
    return V3_OK;
}
static const v3_event_list_vtbl events_vtbl = {host_query, host_add_ref, host_release, events_count, events_get, events_add};
static const uint8_t *const events_iids[] = {v3_funknown_iid, v3_event_list_iid, NULL};

static v3_event *events_push(Events *e, uint16_t type, int32_t offset) {
    v3_event event;
    memset(&event, 0, sizeof event);
    event.type = type;
    event.sample_offset = offset;
    events_add(e, &event);
    return &e->events[e->count - 1];
}

// ---- the editor's frame and run loop ----------------------------------------------------------

typedef struct {
    void *handler; // ITimerHandler
    double period, due;
} RunLoopTimer;
typedef struct {
    void *handler; // IEventHandler
    int fd;
} RunLoopFd;

static RunLoopTimer loop_timers[16];
static int loop_timer_count, timers_registered;
static RunLoopFd loop_fds[16];
static int loop_fd_count, fds_registered;
static long timer_calls, fd_calls;

static v3_result loop_register_fd(void *self, void *handler, int fd) {
    (void)self;
    if (!handler || fd < 0 || loop_fd_count == 16) return V3_INVALID_ARGUMENT;
    loop_fds[loop_fd_count++] = (RunLoopFd){handler, fd};
    fds_registered++;
    return V3_OK;
}
static v3_result loop_unregister_fd(void *self, void *handler) {
    (void)self;
    int found = 0;
    for (int k = 0; k < loop_fd_count;)
        if (loop_fds[k].handler == handler) loop_fds[k] = loop_fds[--loop_fd_count], found = 1;
        else k++;
    return found ? V3_OK : V3_INVALID_ARGUMENT;
}
static v3_result loop_register_timer(void *self, void *handler, uint64_t milliseconds) {
    (void)self;
    if (!handler || milliseconds == 0 || loop_timer_count == 16) return V3_INVALID_ARGUMENT;
    loop_timers[loop_timer_count++] = (RunLoopTimer){handler, (double)milliseconds / 1000, monotonic() + (double)milliseconds / 1000};
    timers_registered++;
    return V3_OK;
}
static v3_result loop_unregister_timer(void *self, void *handler) {
    (void)self;
    int found = 0;
    for (int k = 0; k < loop_timer_count;)
        if (loop_timers[k].handler == handler) loop_timers[k] = loop_timers[--loop_timer_count], found = 1;
        else k++;
    return found ? V3_OK : V3_INVALID_ARGUMENT;
}
static const v3_run_loop_vtbl run_loop_vtbl = {host_query,         host_add_ref,        host_release,         loop_register_fd,
                                               loop_unregister_fd, loop_register_timer, loop_unregister_timer};
static const uint8_t *const run_loop_iids[] = {v3_funknown_iid, v3_run_loop_iid, NULL};

static Display *gui_display;
static Window gui_parent;
static long resizes;

static v3_result frame_resize_view(void *self, void *view, v3_view_rect *rect) {
    (void)self;
    if (!view || !rect || rect->right <= rect->left || rect->bottom <= rect->top) return V3_INVALID_ARGUMENT;
    int width = rect->right - rect->left, height = rect->bottom - rect->top;
    XResizeWindow(gui_display, gui_parent, (unsigned)width, (unsigned)height);
    XFlush(gui_display);
    v3_result result = VT(view, v3_view_vtbl)->on_size(view, rect);
    if (result == V3_OK) resizes++;
    printf("%s: %dx%d\n", result == V3_OK ? "gui_resized" : "gui_resize_refused", width, height);
    fflush(stdout);
    return result == V3_OK ? V3_OK : V3_FALSE;
}
static const v3_frame_vtbl frame_vtbl = {host_query, host_add_ref, host_release, frame_resize_view};
static const uint8_t *const frame_iids[] = {v3_funknown_iid, v3_frame_iid, NULL};
static HostObject frame;

// ---- the module and its instances ------------------------------------------------------------

typedef struct {
    void *library;
    void *factory;  // IPluginFactory
    void *factory2; // or NULL
    void *factory3; // or NULL
    bool (*module_exit)(void);
} Module;

typedef struct {
    void *component, *processor, *controller, *midi_mapping, *unit_info, *note_expressions;
    int single_component;
    int32_t channels;
    float *buffers[8];
    v3_param_id program_param;
    int32_t program_steps;
    int active, processing;
} Instance;

static int refcount_problems;

/// Releases `object` (an interface the host holds one reference to), and checks the count
/// left when it should be `expected` (-1: not checked).
static uint32_t release_checked(void *object, const char *what, long expected) {
    if (!object) return 0;
    uint32_t left = VT(object, v3_funknown_vtbl)->release(object);
    if (expected >= 0 && (long)left != expected) {
        refcount_problems++;
        printf("refcount_problem: %s released to %u, not %ld\n", what, left, expected);
    }
    return left;
}

static Module load_module(const char *bundle) {
    Module module = {0};
    char path[4096];
    size_t length = strlen(bundle);
    while (length > 1 && bundle[length - 1] == '/') length--;
    if (length > 3 && strncmp(bundle + length - 3, ".so", 3) == 0) {
        snprintf(path, sizeof path, "%.*s", (int)length, bundle);
    } else {
        const char *slash = memrchr(bundle, '/', length);
        const char *name = slash ? slash + 1 : bundle;
        size_t name_length = (size_t)(bundle + length - name);
        if (name_length > 5 && strncmp(name + name_length - 5, ".vst3", 5) == 0) name_length -= 5;
        snprintf(path, sizeof path, "%.*s/Contents/x86_64-linux/%.*s.so", (int)length, bundle, (int)name_length, name);
    }
    module.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!module.library) die("dlopen %s: %s", path, dlerror());
    bool (*module_entry)(void *) = (bool (*)(void *))dlsym(module.library, "ModuleEntry");
    module.module_exit = (bool (*)(void))dlsym(module.library, "ModuleExit");
    void *(*get_factory)(void) = (void *(*)(void))dlsym(module.library, "GetPluginFactory");
    if (!get_factory) die("%s has no GetPluginFactory", path);
    if (!module_entry || !module.module_exit) die("%s has no ModuleEntry or ModuleExit (required on Linux)", path);
    if (!module_entry(module.library)) die("ModuleEntry refused");
    module.factory = get_factory();
    if (!module.factory) die("GetPluginFactory gave no factory");
    const v3_factory_vtbl *f = VT(module.factory, v3_factory_vtbl);
    if (f->query_interface(module.factory, v3_factory2_iid, &module.factory2) != V3_OK) module.factory2 = NULL;
    if (f->query_interface(module.factory, v3_factory3_iid, &module.factory3) != V3_OK) module.factory3 = NULL;
    if (module.factory3) VT(module.factory3, v3_factory_vtbl)->set_host_context(module.factory3, &application);
    return module;
}

/// The index of the class `which` names: mono (the first audio module whose name does not
/// say stereo), stereo (the first whose name does), or a number.
static int32_t find_class(Module *module, const char *which) {
    const v3_factory_vtbl *f = VT(module->factory, v3_factory_vtbl);
    int32_t count = f->count_classes(module->factory);
    if (strspn(which, "0123456789") == strlen(which) && *which) {
        int32_t index = atoi(which);
        if (index >= count) die("class %d: the factory has %d", index, count);
        return index;
    }
    for (int32_t k = 0; k < count; k++) {
        v3_class_info info;
        memset(&info, 0, sizeof info);
        if (f->get_class_info(module->factory, k, &info) != V3_OK) continue;
        if (strcmp(info.category, "Audio Module Class") != 0) continue;
        int stereo = strstr(info.name, "stereo") || strstr(info.name, "Stereo");
        if ((strcmp(which, "stereo") == 0) == (stereo != 0)) return k;
    }
    die("no %s class", which);
    return -1;
}

static void query(void *object, const v3_tuid iid, void **out) {
    if (VT(object, v3_funknown_vtbl)->query_interface(object, iid, out) != V3_OK) *out = NULL;
}

static Instance make_instance(Module *module, int32_t class_index) {
    Instance instance;
    memset(&instance, 0, sizeof instance);
    const v3_factory_vtbl *f = VT(module->factory, v3_factory_vtbl);
    v3_class_info info;
    if (f->get_class_info(module->factory, class_index, &info) != V3_OK) die("getClassInfo %d refused", class_index);
    if (f->create_instance(module->factory, (const char *)info.class_id, (const char *)v3_component_iid, &instance.component) != V3_OK ||
        !instance.component)
        die("createInstance of %s as IComponent refused", info.name);
    const v3_component_vtbl *c = VT(instance.component, v3_component_vtbl);
    if (c->initialize(instance.component, &application) != V3_OK) {
        printf("initialize: refused\n");
        exit(3);
    }
    query(instance.component, v3_processor_iid, &instance.processor);
    if (!instance.processor) die("the component is no IAudioProcessor");
    query(instance.component, v3_controller_iid, &instance.controller);
    instance.single_component = instance.controller != NULL;
    if (!instance.controller) {
        // A controller of its own class, made and initialised apart.
        v3_tuid controller_id;
        if (c->get_controller_class_id(instance.component, controller_id) != V3_OK) die("no controller: neither single-component nor a class id");
        if (f->create_instance(module->factory, (const char *)controller_id, (const char *)v3_controller_iid, &instance.controller) != V3_OK ||
            !instance.controller)
            die("createInstance of the controller refused");
        if (VT(instance.controller, v3_controller_vtbl)->initialize(instance.controller, &application) != V3_OK) die("controller initialize refused");
    }
    const v3_controller_vtbl *e = VT(instance.controller, v3_controller_vtbl);
    if (e->set_component_handler(instance.controller, &component_handler) != V3_OK) die("setComponentHandler refused");
    query(instance.controller, v3_midi_mapping_iid, &instance.midi_mapping);
    query(instance.controller, v3_unit_info_iid, &instance.unit_info);
    query(instance.controller, v3_note_expression_iid, &instance.note_expressions);
    // The output bus's channels, the program-change parameter.
    v3_bus_info bus;
    memset(&bus, 0, sizeof bus);
    if (c->get_bus_count(instance.component, V3_AUDIO, V3_OUTPUT) < 1 || c->get_bus_info(instance.component, V3_AUDIO, V3_OUTPUT, 0, &bus) != V3_OK)
        die("no audio output bus");
    instance.channels = bus.channel_count;
    if (instance.channels < 1 || instance.channels > 8) die("output bus of %d channels", instance.channels);
    instance.program_steps = -1;
    int32_t params = e->get_parameter_count(instance.controller);
    for (int32_t k = 0; k < params; k++) {
        v3_param_info p;
        memset(&p, 0, sizeof p);
        if (e->get_parameter_info(instance.controller, k, &p) == V3_OK && (p.flags & V3_PARAM_PROGRAM_CHANGE)) {
            instance.program_param = p.id;
            instance.program_steps = p.step_count;
        }
    }
    return instance;
}

/// The buses activated, the arrangement set (the output bus's channels), processing set up.
static v3_result prepare_processing(Instance *instance, double rate, int32_t block, int32_t mode) {
    const v3_component_vtbl *c = VT(instance->component, v3_component_vtbl);
    const v3_processor_vtbl *p = VT(instance->processor, v3_processor_vtbl);
    if (c->get_bus_count(instance->component, V3_EVENT, V3_INPUT) > 0) c->activate_bus(instance->component, V3_EVENT, V3_INPUT, 0, 1);
    c->activate_bus(instance->component, V3_AUDIO, V3_OUTPUT, 0, 1);
    v3_speaker_arrangement arrangement = instance->channels == 1 ? V3_SPEAKER_M : instance->channels == 2 ? V3_SPEAKER_L | V3_SPEAKER_R : 0;
    if (p->set_bus_arrangements(instance->processor, NULL, 0, &arrangement, 1) != V3_OK)
        fprintf(stderr, "vst3host: setBusArrangements of its own output arrangement was refused\n");
    v3_process_setup setup = {mode, V3_SAMPLE32, block, rate};
    return p->setup_processing(instance->processor, &setup);
}

static void activate(Instance *instance, double rate, int32_t block, int32_t mode) {
    if (prepare_processing(instance, rate, block, mode) != V3_OK) {
        printf("setup_processing: refused\n");
        exit(3);
    }
    if (VT(instance->component, v3_component_vtbl)->set_active(instance->component, 1) != V3_OK) {
        printf("activate: refused\n");
        exit(3);
    }
    instance->active = 1;
    v3_result processing = VT(instance->processor, v3_processor_vtbl)->set_processing(instance->processor, 1);
    // setProcessing may answer kNotImplemented (the SDK's own components do).
    if (processing != V3_OK && processing != V3_NOT_IMPLEMENTED) die("setProcessing(true) refused (%d)", processing);
    instance->processing = 1;
    for (int k = 0; k < instance->channels; k++) instance->buffers[k] = calloc((size_t)block, sizeof(float));
}

/// The instance ended as a DAW ends it, and every interface released: the component's last
/// release must reach 0.
static void end_instance(Instance *instance, const char *what) {
    if (instance->processing) VT(instance->processor, v3_processor_vtbl)->set_processing(instance->processor, 0);
    if (instance->active) VT(instance->component, v3_component_vtbl)->set_active(instance->component, 0);
    const v3_controller_vtbl *e = VT(instance->controller, v3_controller_vtbl);
    e->set_component_handler(instance->controller, NULL);
    if (!instance->single_component) e->terminate(instance->controller);
    VT(instance->component, v3_component_vtbl)->terminate(instance->component);
    release_checked(instance->note_expressions, "INoteExpressionController", -1);
    release_checked(instance->unit_info, "IUnitInfo", -1);
    release_checked(instance->midi_mapping, "IMidiMapping", -1);
    if (instance->single_component) release_checked(instance->controller, "IEditController", -1);
    else release_checked(instance->controller, "the controller", 0);
    release_checked(instance->processor, "IAudioProcessor", -1);
    char name[128];
    snprintf(name, sizeof name, "the component (%s, last reference)", what);
    uint32_t left = release_checked(instance->component, name, 0);
    printf("component_released_to: %u\n", left);
    for (int k = 0; k < 8; k++) free(instance->buffers[k]);
}

// ---- the description -------------------------------------------------------------------------

static const char *media_name(int32_t type) { return type == V3_AUDIO ? "audio" : type == V3_EVENT ? "event" : "?"; }

static void describe(Module *module, Instance *instance, int32_t class_index) {
    const v3_factory_vtbl *f = VT(module->factory, v3_factory_vtbl);
    v3_factory_info factory_info;
    memset(&factory_info, 0, sizeof factory_info);
    if (f->get_factory_info(module->factory, &factory_info) == V3_OK)
        printf("factory: vendor \"%s\" url \"%s\" email \"%s\" flags 0x%x\n", factory_info.vendor, factory_info.url, factory_info.email,
               factory_info.flags);
    printf("factory_interfaces: 1%s%s\n", module->factory2 ? " 2" : "", module->factory3 ? " 3" : "");
    int32_t count = f->count_classes(module->factory);
    printf("classes: %d\n", count);
    for (int32_t k = 0; k < count; k++) {
        v3_class_info info;
        memset(&info, 0, sizeof info);
        if (f->get_class_info(module->factory, k, &info) != V3_OK) {
            printf("class: %d refused\n", k);
            continue;
        }
        printf("class: %d %s \"%s\" \"%s\" cardinality %d\n", k, hex_id(info.class_id), info.category, info.name, info.cardinality);
        v3_class_info2 info2;
        memset(&info2, 0, sizeof info2);
        if (module->factory2 && VT(module->factory2, v3_factory_vtbl)->get_class_info2(module->factory2, k, &info2) == V3_OK)
            printf("class2: %d flags 0x%x subcategories \"%s\" vendor \"%s\" version \"%s\" sdk \"%s\"\n", k, info2.class_flags,
                   info2.sub_categories, info2.vendor, info2.version, info2.sdk_version);
        v3_class_info_w infow;
        memset(&infow, 0, sizeof infow);
        if (module->factory3 && VT(module->factory3, v3_factory_vtbl)->get_class_info_unicode(module->factory3, k, &infow) == V3_OK)
            printf("class_unicode: %d \"%s\" vendor \"%s\" version \"%s\"\n", k, utf8(infow.name, 64), utf8(infow.vendor, 64),
                   utf8(infow.version, 64));
    }
    printf("selected_class: %d\n", class_index);
    printf("single_component: %d\n", instance->single_component);
    const v3_component_vtbl *c = VT(instance->component, v3_component_vtbl);
    for (int32_t type = V3_AUDIO; type <= V3_EVENT; type++)
        for (int32_t direction = V3_INPUT; direction <= V3_OUTPUT; direction++) {
            int32_t buses = c->get_bus_count(instance->component, type, direction);
            printf("bus_count: %s %s %d\n", media_name(type), direction == V3_INPUT ? "input" : "output", buses);
            for (int32_t b = 0; b < buses; b++) {
                v3_bus_info bus;
                memset(&bus, 0, sizeof bus);
                if (c->get_bus_info(instance->component, type, direction, b, &bus) != V3_OK) continue;
                printf("bus: %s %s %d \"%s\" channels %d type %s flags 0x%x\n", media_name(type), direction == V3_INPUT ? "input" : "output", b,
                       utf8(bus.name, 128), bus.channel_count, bus.bus_type == V3_MAIN_BUS ? "main" : "aux", bus.flags);
            }
        }
    const v3_processor_vtbl *p = VT(instance->processor, v3_processor_vtbl);
    v3_speaker_arrangement arrangement = 0;
    if (p->get_bus_arrangement(instance->processor, V3_OUTPUT, 0, &arrangement) == V3_OK)
        printf("output_arrangement: 0x%llx\n", (unsigned long long)arrangement);
    printf("can_process_32: %d\ncan_process_64: %d\n", p->can_process_sample_size(instance->processor, V3_SAMPLE32) == V3_OK,
           p->can_process_sample_size(instance->processor, V3_SAMPLE64) == V3_OK);
    printf("latency: %u\ntail: %u\n", p->get_latency_samples(instance->processor), p->get_tail_samples(instance->processor));

    const v3_controller_vtbl *e = VT(instance->controller, v3_controller_vtbl);
    int32_t params = e->get_parameter_count(instance->controller);
    int mismatches = 0;
    printf("params: %d\n", params);
    for (int32_t k = 0; k < params; k++) {
        v3_param_info info;
        memset(&info, 0, sizeof info);
        if (e->get_parameter_info(instance->controller, k, &info) != V3_OK) {
            printf("param: index %d refused\n", k);
            continue;
        }
        double value = e->get_param_normalized(instance->controller, info.id);
        printf("param: %u \"%s\" short \"%s\" units \"%s\" steps %d default %.9g value %.9g flags 0x%x unit %d plain %.9g..%.9g", info.id,
               utf8(info.title, 128), utf8(info.short_title, 128), utf8(info.units, 128), info.step_count, info.default_normalized, value,
               info.flags, info.unit_id, e->normalized_param_to_plain(instance->controller, info.id, 0),
               e->normalized_param_to_plain(instance->controller, info.id, 1));
        // Each step of a stepped parameter (at most 20), or 5 points of a real one: the text
        // and the value read each other back.
        int points = info.step_count > 0 ? (info.step_count < 19 ? info.step_count : 19) + 1 : 5;
        for (int q = 0; q < points; q++) {
            double v = info.step_count > 0 ? (double)q / info.step_count : q / 4.0;
            v3_string128 text;
            memset(text, 0, sizeof text);
            double back = NAN;
            if (e->get_param_string_by_value(instance->controller, info.id, v, text) != V3_OK ||
                e->get_param_value_by_string(instance->controller, info.id, text, &back) != V3_OK || !(fabs(back - v) <= 1e-2)) {
                mismatches++;
                printf(" [%g -> \"%s\" -> %g]", v, utf8(text, 128), back);
            } else if (q < 3) {
                printf(" \"%s\"", utf8(text, 128));
            }
        }
        printf("\n");
    }
    printf("text_mismatches: %d\n", mismatches);
    if (instance->program_steps >= 0) printf("program_param: %u steps %d\n", instance->program_param, instance->program_steps);

    if (instance->unit_info) {
        const v3_unit_info_vtbl *u = VT(instance->unit_info, v3_unit_info_vtbl);
        int32_t units = u->get_unit_count(instance->unit_info);
        printf("units: %d\n", units);
        for (int32_t k = 0; k < units; k++) {
            v3_unit_info unit;
            memset(&unit, 0, sizeof unit);
            if (u->get_unit_info(instance->unit_info, k, &unit) == V3_OK)
                printf("unit: %d \"%s\" parent %d program_list %d\n", unit.id, utf8(unit.name, 128), unit.parent_id, unit.program_list_id);
        }
        int32_t lists = u->get_program_list_count(instance->unit_info);
        printf("program_lists: %d\n", lists);
        for (int32_t k = 0; k < lists; k++) {
            v3_program_list_info list;
            memset(&list, 0, sizeof list);
            if (u->get_program_list_info(instance->unit_info, k, &list) != V3_OK) continue;
            printf("program_list: %d \"%s\" programs %d\n", list.id, utf8(list.name, 128), list.program_count);
            for (int32_t q = 0; q < list.program_count; q++) {
                v3_string128 name;
                memset(name, 0, sizeof name);
                if (u->get_program_name(instance->unit_info, list.id, q, name) == V3_OK) printf("program: %d %d \"%s\"\n", list.id, q, utf8(name, 128));
                else printf("program: %d %d refused\n", list.id, q);
            }
        }
    } else {
        printf("units: none (no IUnitInfo)\n");
    }
    if (instance->midi_mapping) {
        int mapped = 0;
        for (int16_t controller = 0; controller <= V3_PROGRAM_CHANGE; controller++) {
            v3_param_id id = 0;
            if (VT(instance->midi_mapping, v3_midi_mapping_vtbl)->get_midi_controller_assignment(instance->midi_mapping, 0, 0, controller, &id) == V3_OK) {
                printf("midi_mapping: %d %u\n", controller, id);
                mapped++;
            }
        }
        printf("midi_mappings: %d\n", mapped);
    } else {
        printf("midi_mappings: none (no IMidiMapping)\n");
    }
    if (instance->note_expressions) {
        const v3_note_expression_vtbl *n = VT(instance->note_expressions, v3_note_expression_vtbl);
        int32_t expressions = n->get_note_expression_count(instance->note_expressions, 0, 0);
        printf("note_expressions: %d\n", expressions);
        for (int32_t k = 0; k < expressions; k++) {
            v3_note_expression_info info;
            memset(&info, 0, sizeof info);
            if (n->get_note_expression_info(instance->note_expressions, 0, 0, k, &info) != V3_OK) continue;
            v3_string128 text;
            memset(text, 0, sizeof text);
            n->get_note_expression_string_by_value(instance->note_expressions, 0, 0, info.type_id, info.value.default_value, text);
            printf("note_expression: %u \"%s\" units \"%s\" default %g min %g max %g steps %d flags 0x%x text \"%s\"\n", info.type_id,
                   utf8(info.title, 128), utf8(info.units, 128), info.value.default_value, info.value.minimum, info.value.maximum,
                   info.value.step_count, info.flags, utf8(text, 128));
        }
    } else {
        printf("note_expressions: none (no INoteExpressionController)\n");
    }
}

// ---- the script ---------------------------------------------------------------------------------

typedef enum { NOTE_ON, NOTE_OFF, PARAM, PITCH_BEND, EXPRESSION, PROGRAM, HOSTILE_EVENTS, SYSEX } Kind;

typedef struct {
    Kind kind;
    long frame;
    int key, note_id, expression, normalized;
    double value;
    v3_param_id id;
    uint8_t *sysex; // SYSEX: its bytes (kept to the end), and how many
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

typedef struct {
    const char *bundle, *which, *out, *save, *load;
    double rate;
    long block, frames, bench_runs;
    int describe, hostile, realtime, gui_window, gui_reopen;
    v3_param_id report_ids[64];
    int report_count;
    int program_before;
    v3_param_id flush_ids[64];
    double flush_values[64];
    int flush_count;
} Options;

static void parse_options(int argc, char **argv, Options *o) {
    memset(o, 0, sizeof *o);
    o->program_before = -1;
    o->which = "mono";
    o->rate = 48000;
    o->block = 256;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEXT (v ? (i++, v) : (die("%s needs a value", a), ""))
        if (!strcmp(a, "--vst3")) o->bundle = NEXT;
        else if (!strcmp(a, "--class")) o->which = NEXT;
        else if (!strcmp(a, "--rate")) o->rate = atof(NEXT);
        else if (!strcmp(a, "--block")) o->block = atol(NEXT);
        else if (!strcmp(a, "--frames")) o->frames = atol(NEXT);
        else if (!strcmp(a, "--out")) o->out = NEXT;
        else if (!strcmp(a, "--save-state")) o->save = NEXT;
        else if (!strcmp(a, "--load-state")) o->load = NEXT;
        else if (!strcmp(a, "--describe")) o->describe = 1;
        else if (!strcmp(a, "--hostile")) o->hostile = 1;
        else if (!strcmp(a, "--realtime")) o->realtime = 1;
        else if (!strcmp(a, "--gui")) o->gui_window = 1;
        else if (!strcmp(a, "--gui-reopen")) o->gui_reopen = atoi(NEXT);
        else if (!strcmp(a, "--bench-runs")) o->bench_runs = atol(NEXT);
        else if (!strcmp(a, "--program-before")) o->program_before = atoi(NEXT);
        else if (!strcmp(a, "--flush")) {
            char number[64];
            unsigned id = 0;
            if (o->flush_count == 64 || sscanf(NEXT, "%u=%63s", &id, number) != 2) die("bad --flush");
            o->flush_ids[o->flush_count] = id;
            o->flush_values[o->flush_count++] = strtod(number, NULL);
        }
        else if (!strcmp(a, "--report-value")) {
            if (o->report_count == 64) die("too many --report-value");
            o->report_ids[o->report_count++] = (v3_param_id)atol(NEXT);
        }
        else if (!strcmp(a, "--note")) {
            long frame = 0, off = -1;
            int key = 0, velocity = 0, note_id = -1;
            if (sscanf(NEXT, "%ld:%d:%d:%ld:%d", &frame, &key, &velocity, &off, &note_id) < 3) die("bad --note");
            Step *on = add_step(NOTE_ON, frame);
            on->key = key, on->value = velocity, on->note_id = note_id;
            if (off >= 0) {
                Step *off_step = add_step(NOTE_OFF, off);
                off_step->key = key, off_step->note_id = note_id;
            }
        } else if (!strcmp(a, "--sysex")) {
            long frame = 0;
            int used = 0;
            const char *text = NEXT;
            if (sscanf(text, "%ld:%n", &frame, &used) != 1 || used == 0) die("bad --sysex");
            size_t length = strlen(text + used) / 2;
            Step *step = add_step(SYSEX, frame);
            step->sysex = malloc(length ? length : 1);
            step->sysex_size = (uint32_t)length;
            for (size_t i = 0; i < length; i++) {
                unsigned byte = 0;
                if (sscanf(text + used + 2 * i, "%2x", &byte) != 1) die("bad --sysex bytes");
                step->sysex[i] = (uint8_t)byte;
            }
        } else if (!strcmp(a, "--param")) {
            unsigned id = 0;
            char number[64];
            long frame = 0;
            if (sscanf(NEXT, "%u=%63[^@]@%ld", &id, number, &frame) != 3) die("bad --param");
            Step *s = add_step(PARAM, frame);
            char *end = NULL;
            s->id = id;
            s->value = strtod(number, &end);
            s->normalized = end && *end == 'n';
        } else if (!strcmp(a, "--pitch-bend")) {
            long frame = 0;
            double value = 0.5;
            if (sscanf(NEXT, "%ld:%lf", &frame, &value) != 2) die("bad --pitch-bend");
            add_step(PITCH_BEND, frame)->value = value;
        } else if (!strcmp(a, "--expression")) {
            long frame = 0;
            int note_id = 0;
            char kind[16];
            double value = 0;
            if (sscanf(NEXT, "%ld:%d:%15[a-z]:%lf", &frame, &note_id, kind, &value) != 4) die("bad --expression");
            Step *s = add_step(EXPRESSION, frame);
            s->note_id = note_id, s->value = value;
            if (!strcmp(kind, "tuning")) s->expression = V3_NOTE_EXPRESSION_TUNING;
            else if (!strcmp(kind, "volume")) s->expression = V3_NOTE_EXPRESSION_VOLUME;
            else die("--expression: tuning or volume, not %s", kind);
        } else if (!strcmp(a, "--program")) {
            int program = 0;
            long frame = 0;
            if (sscanf(NEXT, "%d@%ld", &program, &frame) < 1) die("bad --program");
            add_step(PROGRAM, frame)->value = program;
        } else die("unknown argument %s", a);
#undef NEXT
    }
    if (!o->bundle) die("--vst3 BUNDLE is required");
    if (o->bench_runs > 0) o->frames = (long)o->rate + o->bench_runs * o->block;
    if (o->gui_window) o->realtime = 1;
    if ((!o->gui_window && o->frames <= 0) || o->block <= 0 || o->block > 8192) die("--frames N (and a --block of 1...8192) are required");
    if (o->hostile) add_step(HOSTILE_EVENTS, 300);
}

// ---- the blocks --------------------------------------------------------------------------------

typedef struct {
    const Options *o;
    Instance *instance;
    Changes in_changes, out_changes;
    Events in_events, out_events;
    FILE *wav;
    long wav_frames;
    long nonfinite, out_of_range, first_sound, first_nonzero, stereo_differ;
    float peak;
    double *times;
    long timed, warmup;
    long out_changes_seen;
    double out_last[256];
    int out_has_last[256];
    // Controller updates owed after the block (the values it must follow, as a DAW's
    // automation lane moves the knob after the audio thread played the change).
    struct {
        v3_param_id id;
        double value;
    } follow[64];
    int follow_count;
} Run;

static double normalized_of(Instance *instance, v3_param_id id, double value, int normalized) {
    if (normalized) return value;
    return VT(instance->controller, v3_controller_vtbl)->plain_param_to_normalized(instance->controller, id, value);
}

static void add_change(Run *run, v3_param_id id, int32_t offset, double normalized) {
    Queue *q = changes_queue(&run->in_changes, id, NULL);
    if (!q) die("too many parameters in one block");
    queue_add(q, offset, normalized, NULL);
    if (run->follow_count < 64) run->follow[run->follow_count].id = id, run->follow[run->follow_count++].value = normalized;
}

/// The events --hostile puts in one block: each must be ignored.
static void add_hostile_events(Run *run, int32_t offset) {
    Queue *q = changes_queue(&run->in_changes, 987654, NULL);
    queue_add(q, offset, 0.5, NULL);
    v3_param_info info;
    memset(&info, 0, sizeof info);
    const v3_controller_vtbl *e = VT(run->instance->controller, v3_controller_vtbl);
    for (int32_t k = 0; k < e->get_parameter_count(run->instance->controller); k++) {
        if (e->get_parameter_info(run->instance->controller, k, &info) != V3_OK || (info.flags & (V3_PARAM_PROGRAM_CHANGE | V3_PARAM_READ_ONLY)))
            continue;
        q = changes_queue(&run->in_changes, info.id, NULL);
        queue_add(q, offset, NAN, NULL);
        queue_add(q, offset, INFINITY, NULL);
        break;
    }
    v3_event *event = events_push(&run->in_events, V3_EVENT_NOTE_ON, offset);
    event->note_on.pitch = 200, event->note_on.velocity = 0.8f, event->note_on.note_id = -1;
    event = events_push(&run->in_events, V3_EVENT_NOTE_ON, offset);
    event->note_on.pitch = 69, event->note_on.velocity = NAN, event->note_on.note_id = -1;
    event = events_push(&run->in_events, V3_EVENT_NOTE_EXPRESSION_VALUE, offset);
    event->expression.type_id = V3_NOTE_EXPRESSION_TUNING, event->expression.note_id = 4242, event->expression.value = NAN;
    event = events_push(&run->in_events, 99, offset);
    memset(event->bytes, 0xAB, sizeof event->bytes);
}

static v3_param_id pitch_bend_param(Instance *instance) {
    v3_param_id id = 0;
    if (!instance->midi_mapping ||
        VT(instance->midi_mapping, v3_midi_mapping_vtbl)->get_midi_controller_assignment(instance->midi_mapping, 0, 0, V3_PITCH_BEND, &id) != V3_OK)
        die("no parameter for pitch bend (IMidiMapping, kPitchBend)");
    return id;
}

/// This block's steps into the lists, in time order.
static void add_steps(Run *run, long start, int32_t n) {
    Instance *instance = run->instance;
    for (int32_t t = 0; t < n; t++) {
        for (int s = 0; s < step_count; s++) {
            Step *step = &steps[s];
            if (step->frame != start + t) continue;
            v3_event *event;
            switch (step->kind) {
            case NOTE_ON:
                event = events_push(&run->in_events, V3_EVENT_NOTE_ON, t);
                event->note_on.pitch = (int16_t)step->key;
                event->note_on.velocity = (float)(step->value / 127.0);
                event->note_on.note_id = step->note_id;
                break;
            case NOTE_OFF:
                event = events_push(&run->in_events, V3_EVENT_NOTE_OFF, t);
                event->note_off.pitch = (int16_t)step->key;
                event->note_off.note_id = step->note_id;
                break;
            case EXPRESSION:
                event = events_push(&run->in_events, V3_EVENT_NOTE_EXPRESSION_VALUE, t);
                event->expression.type_id = (uint32_t)step->expression;
                event->expression.note_id = step->note_id;
                event->expression.value = step->value;
                break;
            case PARAM: add_change(run, step->id, t, normalized_of(instance, step->id, step->value, step->normalized)); break;
            case PITCH_BEND: add_change(run, pitch_bend_param(instance), t, step->value); break;
            case PROGRAM:
                if (instance->program_steps <= 0) die("--program: the plugin has no program-change parameter");
                add_change(run, instance->program_param, t, step->value / instance->program_steps);
                break;
            case HOSTILE_EVENTS: add_hostile_events(run, t); break;
            case SYSEX:
                event = events_push(&run->in_events, V3_EVENT_DATA, t);
                event->data.size = step->sysex_size;
                event->data.type = 0; // kMidiSysEx
                event->data.bytes = step->sysex;
                break;
            }
        }
    }
}

static void write_wav_header(FILE *file, int channels, double rate, long frames) {
    uint32_t data = (uint32_t)(frames * channels * 4);
    uint32_t riff = 4 + 8 + 16 + 8 + data;
    uint16_t format = 3, count = (uint16_t)channels, block_align = (uint16_t)(channels * 4), bits = 32;
    uint32_t fmt_size = 16, sample_rate = (uint32_t)rate, byte_rate = (uint32_t)(rate * channels * 4);
    fseek(file, 0, SEEK_SET);
    fwrite("RIFF", 1, 4, file), fwrite(&riff, 4, 1, file), fwrite("WAVEfmt ", 1, 8, file);
    fwrite(&fmt_size, 4, 1, file), fwrite(&format, 2, 1, file), fwrite(&count, 2, 1, file), fwrite(&sample_rate, 4, 1, file);
    fwrite(&byte_rate, 4, 1, file), fwrite(&block_align, 2, 1, file), fwrite(&bits, 2, 1, file);
    fwrite("data", 1, 4, file), fwrite(&data, 4, 1, file);
}

/// One process() call of `n` frames with the run's lists; the output looked at and written.
static void process_block(Run *run, long start, int32_t n) {
    Instance *instance = run->instance;
    v3_audio_buffers output = {instance->channels, 0, {.channels32 = instance->buffers}};
    for (int k = 0; k < instance->channels; k++) memset(instance->buffers[k], 0, (size_t)n * sizeof(float));
    run->out_changes.count = 0;
    run->out_events.count = 0;
    v3_process_data data = {run->o->realtime ? V3_REALTIME : V3_OFFLINE,
                            V3_SAMPLE32,
                            n,
                            0,
                            1,
                            NULL,
                            &output,
                            &run->in_changes,
                            &run->out_changes,
                            &run->in_events,
                            &run->out_events,
                            NULL};
    struct timespec before, after;
    clock_gettime(CLOCK_MONOTONIC, &before);
    v3_result result = VT(instance->processor, v3_processor_vtbl)->process(instance->processor, &data);
    clock_gettime(CLOCK_MONOTONIC, &after);
    if (run->times && start >= run->warmup && run->timed < run->o->bench_runs)
        run->times[run->timed++] = (double)(after.tv_sec - before.tv_sec) * 1e9 + (double)(after.tv_nsec - before.tv_nsec);
    if (result != V3_OK) die("process refused a block at frame %ld (%d)", start, result);
    // The plugin's own parameter changes (after a program change, say).
    for (int32_t k = 0; k < run->out_changes.count; k++) {
        Queue *q = &run->out_changes.queues[k];
        run->out_changes_seen += q->count;
        if (q->count > 0 && q->id < 256) run->out_last[q->id] = q->values[q->count - 1], run->out_has_last[q->id] = 1;
    }
    // The controller follows what was played.
    const v3_controller_vtbl *e = VT(instance->controller, v3_controller_vtbl);
    for (int k = 0; k < run->follow_count; k++) e->set_param_normalized(instance->controller, run->follow[k].id, run->follow[k].value);
    run->follow_count = 0;
    run->in_changes.count = 0;
    run->in_events.count = 0;
    const float *first = instance->buffers[0];
    for (int32_t i = 0; i < n; i++) {
        float x = first[i];
        if (!isfinite(x)) run->nonfinite++;
        else {
            if (fabsf(x) > 1) run->out_of_range++;
            if (fabsf(x) > run->peak) run->peak = fabsf(x);
            if (run->first_sound < 0 && fabsf(x) > 1e-4f) run->first_sound = start + i;
            if (run->first_nonzero < 0 && x != 0) run->first_nonzero = start + i;
        }
        for (int c = 1; c < instance->channels; c++)
            if (instance->buffers[c][i] != x) run->stereo_differ++;
        if (run->wav)
            for (int c = 0; c < instance->channels; c++) fwrite(&instance->buffers[c][i], sizeof(float), 1, run->wav);
    }
    run->wav_frames += n;
}

/// --flush: the parameters (plain) sent in a process call of no samples and no buffers, after
/// activation and before the first block, as a host flushes parameters while not playing; the
/// controller told after it.
static void flush_parameters(Run *run) {
    const Options *o = run->o;
    for (int k = 0; k < o->flush_count; k++) add_change(run, o->flush_ids[k], 0, normalized_of(run->instance, o->flush_ids[k], o->flush_values[k], 0));
    v3_process_data data = {run->o->realtime ? V3_REALTIME : V3_OFFLINE, V3_SAMPLE32, 0, 0, 0, NULL, NULL, &run->in_changes, &run->out_changes,
                            &run->in_events, &run->out_events, NULL};
    v3_result result = VT(run->instance->processor, v3_processor_vtbl)->process(run->instance->processor, &data);
    printf("flushed: %d\n", result == V3_OK);
    const v3_controller_vtbl *e = VT(run->instance->controller, v3_controller_vtbl);
    for (int k = 0; k < run->follow_count; k++) e->set_param_normalized(run->instance->controller, run->follow[k].id, run->follow[k].value);
    run->follow_count = 0;
    run->in_changes.count = 0;
}

static long run_blocks(Run *run) {
    const Options *o = run->o;
    for (long start = 0; start < o->frames; start += o->block) {
        int32_t n = (int32_t)(o->frames - start < o->block ? o->frames - start : o->block);
        add_steps(run, start, n);
        process_block(run, start, n);
    }
    return o->frames;
}

// ---- state ------------------------------------------------------------------------------------

static void save_state(Instance *instance, const char *path) {
    Stream *stream = stream_new("IBStream (getState)");
    if (VT(instance->component, v3_component_vtbl)->get_state(instance->component, stream) != V3_OK) die("getState refused");
    FILE *file = fopen(path, "wb");
    if (!file) die("cannot write %s", path);
    fwrite(stream->bytes, 1, (size_t)stream->size, file);
    fclose(file);
    printf("state_bytes: %lld\n", (long long)stream->size);
}

/// The state into the component, then into the controller (setComponentState), as a DAW
/// restores a project.
static void load_state(Instance *instance, const char *path) {
    Stream *stream = stream_from_file(path, "IBStream (setState)");
    v3_result loaded = VT(instance->component, v3_component_vtbl)->set_state(instance->component, stream);
    printf("state_loaded: %d\n", loaded == V3_OK);
    if (loaded != V3_OK) exit(3);
    stream->position = 0;
    v3_result controller = VT(instance->controller, v3_controller_vtbl)->set_component_state(instance->controller, stream);
    printf("controller_state_loaded: %d\n", controller == V3_OK);
}

// ---- hostile calls -------------------------------------------------------------------------------

static int hostile_tried, hostile_refused;

static void refused(const char *name, int was_refused) {
    hostile_tried++;
    hostile_refused += was_refused != 0;
    printf("hostile: %s %s\n", name, was_refused ? "refused" : "ACCEPTED");
}

static int all_finite(Instance *instance, int32_t n) {
    for (int c = 0; c < instance->channels; c++)
        for (int32_t i = 0; i < n; i++)
            if (!isfinite(instance->buffers[c][i])) return 0;
    return 1;
}

/// Bogus calls on a second instance (see the top of the file).
static void hostile_calls(Module *module, int32_t class_index, const Options *o) {
    static const v3_tuid bogus = V3_UID(0x12345678, 0x9ABCDEF0, 0x0FEDCBA9, 0x87654321);
    const v3_factory_vtbl *f = VT(module->factory, v3_factory_vtbl);
    void *object = (void *)1;
    refused("factory.queryInterface(unknown iid)", f->query_interface(module->factory, bogus, &object) == V3_NO_INTERFACE && object == NULL);
    v3_class_info info;
    refused("factory.getClassInfo(-1)", f->get_class_info(module->factory, -1, &info) != V3_OK);
    refused("factory.getClassInfo(count)", f->get_class_info(module->factory, f->count_classes(module->factory), &info) != V3_OK);
    object = (void *)1;
    refused("factory.createInstance(unknown class)",
            f->create_instance(module->factory, (const char *)bogus, (const char *)v3_component_iid, &object) != V3_OK && object == NULL);
    f->get_class_info(module->factory, class_index, &info);
    object = (void *)1;
    v3_result made = f->create_instance(module->factory, (const char *)info.class_id, (const char *)bogus, &object);
    refused("factory.createInstance(known class, unknown iid)", made != V3_OK && object == NULL);
    if (made == V3_OK && object && object != (void *)1) release_checked(object, "an instance made for an unknown iid", 0);

    Instance scratch = make_instance(module, class_index);
    void *c = scratch.component, *p = scratch.processor, *e = scratch.controller;
    const v3_component_vtbl *cv = VT(c, v3_component_vtbl);
    const v3_processor_vtbl *pv = VT(p, v3_processor_vtbl);
    const v3_controller_vtbl *ev = VT(e, v3_controller_vtbl);
    object = (void *)1;
    refused("component.queryInterface(unknown iid)", cv->query_interface(c, bogus, &object) == V3_NO_INTERFACE && object == NULL);
    object = (void *)1;
    refused("component.queryInterface(IConnectionPoint) of a single component",
            !scratch.single_component || (cv->query_interface(c, v3_connection_point_iid, &object) != V3_OK && object == NULL) ||
                (release_checked(object, "IConnectionPoint", -1), 0));
    v3_bus_info bus;
    refused("getBusInfo(audio, output, 1)", cv->get_bus_info(c, V3_AUDIO, V3_OUTPUT, 1, &bus) != V3_OK);
    refused("getBusInfo(audio, input, 0)", cv->get_bus_info(c, V3_AUDIO, V3_INPUT, 0, &bus) != V3_OK);
    refused("getBusInfo(media 7)", cv->get_bus_info(c, 7, V3_OUTPUT, 0, &bus) != V3_OK);
    refused("activateBus(audio, output, 5)", cv->activate_bus(c, V3_AUDIO, V3_OUTPUT, 5, 1) != V3_OK);
    refused("activateBus(audio, input, 0)", cv->activate_bus(c, V3_AUDIO, V3_INPUT, 0, 1) != V3_OK);
    v3_param_info param;
    int32_t params = ev->get_parameter_count(e);
    refused("getParameterInfo(-1)", ev->get_parameter_info(e, -1, &param) != V3_OK);
    refused("getParameterInfo(count)", ev->get_parameter_info(e, params, &param) != V3_OK);
    memset(&param, 0, sizeof param);
    ev->get_parameter_info(e, 0, &param);
    double before = ev->get_param_normalized(e, param.id);
    refused("setParamNormalized(NaN)", ev->set_param_normalized(e, param.id, NAN) != V3_OK);
    refused("setParamNormalized(infinity)", ev->set_param_normalized(e, param.id, INFINITY) != V3_OK);
    refused("setParamNormalized(1.5)", ev->set_param_normalized(e, param.id, 1.5) != V3_OK);
    refused("setParamNormalized(-0.5)", ev->set_param_normalized(e, param.id, -0.5) != V3_OK);
    refused("setParamNormalized(unknown id)", ev->set_param_normalized(e, 987654, 0.5) != V3_OK);
    double after = ev->get_param_normalized(e, param.id);
    printf("hostile_param_kept: %d (%g then %g)\n", after == before, before, after);
    v3_string128 text;
    refused("getParamStringByValue(unknown id)", ev->get_param_string_by_value(e, 987654, 0.5, text) != V3_OK);
    to_utf16("not a number at all", text, 128);
    double value = 0;
    refused("getParamValueByString(garbage)", ev->get_param_value_by_string(e, param.id, text, &value) != V3_OK);
    printf("hostile_plain_of_nan: %g\n", ev->normalized_param_to_plain(e, param.id, NAN));
    refused("createView(\"nonsense\")", ev->create_view(e, "nonsense") == NULL);
    if (scratch.unit_info) {
        const v3_unit_info_vtbl *u = VT(scratch.unit_info, v3_unit_info_vtbl);
        v3_unit_info unit;
        v3_program_list_info list;
        refused("getUnitInfo(-1)", u->get_unit_info(scratch.unit_info, -1, &unit) != V3_OK);
        refused("getProgramListInfo(99)", u->get_program_list_info(scratch.unit_info, 99, &list) != V3_OK);
        refused("getProgramName(unknown list)", u->get_program_name(scratch.unit_info, 987654, 0, text) != V3_OK);
        memset(&list, 0, sizeof list);
        if (u->get_program_list_info(scratch.unit_info, 0, &list) == V3_OK) {
            refused("getProgramName(program -1)", u->get_program_name(scratch.unit_info, list.id, -1, text) != V3_OK);
            refused("getProgramName(program count)", u->get_program_name(scratch.unit_info, list.id, list.program_count, text) != V3_OK);
        }
    }
    if (scratch.midi_mapping) {
        v3_param_id id = 0;
        refused("getMidiControllerAssignment(controller 300)",
                VT(scratch.midi_mapping, v3_midi_mapping_vtbl)->get_midi_controller_assignment(scratch.midi_mapping, 0, 0, 300, &id) != V3_OK);
        refused("getMidiControllerAssignment(bus 5)",
                VT(scratch.midi_mapping, v3_midi_mapping_vtbl)->get_midi_controller_assignment(scratch.midi_mapping, 5, 0, V3_PITCH_BEND, &id) != V3_OK);
    }
    if (scratch.note_expressions) {
        v3_note_expression_info expression;
        const v3_note_expression_vtbl *n = VT(scratch.note_expressions, v3_note_expression_vtbl);
        refused("getNoteExpressionInfo(-1)", n->get_note_expression_info(scratch.note_expressions, 0, 0, -1, &expression) != V3_OK);
        refused("getNoteExpressionInfo(count)",
                n->get_note_expression_info(scratch.note_expressions, 0, 0, n->get_note_expression_count(scratch.note_expressions, 0, 0), &expression) !=
                    V3_OK);
    }
    // Arrangements the plugin does not have.
    v3_speaker_arrangement wrong = scratch.channels == 1 ? (V3_SPEAKER_L | V3_SPEAKER_R) : V3_SPEAKER_M;
    v3_speaker_arrangement none = 0, surround = 0x3F, two[2] = {V3_SPEAKER_M, V3_SPEAKER_M};
    v3_speaker_arrangement own = scratch.channels == 1 ? V3_SPEAKER_M : V3_SPEAKER_L | V3_SPEAKER_R;
    refused("setBusArrangements(the other class's channels)", pv->set_bus_arrangements(p, NULL, 0, &wrong, 1) != V3_OK);
    refused("setBusArrangements(no channels)", pv->set_bus_arrangements(p, NULL, 0, &none, 1) != V3_OK);
    refused("setBusArrangements(5.1)", pv->set_bus_arrangements(p, NULL, 0, &surround, 1) != V3_OK);
    refused("setBusArrangements(two outputs)", pv->set_bus_arrangements(p, NULL, 0, two, 2) != V3_OK);
    refused("setBusArrangements(an input)", pv->set_bus_arrangements(p, &own, 1, &own, 1) != V3_OK);
    refused("canProcessSampleSize(kSample64)", pv->can_process_sample_size(p, V3_SAMPLE64) != V3_OK);
    refused("canProcessSampleSize(7)", pv->can_process_sample_size(p, 7) != V3_OK);
    // Process before anything was set up: buffers given, the call refused (or at least harmless).
    int32_t block = (int32_t)o->block;
    for (int k = 0; k < scratch.channels; k++) scratch.buffers[k] = calloc((size_t)block, sizeof(float));
    v3_audio_buffers output = {scratch.channels, 0, {.channels32 = scratch.buffers}};
    v3_process_data data = {V3_OFFLINE, V3_SAMPLE32, block, 0, 1, NULL, &output, NULL, NULL, NULL, NULL, NULL};
    refused("process before setupProcessing", pv->process(p, &data) != V3_OK && all_finite(&scratch, block));
    // setActive(true) before setupProcessing is not refused: Ardour 7 makes that call when it
    // reopens a session, and the plugin plays at the default rate and block until set up.
    printf("hostile_early_activation: %s\n", cv->set_active(c, 1) == V3_OK ? "accepted" : "refused");
    cv->set_active(c, 0);
    v3_process_setup setup64 = {V3_OFFLINE, V3_SAMPLE64, block, o->rate};
    refused("setupProcessing(kSample64)", pv->setup_processing(p, &setup64) != V3_OK);
    v3_process_setup setup_nan = {V3_OFFLINE, V3_SAMPLE32, block, NAN};
    refused("setupProcessing(rate NaN)", pv->setup_processing(p, &setup_nan) != V3_OK);
    v3_process_setup setup_zero = {V3_OFFLINE, V3_SAMPLE32, 0, o->rate};
    refused("setupProcessing(maxSamplesPerBlock 0)", pv->setup_processing(p, &setup_zero) != V3_OK);
    if (prepare_processing(&scratch, o->rate, block, V3_OFFLINE) != V3_OK) die("setupProcessing refused on the hostile instance");
    refused("process before setActive", pv->process(p, &data) != V3_OK && all_finite(&scratch, block));
    if (cv->set_active(c, 1) != V3_OK) die("setActive refused on the hostile instance");
    scratch.active = 1;
    v3_process_setup setup = {V3_OFFLINE, V3_SAMPLE32, block, o->rate};
    refused("setupProcessing while active", pv->setup_processing(p, &setup) != V3_OK);
    pv->set_processing(p, 1);
    scratch.processing = 1;
    refused("process(kSample64) when set up for 32", (data.sample_size = V3_SAMPLE64, pv->process(p, &data) != V3_OK));
    data.sample_size = V3_SAMPLE32;
    // A block longer than maxSamplesPerBlock (its buffers that long): refused, or played in
    // pieces, finite.
    float *longer[8] = {0};
    for (int k = 0; k < scratch.channels; k++) longer[k] = calloc((size_t)block + 1, sizeof(float));
    v3_audio_buffers longer_output = {scratch.channels, 0, {.channels32 = longer}};
    data.frames = block + 1;
    data.outputs = &longer_output;
    v3_result longer_result = pv->process(p, &data);
    int longer_finite = 1;
    for (int k = 0; k < scratch.channels; k++)
        for (int32_t i = 0; i <= block; i++) longer_finite = longer_finite && isfinite(longer[k][i]);
    printf("hostile_survived: process(maxSamplesPerBlock + 1) %s%s\n", longer_result == V3_OK ? "accepted" : "refused",
           longer_finite ? "" : " NOT FINITE");
    for (int k = 0; k < scratch.channels; k++) free(longer[k]);
    data.outputs = &output;
    // A bus of one channel fewer than the plugin's (none for mono), its array of channel
    // pointers just that long (then NULL): refused, or played without writing past it.
    float *fewer_channels[9] = {0};
    for (int k = 0; k < scratch.channels - 1; k++) fewer_channels[k] = scratch.buffers[k];
    v3_audio_buffers wrong_channels = {scratch.channels - 1, 0, {.channels32 = fewer_channels}};
    data.frames = block;
    data.outputs = &wrong_channels;
    v3_result fewer = pv->process(p, &data);
    printf("hostile_survived: process(a bus of %d channels) %s\n", scratch.channels - 1, fewer == V3_OK ? "accepted" : "refused");
    data.outputs = &output;
    // Every block size from 1 to the maximum, then zero-length blocks: finite, accepted.
    static Changes changes;
    changes_init(&changes, "IParameterChanges (hostile)", 0);
    static Events events;
    host_object_init(&events.base, &events_vtbl, "IEventList (hostile)", events_iids);
    data.input_params = &changes;
    data.input_events = &events;
    int sizes_ok = 1;
    for (int32_t n = 1; n <= block; n++) {
        events.count = 0;
        if (n == 1) {
            v3_event *on = events_push(&events, V3_EVENT_NOTE_ON, 0);
            on->note_on.pitch = 69, on->note_on.velocity = 0.8f, on->note_on.note_id = -1;
        }
        data.frames = n;
        if (pv->process(p, &data) != V3_OK || !all_finite(&scratch, n)) sizes_ok = 0;
    }
    printf("hostile_block_sizes: 1...%d %s\n", block, sizes_ok ? "ok" : "FAILED");
    data.frames = 0;
    int zero_ok = pv->process(p, &data) == V3_OK;
    data.output_count = 0;
    data.outputs = NULL;
    zero_ok = zero_ok && pv->process(p, &data) == V3_OK;
    printf("hostile_zero_length: %s\n", zero_ok ? "ok" : "FAILED");
    // A parameter flush without buffers (numSamples 0, outputs NULL) with a change in it.
    Queue *q = changes_queue(&changes, param.id, NULL);
    queue_add(q, 0, 0.5, NULL);
    printf("hostile_flush: %s\n", pv->process(p, &data) == V3_OK ? "ok" : "FAILED");
    changes.count = 0;
    end_instance(&scratch, "hostile instance");
    free(events.events);
    printf("hostile_refused: %d of %d\n", hostile_refused, hostile_tried);
}

/// States the playing instance must refuse before it is activated; its sound must stay.
static void hostile_states(Instance *instance) {
    const v3_component_vtbl *c = VT(instance->component, v3_component_vtbl);
    Stream *good = stream_new("IBStream (hostile getState)");
    c->get_state(instance->component, good);
    Stream *empty = stream_new("IBStream (empty)");
    Stream *garbage = stream_new("IBStream (garbage)");
    unsigned char noise[777];
    unsigned seed = 12345;
    for (size_t k = 0; k < sizeof noise; k++) seed = seed * 1103515245u + 12345u, noise[k] = (unsigned char)(seed >> 16);
    stream_write(garbage, noise, sizeof noise, NULL);
    garbage->position = 0;
    Stream *truncated = stream_new("IBStream (truncated)");
    stream_write(truncated, good->bytes, (int32_t)(good->size / 2), NULL);
    truncated->position = 0;
    Stream *foreign = stream_new("IBStream (foreign)");
    stream_write(foreign, "RIFF\x24\x00\x00\x00WAVEfmt ", 16, NULL);
    foreign->position = 0;
    int tried = 0, was_refused = 0;
    struct {
        const char *name;
        Stream *stream;
    } states[] = {{"empty", empty}, {"garbage", garbage}, {"truncated", truncated}, {"foreign", foreign}, {"null", NULL}};
    for (size_t k = 0; k < sizeof states / sizeof states[0]; k++) {
        v3_result result = c->set_state(instance->component, states[k].stream);
        tried++;
        was_refused += result != V3_OK;
        printf("hostile_state: %s %s\n", states[k].name, result != V3_OK ? "refused" : "ACCEPTED");
    }
    printf("hostile_states_refused: %d of %d\n", was_refused, tried);
    printf("hostile_good_state_bytes: %lld\n", (long long)good->size);
}

// ---- the editor ----------------------------------------------------------------------------------

static int x_error(Display *display, XErrorEvent *error) {
    char code[128] = "";
    XGetErrorText(display, error->error_code, code, sizeof code);
    printf("x_error: %s on request %d (resource 0x%lx)\n", code, error->request_code, error->resourceid);
    fflush(stdout);
    return 0;
}

static int x_connection_lost(Display *display) {
    (void)display;
    printf("x_error: the X connection is lost\n");
    fflush(stdout);
    _exit(4);
}

static void gui_prepare(void) {
    XSetErrorHandler(x_error);
    XSetIOErrorHandler(x_connection_lost);
    gui_display = XOpenDisplay(NULL);
    if (!gui_display) die("cannot open the X display (DISPLAY)");
    gui_parent = XCreateSimpleWindow(gui_display, DefaultRootWindow(gui_display), 0, 0, 900, 420, 0, 0, 0);
    XStoreName(gui_display, gui_parent, "vst3host");
    XMapWindow(gui_display, gui_parent);
    XFlush(gui_display);
}

/// The run loop served once: ready descriptors, due timers, the host's own X events.
static void gui_pump(void) {
    for (int k = 0; k < loop_fd_count; k++) {
        struct pollfd ready = {loop_fds[k].fd, POLLIN, 0};
        if (poll(&ready, 1, 0) == 1 && (ready.revents & (POLLIN | POLLERR | POLLHUP))) {
            fd_calls++;
            void *handler = loop_fds[k].handler;
            VT(handler, v3_event_handler_vtbl)->on_fd_is_set(handler, loop_fds[k].fd);
        }
    }
    double now = monotonic();
    for (int k = 0; k < loop_timer_count; k++) {
        if (now < loop_timers[k].due) continue;
        loop_timers[k].due = now + loop_timers[k].period;
        void *handler = loop_timers[k].handler;
        timer_calls++;
        VT(handler, v3_timer_handler_vtbl)->on_timer(handler);
    }
    while (gui_display && XPending(gui_display)) {
        XEvent event;
        XNextEvent(gui_display, &event);
    }
}

static void gui_pump_ticks(long ticks) {
    long until = timer_calls + ticks;
    while (timer_calls < until) {
        if (loop_timer_count == 0) die("the editor registered no timer with the run loop");
        gui_pump();
        if (timer_calls < until) usleep(1000);
    }
}

/// createView, setFrame, the size taken by the parent, attached.
static void *gui_open(Instance *instance) {
    void *view = VT(instance->controller, v3_controller_vtbl)->create_view(instance->controller, "editor");
    if (!view) die("createView(\"editor\") gave no view");
    const v3_view_vtbl *v = VT(view, v3_view_vtbl);
    if (v->is_platform_type_supported(view, V3_VIEW_TYPE_X11) != V3_OK) die("the view does not support %s", V3_VIEW_TYPE_X11);
    if (v->set_frame(view, &frame) != V3_OK) die("setFrame refused");
    v3_view_rect rect = {0, 0, 0, 0};
    if (v->get_size(view, &rect) != V3_OK || rect.right <= rect.left || rect.bottom <= rect.top) die("getSize refused");
    XResizeWindow(gui_display, gui_parent, (unsigned)(rect.right - rect.left), (unsigned)(rect.bottom - rect.top));
    XSync(gui_display, False);
    if (v->attached(view, (void *)(uintptr_t)gui_parent, V3_VIEW_TYPE_X11) != V3_OK) die("attached refused");
    XFlush(gui_display);
    printf("gui_size: %dx%d\n", rect.right - rect.left, rect.bottom - rect.top);
    fflush(stdout);
    return view;
}

/// removed, setFrame(NULL), the last release (which must reach 0).
static void gui_close(void *view) {
    const v3_view_vtbl *v = VT(view, v3_view_vtbl);
    if (v->removed(view) != V3_OK) printf("gui_removed: refused\n");
    v->set_frame(view, NULL);
    release_checked(view, "IPlugView", 0);
}

static void gui_reopen_check(Instance *instance, const Options *o) {
    int before = open_fds();
    long first_kb = 0, half_kb = 0, resident_before = resident_kb();
    for (int r = 0; r < o->gui_reopen; r++) {
        if (r == 1) first_kb = resident_kb();
        if (r == o->gui_reopen / 2) half_kb = resident_kb();
        void *view = gui_open(instance);
        gui_pump_ticks(5);
        gui_close(view);
    }
    printf("gui_resident_kb: before %ld, after the first window %ld, after half %ld, after all %ld\n", resident_before, first_kb, half_kb,
           resident_kb());
    printf("gui_reopened: %d\ngui_fds_before: %d\ngui_fds_after: %d\n", o->gui_reopen, before, open_fds());
    printf("gui_timers_live: %d\ngui_fds_watched: %d\ntimers_registered: %d\nfds_registered: %d\n", loop_timer_count, loop_fd_count,
           timers_registered, fds_registered);
    fflush(stdout);
}

typedef struct {
    char line[512];
    size_t length;
    int ended, quit;
    struct {
        v3_param_id id;
        double value;
    } params[64];
    int param_count;
    struct {
        long until, asked;
    } ticks[16];
    int tick_count;
} Commands;

static void command(Commands *c, char *line) {
    while (*line == ' ' || *line == '\t') line++;
    size_t length = strlen(line);
    while (length && (line[length - 1] == ' ' || line[length - 1] == '\r')) line[--length] = 0;
    unsigned id = 0;
    char number[64];
    long ticks = 0;
    if (length == 0) return;
    if (!strcmp(line, "quit")) c->quit = 1;
    else if (sscanf(line, "param %u=%63s", &id, number) == 2 && c->param_count < 64) {
        c->params[c->param_count].id = id;
        c->params[c->param_count++].value = strtod(number, NULL);
    } else if (sscanf(line, "ticks %ld", &ticks) == 1 && ticks >= 0 && c->tick_count < 16) {
        c->ticks[c->tick_count].until = timer_calls + ticks;
        c->ticks[c->tick_count++].asked = ticks;
    } else printf("command_refused: %s\n", line);
    fflush(stdout);
}

static void read_commands(Commands *c) {
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
            command(c, c->line);
        }
    }
    if (c->length) {
        c->line[c->length] = 0;
        c->length = 0;
        command(c, c->line);
    }
}

/// The editor open while the plugin plays in real time, until standard input says quit or ends.
static long run_window(Run *run) {
    const Options *o = run->o;
    live_reports = 1;
    void *view = gui_open(run->instance);
    v3_view_rect rect = {0, 0, 0, 0};
    VT(view, v3_view_vtbl)->get_size(view, &rect);
    printf("gui_shown: %dx%d\n", rect.right - rect.left, rect.bottom - rect.top);
    fflush(stdout);
    Commands commands;
    memset(&commands, 0, sizeof commands);
    double origin = monotonic();
    long start = 0;
    while (!commands.quit && !commands.ended) {
        double due = origin + (double)start / o->rate;
        for (;;) {
            gui_pump();
            read_commands(&commands);
            for (int k = 0; k < commands.tick_count;) {
                if (timer_calls < commands.ticks[k].until) {
                    k++;
                    continue;
                }
                printf("ticked: %ld\n", commands.ticks[k].asked);
                fflush(stdout);
                commands.ticks[k] = commands.ticks[--commands.tick_count];
            }
            if (commands.quit || commands.ended || monotonic() >= due) break;
            usleep(1000);
        }
        if (commands.quit || commands.ended) break;
        add_steps(run, start, (int32_t)o->block);
        int sent = commands.param_count;
        for (int k = 0; k < sent; k++) add_change(run, commands.params[k].id, 0, normalized_of(run->instance, commands.params[k].id, commands.params[k].value, 0));
        commands.param_count = 0;
        process_block(run, start, (int32_t)o->block);
        for (int k = 0; k < sent; k++) printf("param_sent: %u %.9g\n", commands.params[k].id, commands.params[k].value);
        fflush(stdout);
        start += o->block;
    }
    gui_close(view);
    live_reports = 0;
    printf("gui_timers_live: %d\ngui_fds_watched: %d\ntimer_calls: %ld\nfd_calls: %ld\nresizes: %ld\n", loop_timer_count, loop_fd_count, timer_calls,
           fd_calls, resizes);
    return start;
}

// ---- the reports ---------------------------------------------------------------------------------

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

int main(int argc, char **argv) {
    static Options o;
    parse_options(argc, argv, &o);
    if (o.gui_window) setvbuf(stdout, NULL, _IOLBF, 0);
    host_object_init(&application, &application_vtbl, "IHostApplication", application_iids);
    host_object_init(&component_handler, &handler_vtbl, "IComponentHandler", handler_iids);
    host_object_init(&frame, &frame_vtbl, "IPlugFrame", frame_iids);
    host_object_init(&run_loop_object, &run_loop_vtbl, "IRunLoop", run_loop_iids);

    Module module = load_module(o.bundle);
    int32_t class_index = find_class(&module, o.which);
    if (o.hostile) hostile_calls(&module, class_index, &o);
    static Instance instance;
    instance = make_instance(&module, class_index);
    if (o.describe) describe(&module, &instance, class_index);
    if (o.hostile) hostile_states(&instance);
    if (o.load) load_state(&instance, o.load);
    if (o.program_before >= 0) {
        if (instance.program_steps <= 0) die("--program-before: the plugin has no program-change parameter");
        v3_result chosen = VT(instance.controller, v3_controller_vtbl)
                               ->set_param_normalized(instance.controller, instance.program_param, (double)o.program_before / instance.program_steps);
        printf("program_before_set: %d\n", chosen == V3_OK);
    }
    if (o.gui_reopen > 0 || o.gui_window) gui_prepare();
    if (o.gui_reopen > 0) gui_reopen_check(&instance, &o);
    activate(&instance, o.rate, (int32_t)o.block, o.realtime ? V3_REALTIME : V3_OFFLINE);

    static Run run;
    run.o = &o;
    run.instance = &instance;
    run.first_sound = run.first_nonzero = -1;
    run.warmup = (long)o.rate;
    changes_init(&run.in_changes, "IParameterChanges (input)", 0);
    changes_init(&run.out_changes, "IParameterChanges (output)", 1);
    host_object_init(&run.in_events.base, &events_vtbl, "IEventList (input)", events_iids);
    host_object_init(&run.out_events.base, &events_vtbl, "IEventList (output)", events_iids);
    if (o.out) {
        run.wav = fopen(o.out, "wb");
        if (!run.wav) die("cannot write %s", o.out);
        write_wav_header(run.wav, instance.channels, o.rate, 0);
    }
    run.times = o.bench_runs > 0 ? calloc((size_t)o.bench_runs, sizeof(double)) : NULL;
    if (o.flush_count) flush_parameters(&run);
    long frames = o.gui_window ? run_window(&run) : run_blocks(&run);
    if (run.wav) {
        write_wav_header(run.wav, instance.channels, o.rate, run.wav_frames);
        fclose(run.wav);
    }
    if (o.save) save_state(&instance, o.save);
    if (run.times) report_bench(&run);
    printf("out_param_changes: %ld\n", run.out_changes_seen);
    const v3_controller_vtbl *e = VT(instance.controller, v3_controller_vtbl);
    for (int k = 0; k < o.report_count; k++) {
        double normalized = e->get_param_normalized(instance.controller, o.report_ids[k]);
        printf("value_%u: %.9g (normalized %.9g)\n", o.report_ids[k], e->normalized_param_to_plain(instance.controller, o.report_ids[k], normalized),
               normalized);
    }
    for (int k = 0; k < 256; k++)
        if (run.out_has_last[k]) printf("out_last_%d: %.9g\n", k, run.out_last[k]);
    for (int k = 0; k < 256; k++)
        if (has_last_edit[k]) printf("edit_last_%d: %.9g\n", k, last_edit[k]);
    printf("frames: %ld\nchannels: %d\npeak: %g\nnonfinite: %ld\nout_of_range: %ld\nfirst_sound: %ld\nfirst_nonzero: %ld\nstereo_differ: %ld\n", frames,
           instance.channels, run.peak, run.nonfinite, run.out_of_range, run.first_sound, run.first_nonzero, run.stereo_differ);
    printf("restarts: %d\nedits: %d\nedits_outside_gesture: %d\n", atomic_load(&restarts), atomic_load(&edits), atomic_load(&edits_outside));

    end_instance(&instance, "playing instance");
    if (module.factory3) release_checked(module.factory3, "IPluginFactory3", -1);
    if (module.factory2) release_checked(module.factory2, "IPluginFactory2", -1);
    uint32_t factory_left = release_checked(module.factory, "IPluginFactory", -1);
    printf("factory_released_to: %u\n", factory_left);
    printf("module_exit: %d\n", module.module_exit() ? 1 : 0);
    int leaked = 0;
    for (HostObject *object = host_objects; object; object = object->next) {
        int refs = atomic_load(&object->refs);
        if (refs != 1) {
            leaked++;
            printf("host_ref: %s holds %d\n", object->name, refs - 1);
        }
    }
    printf("host_refs_leaked: %d\nrefcount_problems: %d\n", leaked, refcount_problems);
    if (gui_display) XCloseDisplay(gui_display);
    dlclose(module.library);
    return run.nonfinite || run.out_of_range ? 2 : 0;
}
