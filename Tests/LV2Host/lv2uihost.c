// lv2uihost: a small LV2 host with editor windows, for the editor's tests (under Xvfb). It
// loads the plugin (toneshaper.so) and its UI (toneshaper_ui.so) from a bundle, runs one
// or more plugin instances on an audio thread of its own (256-frame blocks at 48 kHz, in
// real time, the worker's jobs done after each run()), opens an editor window for each,
// and passes what the windows write to the plugin (ports, atoms) and what the plugin
// writes on its notify port to the windows, as a host does.
//
//   lv2uihost BUNDLE --audio INDEX --controls "INDEX=VALUE,..." [--instances N]
//             [--reopen K] [--hostile] [--points N] [--redraws R] [--seconds S] [--scale F]
//             [--inline OUT.png] [--document FILE] [--descriptor I]
//
// --reopen K: each window is closed and opened again K times while the plugin plays.
// --hostile: malformed patch messages, NaN and infinite port values, unknown ports and
//   empty buffers are given to each window's port_event, and it is idled after each.
// --points N: a curve of N points (a patch:Set as the plugin sends it) is given to the
//   first window R times (--redraws), each redrawn (TONESHAPER_UI_TIMING=1 prints the time).
// --descriptor I: the plugin's descriptor I (0 mono, 1 stereo; its right output is left
//   unconnected).
// --document FILE: once the windows are open, the first plugin is given FILE as a host
//   gives a file parameter (patch:Set of urn:toneshaper:file to an atom:Path), so its
//   window must follow the new curve.
// --inline OUT.png: the host offers Ardour's inline display (queue_draw), and at the end
//   asks the first plugin for its 160-pixel-wide picture, written as a PNG; prints its size,
//   how often the plugin asked for a redraw and how many pixels hold the curve's color.
// --commands: once the windows are open, they are idled while standard input gives commands,
//   one a line, each answered on standard output: "controls" prints "controls: I=V,..." (the
//   control ports' values as the host holds them, the window's writes included), "save FILE"
//   writes the first plugin's state document (state:interface save) to FILE and prints
//   "state_saved: FILE"; "quit" or the end of the input goes on to the end.
// --seconds S: how long the plugin plays at the end, counted in the host's blocks (its own
//   timeline), not on the clock.
// Every step waits for what it needs to have happened, never for a time: a window opened
// (or given a document) is idled until the plugin's answer with the curve (a patch:Set of
// urn:toneshaper:points on its notify port) has reached it and it has drawn; a busy machine
// only makes that take longer. A step whose event does not come within 120 s ends the host
// with a message that names it (status 3).
// Prints the output's peak and whether every sample was finite, and the resident memory
// (VmRSS) before the windows open, with them open, and after the reopening. Exit status 0
// when the plugin played finite samples throughout.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/patch/patch.h>
#include <lv2/state/state.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <cairo/cairo.h>

// Ardour's inline display, declared as Ardour defines it (not in lv2-dev).
typedef struct {
    unsigned char *data;
    int width, height, stride;
} InlineSurface;
typedef struct {
    InlineSurface *(*render)(LV2_Handle instance, uint32_t width, uint32_t max_height);
} InlineInterface;
typedef struct {
    void *handle;
    void (*queue_draw)(void *handle);
} InlineQueue;
static _Atomic int queue_draws;
static void queue_draw(void *handle) {
    (void)handle;
    atomic_fetch_add(&queue_draws, 1);
}

#define BLOCK 256
#define RATE 48000.0
#define ATOM_CAPACITY 65536
#define MAX_PORTS 64
#define MAX_INSTANCES 8

static void die(const char *message) {
    fprintf(stderr, "lv2uihost: %s\n", message);
    exit(3);
}

// URIDs, shared by the plugin and the windows (mapped from both threads).
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static char *uris[4096];
static uint32_t uri_count;
static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    pthread_mutex_lock(&map_lock);
    for (uint32_t i = 0; i < uri_count; i++)
        if (strcmp(uris[i], uri) == 0) {
            pthread_mutex_unlock(&map_lock);
            return i + 1;
        }
    if (uri_count == 4096) die("too many URIs");
    uris[uri_count++] = strdup(uri);
    uint32_t id = uri_count;
    pthread_mutex_unlock(&map_lock);
    return id;
}
static LV2_URID_Map map = {NULL, map_uri};
static LV2_URID urid(const char *uri) { return map_uri(NULL, uri); }

// A byte queue of messages (port, format, size, bytes), under a lock (a test host).
typedef struct {
    pthread_mutex_t lock;
    unsigned char *bytes;
    size_t used, capacity;
} Queue;
static void queue_push(Queue *q, uint32_t port, uint32_t format, uint32_t size, const void *data) {
    pthread_mutex_lock(&q->lock);
    size_t need = 12 + ((size + 7) & ~7u);
    if (q->used + need > q->capacity) {
        q->capacity = (q->used + need) * 2;
        q->bytes = realloc(q->bytes, q->capacity);
    }
    memcpy(q->bytes + q->used, &port, 4);
    memcpy(q->bytes + q->used + 4, &format, 4);
    memcpy(q->bytes + q->used + 8, &size, 4);
    memcpy(q->bytes + q->used + 12, data, size);
    q->used += need;
    pthread_mutex_unlock(&q->lock);
}
// Moves the queue's messages into *out (its own buffer), leaving the queue empty.
static size_t queue_take(Queue *q, unsigned char **out, size_t *capacity) {
    pthread_mutex_lock(&q->lock);
    size_t used = q->used;
    if (used > *capacity) {
        *capacity = used;
        *out = realloc(*out, used);
    }
    if (used) memcpy(*out, q->bytes, used);
    q->used = 0;
    pthread_mutex_unlock(&q->lock);
    return used;
}

typedef struct {
    const LV2_Descriptor *descriptor;
    LV2_Handle handle;
    const LV2_Worker_Interface *worker;
    float controls[MAX_PORTS];
    _Atomic int control_changed[MAX_PORTS];
    float written[MAX_PORTS];
    float *out;
    LV2_Atom_Sequence *control, *notify;
    Queue to_plugin, to_ui;
    Queue work;
    // The window.
    LV2UI_Handle ui;
    const LV2UI_Idle_Interface *idle;
    int ui_width, ui_height;
    // How many of the plugin's curves (patch:Set of urn:toneshaper:points) the window was given.
    long curves_delivered;
    LV2_Worker_Schedule schedule;
} Instance;

static Instance instances[MAX_INSTANCES];
static int instance_count = 1;
static _Atomic int running = 1;
static _Atomic int all_finite = 1;
static _Atomic long blocks;
static float peak;
static LV2_URID atom_sequence, atom_event_transfer, atom_object, atom_vector, atom_double, atom_urid, atom_int, patch_set, patch_property,
    patch_value, points_uri;

static LV2_Worker_Status schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size, const void *data) {
    queue_push(&((Instance *)handle)->work, 0, 0, size, data);
    return LV2_WORKER_SUCCESS;
}
static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    Instance *instance = handle;
    return instance->worker->work_response(instance->handle, size, data);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// The audio thread: every instance's block in real time, the UI's messages in, the
// notify port's events out, then the worker's jobs.
static void *audio_thread(void *argument) {
    (void)argument;
    unsigned char *scratch = NULL, *jobs = NULL;
    size_t scratch_capacity = 0, jobs_capacity = 0;
    double next = now();
    while (atomic_load(&running)) {
        for (int k = 0; k < instance_count; k++) {
            Instance *in = &instances[k];
            for (int p = 0; p < MAX_PORTS; p++)
                if (atomic_exchange(&in->control_changed[p], 0)) in->controls[p] = in->written[p];
            // The control sequence: what the window sent since the last block.
            in->control->atom.type = atom_sequence;
            in->control->atom.size = sizeof(LV2_Atom_Sequence_Body);
            in->control->body.unit = 0;
            in->control->body.pad = 0;
            size_t used = queue_take(&in->to_plugin, &scratch, &scratch_capacity);
            for (size_t offset = 0; offset < used;) {
                uint32_t size;
                memcpy(&size, scratch + offset + 8, 4);
                const LV2_Atom *atom = (const LV2_Atom *)(scratch + offset + 12);
                uint32_t event_size = sizeof(LV2_Atom_Event) + ((atom->size + 7) & ~7u);
                if (sizeof(LV2_Atom) + in->control->atom.size + event_size <= ATOM_CAPACITY && size >= sizeof(LV2_Atom)) {
                    LV2_Atom_Event *event = (LV2_Atom_Event *)((char *)LV2_ATOM_CONTENTS(LV2_Atom_Sequence, in->control) + in->control->atom.size -
                                                              sizeof(LV2_Atom_Sequence_Body));
                    event->time.frames = 0;
                    memcpy(&event->body, atom, sizeof(LV2_Atom) + atom->size);
                    in->control->atom.size += event_size;
                }
                offset += 12 + ((size + 7) & ~7u);
            }
            in->notify->atom.type = 0;
            in->notify->atom.size = ATOM_CAPACITY - sizeof(LV2_Atom);
            in->descriptor->run(in->handle, BLOCK);
            for (int i = 0; i < BLOCK; i++) {
                float v = in->out[i];
                if (!isfinite(v)) atomic_store(&all_finite, 0);
                else if (fabsf(v) > peak) peak = fabsf(v);
            }
            LV2_ATOM_SEQUENCE_FOREACH(in->notify, event) {
                queue_push(&in->to_ui, 1, atom_event_transfer, sizeof(LV2_Atom) + event->body.size, &event->body);
            }
            // The worker, after the block (as a host with a synchronous worker does).
            size_t job_bytes = queue_take(&in->work, &jobs, &jobs_capacity);
            for (size_t offset = 0; offset < job_bytes;) {
                uint32_t size;
                memcpy(&size, jobs + offset + 8, 4);
                if (in->worker) in->worker->work(in->handle, respond, in, size, jobs + offset + 12);
                offset += 12 + ((size + 7) & ~7u);
            }
            if (in->worker && in->worker->end_run) in->worker->end_run(in->handle);
        }
        atomic_fetch_add(&blocks, 1);
        next += BLOCK / RATE;
        double wait = next - now();
        if (wait > 0) usleep((useconds_t)(wait * 1e6));
    }
    free(scratch);
    free(jobs);
    return NULL;
}

// The window's write_function: a port's value, or an atom for the plugin's control port.
static void ui_write(LV2UI_Controller controller, uint32_t port, uint32_t size, uint32_t format, const void *buffer) {
    Instance *in = controller;
    if (format == 0) {
        if (port < MAX_PORTS && size == 4) {
            memcpy(&in->written[port], buffer, 4);
            atomic_store(&in->control_changed[port], 1);
        }
    } else if (format == atom_event_transfer && port == 0) {
        queue_push(&in->to_plugin, port, format, size, buffer);
    }
}

static int ui_resize(LV2UI_Feature_Handle handle, int width, int height) {
    Instance *in = handle;
    in->ui_width = width;
    in->ui_height = height;
    return 0;
}

static const LV2UI_Descriptor *ui_descriptor;
static float scale = 1;

static void open_window(Instance *in) {
    LV2_URID float_type = urid(LV2_ATOM__Float);
    LV2_Options_Option options[] = {
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_UI__scaleFactor), sizeof(float), float_type, &scale},
        {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
    };
    LV2UI_Resize resize = {in, ui_resize};
    LV2_Feature map_feature = {LV2_URID__map, &map};
    LV2_Feature resize_feature = {LV2_UI__resize, &resize};
    LV2_Feature options_feature = {LV2_OPTIONS__options, options};
    LV2_Feature idle_feature = {LV2_UI__idleInterface, NULL};
    const LV2_Feature *features[] = {&map_feature, &resize_feature, &options_feature, &idle_feature, NULL};
    LV2UI_Widget widget = NULL;
    in->ui = ui_descriptor->instantiate(ui_descriptor, in->descriptor->URI, "", ui_write, in, &widget, features);
    if (!in->ui) die("the UI did not instantiate (is DISPLAY set?)");
    in->idle = ui_descriptor->extension_data ? ui_descriptor->extension_data(LV2_UI__idleInterface) : NULL;
    if (!in->idle) die("the UI has no ui:idleInterface");
}

static void close_window(Instance *in) {
    ui_descriptor->cleanup(in->ui);
    in->ui = NULL;
}

// Whether an atom is the plugin's curve: an object patch:Set whose patch:property is
// urn:toneshaper:points (the message the window draws the curve from).
static int is_curve(const unsigned char *atom, uint32_t size) {
    uint32_t w[12];
    if (size < sizeof w) return 0;
    memcpy(w, atom, sizeof w);
    return w[1] == atom_object && w[3] == patch_set && w[4] == patch_property && w[7] == atom_urid && w[8] == points_uri;
}

// The notify port's messages to the window, then its idle.
static void idle_window(Instance *in, unsigned char **scratch, size_t *capacity) {
    size_t used = queue_take(&in->to_ui, scratch, capacity);
    for (size_t offset = 0; offset < used;) {
        uint32_t port, format, size;
        memcpy(&port, *scratch + offset, 4);
        memcpy(&format, *scratch + offset + 4, 4);
        memcpy(&size, *scratch + offset + 8, 4);
        const unsigned char *atom = *scratch + offset + 12;
        ui_descriptor->port_event(in->ui, port, size, format, atom);
        if (is_curve(atom, size)) in->curves_delivered++;
        offset += 12 + ((size + 7) & ~7u);
    }
    in->idle->idle(in->ui);
}

#define DEADLINE_SECONDS 120.0

// Idles every window (its messages from the plugin in, then its idle) until `done` says so;
// ends the host, naming `what`, if that has not happened within DEADLINE_SECONDS.
static void idle_until(int (*done)(void *), void *context, const char *what) {
    static unsigned char *scratch;
    static size_t capacity;
    double deadline = now() + DEADLINE_SECONDS;
    for (;;) {
        for (int k = 0; k < instance_count; k++) idle_window(&instances[k], &scratch, &capacity);
        if (done(context)) return;
        if (now() > deadline) {
            fprintf(stderr, "lv2uihost: %s did not happen within %.0f s\n", what, DEADLINE_SECONDS);
            exit(3);
        }
        usleep(2000);
    }
}

static int played_enough(void *context) { return atomic_load(&blocks) >= *(long *)context; }

// The windows idled while the plugin plays `count` more blocks (the host's own timeline).
static void play_blocks(long count) {
    long until = atomic_load(&blocks) + count;
    idle_until(played_enough, &until, "the plugin's blocks");
}

typedef struct {
    long curves[MAX_INSTANCES];
    int first, last;
} CurveMark;

static int curves_arrived(void *context) {
    CurveMark *mark = context;
    for (int k = mark->first; k < mark->last; k++)
        if (instances[k].curves_delivered <= mark->curves[k]) return 0;
    return 1;
}

// Marks how many curves windows first..<last have been given, for wait_for_curves.
static CurveMark mark_curves(int first, int last) {
    CurveMark mark = {.first = first, .last = last};
    for (int k = first; k < last; k++) mark.curves[k] = instances[k].curves_delivered;
    return mark;
}

// Idles until each window of `mark` has been given a curve since the mark, and has drawn it
// (the idle after the curve's message redraws).
static void wait_for_curves(CurveMark mark, const char *what) {
    idle_until(curves_arrived, &mark, what);
    play_blocks(2);
}

static long resident_kb(void) {
    FILE *file = fopen("/proc/self/status", "r");
    if (!file) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, file))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
    fclose(file);
    return kb;
}

// A patch:Set of the points, as the plugin sends it, into a malloc'd atom (size in *size).
static LV2_Atom *points_message(int count, double duration, uint32_t *size) {
    uint32_t numbers = (uint32_t)count * 2;
    uint32_t object_size = 8 + 24 + 16 + 8 + 8 * numbers;
    *size = 8 + object_size;
    uint32_t *w = calloc(1, *size);
    w[0] = object_size;
    w[1] = atom_object;
    w[2] = 0;
    w[3] = patch_set;
    w[4] = patch_property;
    w[6] = 4;
    w[7] = atom_urid;
    w[8] = points_uri;
    w[10] = patch_value;
    w[12] = 8 + 8 * numbers;
    w[13] = atom_vector;
    w[14] = 8;
    w[15] = atom_double;
    double *d = (double *)(w + 16);
    uint64_t seed = 12345;
    double f = 220;
    for (int i = 0; i < count; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double step = ((double)(seed >> 11) / 9007199254740992.0 - 0.5) * 0.02;
        f = fmin(fmax(f * exp(step), 110), 440);
        d[2 * i] = duration * i / count;
        d[2 * i + 1] = f;
    }
    return (LV2_Atom *)w;
}

static void hostile(Instance *in) {
    unsigned char *scratch = NULL;
    size_t capacity = 0;
    uint32_t size;
    LV2_Atom *good = points_message(10, 1, &size);
    unsigned char *bytes = (unsigned char *)good;
    // Cut short at every length.
    for (uint32_t cut = 0; cut < size; cut += 4) {
        ui_descriptor->port_event(in->ui, 1, cut, atom_event_transfer, bytes);
        in->idle->idle(in->ui);
    }
    // Sizes that lie, types that differ, NaN and infinities, odd and unsorted lists.
    uint32_t *w = (uint32_t *)bytes;
    uint32_t saved[16];
    memcpy(saved, w, sizeof saved);
    uint32_t lies[][2] = {{0, 0xFFFFFFF0u}, {0, 4}, {12, 0xFFFFFFFFu}, {12, 0}, {14, 16}, {14, 0}, {15, atom_int}, {13, atom_int}, {6, 0xFFFFFF00u}, {1, atom_int}, {3, 0}, {8, 0}};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        memcpy(w, saved, sizeof saved);
        w[lies[i][0]] = lies[i][1];
        ui_descriptor->port_event(in->ui, 1, size, atom_event_transfer, bytes);
        in->idle->idle(in->ui);
    }
    memcpy(w, saved, sizeof saved);
    double *d = (double *)(w + 16);
    double values[] = {NAN, INFINITY, -INFINITY, -1, 1e300, 0};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        for (int slot = 0; slot < 4; slot++) {
            double kept = d[slot];
            d[slot] = values[i];
            ui_descriptor->port_event(in->ui, 1, size, atom_event_transfer, bytes);
            in->idle->idle(in->ui);
            d[slot] = kept;
        }
    d[4] = 0.9;  // out of order
    ui_descriptor->port_event(in->ui, 1, size, atom_event_transfer, bytes);
    w[12] -= 8;  // an odd count of numbers
    ui_descriptor->port_event(in->ui, 1, size - 8, atom_event_transfer, bytes);
    free(good);
    // Ports: NaN, infinities, huge, unknown indices, wrong sizes, no buffer.
    float floats[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 0};
    for (uint32_t port = 0; port < 40; port++)
        for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
            ui_descriptor->port_event(in->ui, port, 4, 0, &floats[i]);
            ui_descriptor->port_event(in->ui, port, 2, 0, &floats[i]);
            in->idle->idle(in->ui);
        }
    ui_descriptor->port_event(in->ui, 1, 64, atom_event_transfer, NULL);
    ui_descriptor->port_event(in->ui, 1, 64, 12345, floats);
    ui_descriptor->port_event(in->ui, 999, 4, 0, floats);
    // Back to sane ranges for the rest of the run.
    for (uint32_t port = 2; port < MAX_PORTS; port++) {
        float value = instances[0].controls[port];
        ui_descriptor->port_event(in->ui, port, 4, 0, &value);
    }
    idle_window(in, &scratch, &capacity);
    free(scratch);
}

// What the command line asks for.
typedef struct {
    const char *bundle, *controls, *inline_png, *document;
    int audio, reopen, hostile_input, points, redraws, commands;
    double seconds;
    uint32_t descriptor_index;
} Options;

static Options parse_options(int argc, char **argv) {
    if (argc < 2) die("usage: lv2uihost BUNDLE --audio INDEX --controls \"I=V,...\" [--instances N] [--reopen K] [--hostile] [--points N] [--redraws R] [--seconds S] [--scale F]");
    Options o = {.bundle = argv[1], .controls = "", .audio = -1, .redraws = 5, .seconds = 1};
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--audio") && i + 1 < argc) o.audio = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--controls") && i + 1 < argc) o.controls = argv[++i];
        else if (!strcmp(argv[i], "--instances") && i + 1 < argc) instance_count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reopen") && i + 1 < argc) o.reopen = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hostile")) o.hostile_input = 1;
        else if (!strcmp(argv[i], "--points") && i + 1 < argc) o.points = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--redraws") && i + 1 < argc) o.redraws = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) o.seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--inline") && i + 1 < argc) o.inline_png = argv[++i];
        else if (!strcmp(argv[i], "--document") && i + 1 < argc) o.document = argv[++i];
        else if (!strcmp(argv[i], "--commands")) o.commands = 1;
        else if (!strcmp(argv[i], "--descriptor") && i + 1 < argc) o.descriptor_index = (uint32_t)atoi(argv[++i]);
        else die("unknown option");
    }
    if (o.audio < 2 || o.audio >= MAX_PORTS || instance_count < 1 || instance_count > MAX_INSTANCES) die("--audio and --instances out of range");
    return o;
}

static void map_urids(void) {
    atom_sequence = urid(LV2_ATOM__Sequence);
    atom_event_transfer = urid(LV2_ATOM__eventTransfer);
    atom_object = urid(LV2_ATOM__Object);
    atom_vector = urid(LV2_ATOM__Vector);
    atom_double = urid(LV2_ATOM__Double);
    atom_urid = urid(LV2_ATOM__URID);
    atom_int = urid(LV2_ATOM__Int);
    patch_set = urid(LV2_PATCH__Set);
    patch_property = urid(LV2_PATCH__property);
    patch_value = urid(LV2_PATCH__value);
    points_uri = urid("urn:toneshaper:points");
}

// The plugin's and the UI's libraries from the bundle; the plugin's descriptor function.
static LV2_Descriptor_Function load_libraries(const char *bundle) {
    char path[4096];
    snprintf(path, sizeof path, "%s/toneshaper.so", bundle);
    void *plugin_library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!plugin_library) die(dlerror());
    snprintf(path, sizeof path, "%s/toneshaper_ui.so", bundle);
    void *ui_library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!ui_library) die(dlerror());
    LV2_Descriptor_Function plugin_entry = (LV2_Descriptor_Function)dlsym(plugin_library, "lv2_descriptor");
    LV2UI_DescriptorFunction ui_entry = (LV2UI_DescriptorFunction)dlsym(ui_library, "lv2ui_descriptor");
    if (!plugin_entry || !ui_entry) die("no descriptor function");
    ui_descriptor = ui_entry(0);
    if (!ui_descriptor) die("no UI descriptor");
    return plugin_entry;
}

// Every instance made, its ports connected (the controls at the values --controls names), activated.
static void make_instances(const Options *o, LV2_Descriptor_Function plugin_entry) {
    LV2_URID int_type = urid(LV2_ATOM__Int);
    static int32_t block = BLOCK, sequence_size = ATOM_CAPACITY;
    LV2_Options_Option plugin_options[] = {
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_BUF_SIZE__maxBlockLength), 4, int_type, &block},
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_BUF_SIZE__sequenceSize), 4, int_type, &sequence_size},
        {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
    };
    for (int k = 0; k < instance_count; k++) {
        Instance *in = &instances[k];
        pthread_mutex_init(&in->to_plugin.lock, NULL);
        pthread_mutex_init(&in->to_ui.lock, NULL);
        pthread_mutex_init(&in->work.lock, NULL);
        in->descriptor = plugin_entry(o->descriptor_index);
        if (!in->descriptor) die("no such plugin descriptor");
        in->schedule = (LV2_Worker_Schedule){in, schedule_work};
        LV2_Feature map_feature = {LV2_URID__map, &map};
        LV2_Feature schedule_feature = {LV2_WORKER__schedule, &in->schedule};
        LV2_Feature options_feature = {LV2_OPTIONS__options, plugin_options};
        InlineQueue queue = {in, queue_draw};
        LV2_Feature queue_feature = {"http://harrisonconsoles.com/lv2/inlinedisplay#queue_draw", &queue};
        const LV2_Feature *features[] = {&map_feature, &schedule_feature, &options_feature, o->inline_png ? &queue_feature : NULL, NULL};
        in->handle = in->descriptor->instantiate(in->descriptor, RATE, o->bundle, features);
        if (!in->handle) die("the plugin did not instantiate");
        in->worker = in->descriptor->extension_data(LV2_WORKER__interface);
        in->control = aligned_alloc(8, ATOM_CAPACITY);
        in->notify = aligned_alloc(8, ATOM_CAPACITY);
        in->out = calloc(BLOCK, sizeof(float));
        in->descriptor->connect_port(in->handle, 0, in->control);
        in->descriptor->connect_port(in->handle, 1, in->notify);
        in->descriptor->connect_port(in->handle, (uint32_t)o->audio, in->out);
        const char *c = o->controls;
        while (*c) {
            char *end;
            long index = strtol(c, &end, 10);
            if (*end != '=' || index < 2 || index >= MAX_PORTS || index == o->audio) die("--controls: INDEX=VALUE,...");
            in->controls[index] = strtof(end + 1, &end);
            in->descriptor->connect_port(in->handle, (uint32_t)index, &in->controls[index]);
            c = *end == ',' ? end + 1 : end;
        }
        in->descriptor->activate(in->handle);
    }
}

// Windows first..<last opened, and idled until each has the plugin's curve and drew it.
static void open_windows(int first, int last) {
    CurveMark mark = mark_curves(first, last);
    for (int k = first; k < last; k++) open_window(&instances[k]);
    wait_for_curves(mark, "the plugin's curve reaching a window opened");
}

// --document: the file given to the first plugin as a host gives a file parameter
// (patch:Set { patch:property urn:toneshaper:file ; patch:value "FILE"^^atom:Path }), and
// idled until the window has the plugin's new curve.
static void give_document(const char *document) {
    uint32_t length = (uint32_t)strlen(document) + 1;
    uint32_t object_size = 8 + 24 + 16 + ((length + 7) & ~7u);
    uint32_t *w = calloc(1, 8 + object_size);
    w[0] = object_size;
    w[1] = atom_object;
    w[3] = patch_set;
    w[4] = patch_property;
    w[6] = 4;
    w[7] = atom_urid;
    w[8] = urid("urn:toneshaper:file");
    w[10] = patch_value;
    w[12] = length;
    w[13] = urid(LV2_ATOM__Path);
    memcpy(w + 14, document, length);
    CurveMark mark = mark_curves(0, 1);
    queue_push(&instances[0].to_plugin, 0, atom_event_transfer, 8 + object_size, w);
    free(w);
    wait_for_curves(mark, "the document's curve reaching the window");
    printf("document: shown\n");
}

// --points: a curve of N points given to the first window R times, each redrawn.
static void redraw_points(int points, int redraws) {
    uint32_t size;
    LV2_Atom *message = points_message(points, 2, &size);
    for (int r = 0; r < redraws; r++) {
        ui_descriptor->port_event(instances[0].ui, 1, size, atom_event_transfer, message);
        instances[0].idle->idle(instances[0].ui);
    }
    free(message);
}

// --inline: Ardour's inline display asked for its 160-pixel-wide picture, written as a PNG.
static void inline_picture(const char *inline_png) {
    const InlineInterface *display = instances[0].descriptor->extension_data("http://harrisonconsoles.com/lv2/inlinedisplay#interface");
    if (!display) die("the plugin has no inline display");
    InlineSurface *surface = display->render(instances[0].handle, 160, 100);
    if (!surface || !surface->data) die("the inline display drew nothing");
    long curve = 0;
    for (int y = 0; y < surface->height; y++)
        for (int x = 0; x < surface->width; x++) {
            uint32_t pixel;
            memcpy(&pixel, surface->data + y * surface->stride + 4 * x, 4);
            if (pixel == 0xFF5ACCF2u) curve++;
        }
    printf("inline: %dx%d, queue_draw %d, curve pixels %ld\n", surface->width, surface->height, atomic_load(&queue_draws), curve);
    cairo_surface_t *image = cairo_image_surface_create_for_data(surface->data, CAIRO_FORMAT_ARGB32, surface->width, surface->height, surface->stride);
    cairo_surface_write_to_png(image, inline_png);
    cairo_surface_destroy(image);
}

static void destroy_instances(void) {
    for (int k = 0; k < instance_count; k++) {
        close_window(&instances[k]);
        instances[k].descriptor->deactivate(instances[k].handle);
        instances[k].descriptor->cleanup(instances[k].handle);
        free(instances[k].control);
        free(instances[k].notify);
        free(instances[k].out);
    }
}

// The state's document property, written to the file the store function is given.
static LV2_State_Status store_document(LV2_State_Handle handle, uint32_t key, const void *value, size_t size, uint32_t type, uint32_t flags) {
    (void)type;
    (void)flags;
    if (key != urid("urn:toneshaper:document")) return LV2_STATE_SUCCESS;
    FILE *file = fopen(handle, "wb");
    if (!file) return LV2_STATE_ERR_UNKNOWN;
    size_t text = size > 0 && ((const char *)value)[size - 1] == 0 ? size - 1 : size;  // an atom:String carries its NUL
    int ok = fwrite(value, 1, text, file) == text;
    return fclose(file) == 0 && ok ? LV2_STATE_SUCCESS : LV2_STATE_ERR_UNKNOWN;
}

// --commands: standard input's commands, answered while the windows are idled.
static void run_commands(const Options *o) {
    static unsigned char *scratch;
    static size_t capacity;
    char line[4200];
    size_t used = 0;
    for (;;) {
        for (int k = 0; k < instance_count; k++) idle_window(&instances[k], &scratch, &capacity);
        struct pollfd input = {.fd = 0, .events = POLLIN};
        if (poll(&input, 1, 2) <= 0) continue;
        ssize_t got = read(0, line + used, sizeof line - 1 - used);
        if (got <= 0) return;
        used += (size_t)got;
        line[used] = 0;
        char *end;
        while ((end = strchr(line, '\n'))) {
            *end = 0;
            if (!strcmp(line, "quit")) return;
            if (!strcmp(line, "controls")) {
                printf("controls: ");
                const char *c = o->controls;
                for (int first = 1; *c; first = 0) {
                    long index = strtol(c, (char **)&c, 10);
                    printf("%s%ld=%.9g", first ? "" : ",", index, instances[0].controls[index]);
                    c = strchr(c, ',');
                    c = c ? c + 1 : "";
                }
                printf("\n");
            } else if (!strncmp(line, "save ", 5)) {
                const LV2_State_Interface *state = instances[0].descriptor->extension_data(LV2_STATE__interface);
                if (!state || state->save(instances[0].handle, store_document, line + 5, LV2_STATE_IS_POD, NULL) != LV2_STATE_SUCCESS)
                    die("the plugin's state was not saved");
                printf("state_saved: %s\n", line + 5);
            }
            fflush(stdout);
            size_t rest = used - (size_t)(end + 1 - line);
            memmove(line, end + 1, rest + 1);
            used = rest;
        }
        if (used == sizeof line - 1) used = 0;  // a line too long for any command
    }
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);  // a line at a time: a test reads the answers as they come
    Options o = parse_options(argc, argv);
    map_urids();
    make_instances(&o, load_libraries(o.bundle));
    pthread_t thread;
    pthread_create(&thread, NULL, audio_thread, NULL);
    long before = resident_kb();
    open_windows(0, instance_count);
    long open = resident_kb();
    printf("windows: %d open, %dx%d\n", instance_count, instances[0].ui_width, instances[0].ui_height);
    if (o.document) give_document(o.document);
    if (o.hostile_input)
        for (int k = 0; k < instance_count; k++) hostile(&instances[k]);
    if (o.points > 0) redraw_points(o.points, o.redraws);
    if (o.commands) run_commands(&o);
    for (int r = 0; r < o.reopen; r++) {
        for (int k = 0; k < instance_count; k++) close_window(&instances[k]);
        open_windows(0, instance_count);
    }
    play_blocks((long)(o.seconds * RATE / BLOCK));
    long after = resident_kb();
    long played = atomic_load(&blocks);
    atomic_store(&running, 0);
    pthread_join(thread, NULL);
    printf("resident: %ld kB before the windows, %ld kB with them open, %ld kB at the end\n", before, open, after);
    printf("played: %ld blocks, peak %.4f, finite %d\n", played, peak, atomic_load(&all_finite));
    if (o.inline_png) inline_picture(o.inline_png);
    destroy_instances();
    return atomic_load(&all_finite) && played > 0 ? 0 : 1;
}
