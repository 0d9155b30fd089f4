// lv2host: the project's own small LV2 host for tests (no lilv). It loads a plugin's shared
// object with dlopen, finds a descriptor by URI, offers urid:map/unmap, log:log (to standard
// error, counted), worker:schedule (work() synchronously after each run(), or with
// --threaded-worker on a thread of its own, concurrently with run(); then work_response()
// and end_run() after run(), as the worker spec says), options (sample rate, block lengths, sequence
// size) and buf-size:boundedBlockLength; saves state to a file and restores it into a new
// instance; plays a script of notes, control changes and file loads; sends hostile inputs
// on request; writes the output as raw float32 and reports samples that are not finite or
// beyond 1.
//
//   cc -O1 -g -o lv2host Tests/LV2Host/lv2host.c -ldl -lm -lpthread
//   lv2host --so PATH --uri URI [--ttl PATH] [--rate 48000] [--block 256] --frames N
//           [--note FRAME:NOTE:VEL[:OFFFRAME]]... [--set SYMBOL=VALUE@FRAME]...
//           [--sysex FRAME:HEX]... (a midi:MidiEvent of the bytes HEX, e.g. F07E7F0901F7)
//           [--load-file PATH@FRAME]... [--load-scale PATH@FRAME]... [--load-map PATH@FRAME]... [--position SPEED:TRANSPORT-FRAME[:BPM]@FRAME]... [--program N@FRAME]... [--save-state FILE] [--restore-state FILE]
//           [--hostile KIND]... [--without FEATURE]... [--seq-size BYTES] [--unit UNIT]
//           [--second-so PATH] [--instances 2] [--threaded-worker] [--out FILE] [--cycles N]
//           [--bench-runs N [--bench-warmup FRAMES] [--bench-times FILE] [--bench-paced]]
//
// --cycles N does it all N times in this one process: dlopen, instantiate, the script,
// cleanup, dlclose; the report (of the last cycle) then adds cycles, rss_start_kb (before
// the first dlopen), rss_loaded_kb and rss_unloaded_kb (N figures each: resident memory once
// the cycle's script has run, before cleanup, and after its dlclose; VmRSS after
// malloc_trim, so that memory free in the allocator is not counted), and
// so_unloaded_every_cycle (1 when dlopen with RTLD_NOLOAD no longer found the library after
// each dlclose).
//
// --bench-runs N times run() (clock_gettime(CLOCK_MONOTONIC) around each call, one
// instance): after --bench-warmup frames (default: one second at --rate), untimed, N calls
// of --block frames each (--frames is then optional: warm-up plus N blocks). It adds to the
// report run_count, run_ns_per_sample_median (the median over the calls of each call's
// time per frame), run_ns_per_sample_mean, run_p50_us, run_p99_us, run_p999_us, run_max_us
// and run_period_us (the block's length in time); --bench-times writes each call's ns, one a
// line. Keep the worker synchronous (no --threaded-worker), so no thread of the host's
// competes with run(). --bench-paced starts each call at its block's time (clock_nanosleep
// to block / rate after the last start, as an audio thread waits for its period) rather than
// back to back: under SCHED_FIFO (chrt -f), back-to-back calls would use up the kernel's
// real-time budget (sched_rt_runtime_us) and be stopped for tens of milliseconds.
//
// --unit sets the input sequence's unit, and with it how event times are written: "zero"
// (the default: unit 0, times in frames), "frame" (units:frame), "frame-time"
// (atom:frameTime), "stale[:SEED]" (times in frames, and random bytes in the unit and pad
// fields before each run(), as a host leaves them that allocates the sequence with malloc
// and writes only the atom header), "beat:BPM" (units:beat) or "beat-time:BPM"
// (atom:beatTime): times in beats from the block's start, at BPM (which the plugin learns
// only from a --position with that tempo).
//
// The control ports are read from the bundle's toneshaper.ttl (next to the .so unless
// --ttl says otherwise): their indices, symbols and defaults.
//
// Exit status: 0 fine; 2 a sample not finite or beyond 1 (or stereo channels that differ,
// or two instances that differ); 3 usage or I/O error; 4 the plugin refused to instantiate;
// a crash kills the process with its signal.
//
// The report on standard output, one "key: value" a line: frames, peak, nonfinite,
// out_of_range, log_messages, log_errors, worker_requests, worker_refused, first_sound
// (the first sample above 1e-4), first_nonzero
// (the first frame above 1e-4, or -1), state_properties, stereo_differ, instances_differ,
// notify_events, notify_malformed (a notify sequence that runs past its buffer: exit 2),
// notify_path (the last patch:Set of urn:toneshaper:file the plugin sent).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/patch/patch.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lv2host: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(3);
}

// ---- urid:map / unmap -----------------------------------------------------------------

static char **uris;
static size_t uri_count;

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (size_t i = 0; i < uri_count; i++)
        if (strcmp(uris[i], uri) == 0) return (LV2_URID)(i + 1);
    uris = realloc(uris, (uri_count + 1) * sizeof *uris);
    uris[uri_count] = strdup(uri);
    return (LV2_URID)++uri_count;
}

static const char *unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid) {
    (void)handle;
    return urid >= 1 && urid <= uri_count ? uris[urid - 1] : NULL;
}

static LV2_URID urid(const char *uri) { return map_uri(NULL, uri); }

// ---- log:log --------------------------------------------------------------------------

static int log_messages, log_errors;

static int log_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *fmt, va_list ap) {
    (void)handle;
    // The worker thread logs too.
    __atomic_fetch_add(&log_messages, 1, __ATOMIC_RELAXED);
    if (type == urid(LV2_LOG__Error)) __atomic_fetch_add(&log_errors, 1, __ATOMIC_RELAXED);
    const char *name = unmap_uri(NULL, type);
    const char *hash = name ? strrchr(name, '#') : NULL;
    fprintf(stderr, "lv2host: plugin log [%s]: ", hash ? hash + 1 : "?");
    return vfprintf(stderr, fmt, ap);
}

static int log_printf(LV2_Log_Handle handle, LV2_URID type, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = log_vprintf(handle, type, fmt, ap);
    va_end(ap);
    return n;
}

// ---- worker ---------------------------------------------------------------------------

// A queue of messages, copied (the plugin's buffer is its own again when schedule returns).
#define QUEUE_SLOTS 64
#define QUEUE_MESSAGE 65536
typedef struct {
    uint32_t count;
    uint32_t sizes[QUEUE_SLOTS];
    unsigned char *data[QUEUE_SLOTS];
} Queue;

static int queue_push(Queue *q, uint32_t size, const void *data) {
    if (q->count == QUEUE_SLOTS || size > QUEUE_MESSAGE) return 0;
    q->data[q->count] = malloc(size ? size : 1);
    memcpy(q->data[q->count], data, size);
    q->sizes[q->count++] = size;
    return 1;
}

static void queue_clear(Queue *q) {
    for (uint32_t i = 0; i < q->count; i++) free(q->data[i]);
    q->count = 0;
}

typedef struct Instance Instance;
struct Instance {
    const LV2_Descriptor *descriptor;
    LV2_Handle handle;
    const LV2_Worker_Interface *worker;
    const LV2_State_Interface *state;
    Queue requests, responses;
    int worker_requests, worker_refused;
    float *left, *right;
    // --threaded-worker: work() runs on a thread of its own, concurrently with run(), as
    // real hosts do; the queues are then shared under the lock.
    int threaded, stopping;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

// (A test host: the threaded worker's lock is taken on the audio thread too, briefly.)
static LV2_Worker_Status schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size, const void *data) {
    Instance *instance = handle;
    if (instance->threaded) pthread_mutex_lock(&instance->lock);
    instance->worker_requests++;
    int queued = queue_push(&instance->requests, size, data);
    if (!queued) instance->worker_refused++;
    if (instance->threaded) {
        pthread_cond_signal(&instance->wake);
        pthread_mutex_unlock(&instance->lock);
    }
    return queued ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE;
}

static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    Instance *instance = handle;
    if (instance->threaded) pthread_mutex_lock(&instance->lock);
    int queued = queue_push(&instance->responses, size, data);
    if (instance->threaded) pthread_mutex_unlock(&instance->lock);
    return queued ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE;
}

static Queue take(Instance *instance, Queue *queue) {
    if (instance->threaded) pthread_mutex_lock(&instance->lock);
    Queue taken = *queue;
    memset(queue, 0, sizeof *queue);
    if (instance->threaded) pthread_mutex_unlock(&instance->lock);
    return taken;
}

static void do_work(Instance *instance) {
    Queue requests = take(instance, &instance->requests);
    for (uint32_t i = 0; i < requests.count; i++)
        instance->worker->work(instance->handle, respond, instance, requests.sizes[i], requests.data[i]);
    queue_clear(&requests);
}

static void *worker_thread(void *argument) {
    Instance *instance = argument;
    pthread_mutex_lock(&instance->lock);
    while (!instance->stopping) {
        if (instance->requests.count == 0) {
            pthread_cond_wait(&instance->wake, &instance->lock);
            continue;
        }
        pthread_mutex_unlock(&instance->lock);
        do_work(instance);
        pthread_mutex_lock(&instance->lock);
    }
    pthread_mutex_unlock(&instance->lock);
    return NULL;
}

static void start_worker_thread(Instance *instance) {
    instance->threaded = 1;
    pthread_mutex_init(&instance->lock, NULL);
    pthread_cond_init(&instance->wake, NULL);
    if (pthread_create(&instance->thread, NULL, worker_thread, instance) != 0) die("cannot start the worker thread");
}

// The rest of the work, then the thread stopped (before cleanup).
static void stop_worker_thread(Instance *instance) {
    if (!instance->threaded) return;
    pthread_mutex_lock(&instance->lock);
    instance->stopping = 1;
    pthread_cond_signal(&instance->wake);
    pthread_mutex_unlock(&instance->lock);
    pthread_join(instance->thread, NULL);
    instance->threaded = 0;
    do_work(instance);
}

// After run(): the work (unless a thread does it), then the responses, then end_run.
static void run_worker(Instance *instance) {
    if (!instance->worker) return;
    if (!instance->threaded) do_work(instance);
    Queue responses = take(instance, &instance->responses);
    for (uint32_t i = 0; i < responses.count; i++)
        instance->worker->work_response(instance->handle, responses.sizes[i], responses.data[i]);
    queue_clear(&responses);
    if (instance->worker->end_run) instance->worker->end_run(instance->handle);
}

// ---- state ----------------------------------------------------------------------------

typedef struct {
    LV2_URID key, type;
    uint32_t flags;
    size_t size;
    unsigned char *value;
} Property;

static Property properties[64];
static int property_count;

static LV2_State_Status store(LV2_State_Handle handle, uint32_t key, const void *value, size_t size, uint32_t type, uint32_t flags) {
    (void)handle;
    if (property_count == 64) return LV2_STATE_ERR_UNKNOWN;
    Property *p = &properties[property_count++];
    p->key = key;
    p->type = type;
    p->flags = flags;
    p->size = size;
    p->value = malloc(size ? size : 1);
    memcpy(p->value, value, size);
    return LV2_STATE_SUCCESS;
}

static const void *retrieve(LV2_State_Handle handle, uint32_t key, size_t *size, uint32_t *type, uint32_t *flags) {
    (void)handle;
    for (int i = 0; i < property_count; i++)
        if (properties[i].key == key) {
            *size = properties[i].size;
            *type = properties[i].type;
            *flags = properties[i].flags;
            return properties[i].value;
        }
    return NULL;
}

// The file: per property a line "KEY-URI TYPE-URI FLAGS SIZE", then SIZE bytes and a newline.
static void save_state_file(const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot write %s", path);
    for (int i = 0; i < property_count; i++) {
        fprintf(f, "%s %s %u %zu\n", unmap_uri(NULL, properties[i].key), unmap_uri(NULL, properties[i].type), properties[i].flags,
                properties[i].size);
        fwrite(properties[i].value, 1, properties[i].size, f);
        fputc('\n', f);
    }
    fclose(f);
}

static void load_state_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read %s", path);
    char key[1024], type[1024];
    unsigned flags;
    size_t size;
    property_count = 0;
    while (property_count < 64 && fscanf(f, "%1023s %1023s %u %zu", key, type, &flags, &size) == 4) {
        fgetc(f);
        Property *p = &properties[property_count++];
        p->key = urid(key);
        p->type = urid(type);
        p->flags = flags;
        p->size = size;
        p->value = malloc(size ? size : 1);
        if (fread(p->value, 1, size, f) != size) die("%s is truncated", path);
        fgetc(f);
    }
    fclose(f);
}

// ---- the plugin's ports, from toneshaper.ttl ------------------------------------------

typedef struct {
    uint32_t index;
    char symbol[64];
    float value;
} ControlPort;

static ControlPort controls[256];
static int control_count;
static uint32_t audio_ports[2];
static int audio_count;

// The ports of plugin `uri` as the description lists them: its block runs from
// "<uri>" to the next plugin's. Control ports by "lv2:ControlPort ;", audio outputs by
// "lv2:AudioPort ;", each followed by its lv2:index (ports added after the first release
// come after the audio outputs, so neither is assumed to follow the other).
static void read_ports(const char *ttl, const char *uri) {
    FILE *f = fopen(ttl, "rb");
    if (!f) die("cannot read %s", ttl);
    fseek(f, 0, SEEK_END);
    long length = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)length + 1);
    if (fread(text, 1, (size_t)length, f) != (size_t)length) die("cannot read %s", ttl);
    text[length] = 0;
    fclose(f);
    char heading[512];
    snprintf(heading, sizeof heading, "<%s>\n    a lv2:InstrumentPlugin", uri);
    char *start = strstr(text, heading);
    if (!start) die("%s does not describe %s", ttl, uri);
    char *end = strstr(start + strlen(heading), "a lv2:InstrumentPlugin");
    if (end) *end = 0;
    for (char *at = strstr(start, "lv2:ControlPort ;"); at; at = strstr(at + 1, "lv2:ControlPort ;")) {
        ControlPort port = {0};
        char *index = strstr(at, "lv2:index "), *symbol = strstr(at, "lv2:symbol \""), *def = strstr(at, "lv2:default ");
        if (!index || !symbol || !def) die("%s: a control port without index, symbol or default", ttl);
        port.index = (uint32_t)strtoul(index + 10, NULL, 10);
        sscanf(symbol + 12, "%63[^\"]", port.symbol);
        port.value = strtof(def + 12, NULL);
        if (control_count == (int)(sizeof controls / sizeof controls[0])) die("%s: too many control ports", ttl);
        controls[control_count++] = port;
    }
    for (char *at = strstr(start, "lv2:AudioPort ;"); at && audio_count < 2; at = strstr(at + 1, "lv2:AudioPort ;")) {
        char *index = strstr(at, "lv2:index ");
        if (!index) die("%s: an audio port without index", ttl);
        audio_ports[audio_count++] = (uint32_t)strtoul(index + 10, NULL, 10);
    }
    if (!control_count) die("%s lists no control ports for %s", ttl, uri);
    if (!audio_count) die("%s lists no audio output for %s", ttl, uri);
    free(text);
}

static ControlPort *control_named(const char *symbol) {
    for (int i = 0; i < control_count; i++)
        if (strcmp(controls[i].symbol, symbol) == 0) return &controls[i];
    die("no control port %s", symbol);
    return NULL;
}

// ---- the script -----------------------------------------------------------------------

typedef enum { NOTE_ON, NOTE_OFF, SET, LOAD, HOSTILE, POSITION, PROGRAM, SYSEX } Kind;
typedef struct {
    Kind kind;
    long frame;
    int note, velocity;
    char symbol[64];
    float value, tempo;
    char path[1024]; // LOAD: the file; SYSEX: the bytes in hexadecimal
    // LOAD: the file parameter patch:Set (NULL: urn:toneshaper:file, the document).
    const char *property;
    char hostile[64];
} Step;

static Step steps[1024];
static int step_count;

static Step *add_step(Kind kind, long frame) {
    if (step_count == 1024) die("too many steps");
    Step *s = &steps[step_count++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->frame = frame;
    return s;
}

// ---- the input sequence ---------------------------------------------------------------

typedef struct {
    unsigned char *buffer;  // capacity bytes, 8-aligned
    uint32_t capacity;
} Sequence;

// --unit: the URI written as the unit (NULL: 0), whether it is stale bytes instead, and
// the frames per beat when times are written in beats (0: frames).
static const char *unit_uri;
static int unit_stale;
static uint64_t unit_stale_state;
static double unit_frames_per_beat;

static uint64_t next_random(uint64_t *state);

static void sequence_clear(Sequence *s) {
    LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)s->buffer;
    seq->atom.type = urid(LV2_ATOM__Sequence);
    seq->atom.size = sizeof(LV2_Atom_Sequence_Body);
    seq->body.unit = unit_uri ? urid(unit_uri) : 0;
    seq->body.pad = 0;
    if (unit_stale) {
        // Anything but 0 or a unit that means beats (a stale value could be one, by chance;
        // then the host did say beats).
        uint32_t value;
        do value = (uint32_t)next_random(&unit_stale_state);
        while (value == 0 || value == urid("http://lv2plug.in/ns/ext/units#beat") || value == urid(LV2_ATOM__beatTime));
        seq->body.unit = value;
        seq->body.pad = (uint32_t)next_random(&unit_stale_state);
    }
}

// Appends an event of `size` body bytes; returns a pointer to the body, or NULL when full.
static void *sequence_append(Sequence *s, int64_t frame, LV2_URID type, uint32_t size) {
    LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)s->buffer;
    uint32_t used = (uint32_t)sizeof(LV2_Atom) + seq->atom.size;
    uint32_t need = (uint32_t)sizeof(LV2_Atom_Event) + ((size + 7u) & ~7u);
    if (used + need > s->capacity) return NULL;
    LV2_Atom_Event *event = (LV2_Atom_Event *)(s->buffer + used);
    if (unit_frames_per_beat > 0) event->time.beats = (double)frame / unit_frames_per_beat;
    else event->time.frames = frame;
    event->body.type = type;
    event->body.size = size;
    seq->atom.size += need;
    memset(event + 1, 0, (size + 7u) & ~7u);
    return event + 1;
}

static void append_midi(Sequence *s, int64_t frame, const unsigned char *bytes, uint32_t size) {
    void *body = sequence_append(s, frame, urid(LV2_MIDI__MidiEvent), size);
    if (body) memcpy(body, bytes, size);
}

// A patch:Set object: property (0: none), then a value of type/size/bytes (type 0: none).
static void append_patch_set(Sequence *s, int64_t frame, LV2_URID property, LV2_URID value_type, const void *value, uint32_t value_size) {
    uint32_t size = sizeof(LV2_Atom_Object_Body);
    if (property) size += sizeof(LV2_Atom_Property_Body) + 8;
    if (value_type) size += sizeof(LV2_Atom_Property_Body) + ((value_size + 7u) & ~7u);
    unsigned char *body = sequence_append(s, frame, urid(LV2_ATOM__Object), size);
    if (!body) return;
    LV2_Atom_Object_Body *object = (LV2_Atom_Object_Body *)body;
    object->id = 0;
    object->otype = urid(LV2_PATCH__Set);
    unsigned char *at = body + sizeof *object;
    if (property) {
        LV2_Atom_Property_Body *p = (LV2_Atom_Property_Body *)at;
        p->key = urid(LV2_PATCH__property);
        p->context = 0;
        p->value.size = 4;
        p->value.type = urid(LV2_ATOM__URID);
        memcpy(p + 1, &property, 4);
        at += sizeof *p + 8;
    }
    if (value_type) {
        LV2_Atom_Property_Body *p = (LV2_Atom_Property_Body *)at;
        p->key = urid(LV2_PATCH__value);
        p->context = 0;
        p->value.size = value_size;
        p->value.type = value_type;
        memcpy(p + 1, value, value_size);
    }
}

// A time:Position as hosts send it when their transport changes: time:speed (Float) and
// time:frame (Long), and time:beatsPerMinute (Float) when `bpm` is above 0.
static void append_position(Sequence *s, int64_t frame, float speed, int64_t position, float bpm) {
    uint32_t size = sizeof(LV2_Atom_Object_Body) + (bpm > 0 ? 3 : 2) * sizeof(LV2_Atom_Property_Body) + 8 + 8 + (bpm > 0 ? 8 : 0);
    unsigned char *body = sequence_append(s, frame, urid(LV2_ATOM__Object), size);
    if (!body) return;
    LV2_Atom_Object_Body *object = (LV2_Atom_Object_Body *)body;
    object->id = 0;
    object->otype = urid("http://lv2plug.in/ns/ext/time#Position");
    LV2_Atom_Property_Body *p = (LV2_Atom_Property_Body *)(body + sizeof *object);
    p->key = urid("http://lv2plug.in/ns/ext/time#speed");
    p->context = 0;
    p->value.size = 4;
    p->value.type = urid(LV2_ATOM__Float);
    memcpy(p + 1, &speed, 4);
    p = (LV2_Atom_Property_Body *)((unsigned char *)(p + 1) + 8);
    p->key = urid("http://lv2plug.in/ns/ext/time#frame");
    p->context = 0;
    p->value.size = 8;
    p->value.type = urid(LV2_ATOM__Long);
    memcpy(p + 1, &position, 8);
    if (bpm > 0) {
        p = (LV2_Atom_Property_Body *)((unsigned char *)(p + 1) + 8);
        p->key = urid("http://lv2plug.in/ns/ext/time#beatsPerMinute");
        p->context = 0;
        p->value.size = 4;
        p->value.type = urid(LV2_ATOM__Float);
        memcpy(p + 1, &bpm, 4);
    }
}

static void append_path(Sequence *s, int64_t frame, const char *path) {
    append_patch_set(s, frame, urid("urn:toneshaper:file"), urid(LV2_ATOM__Path), path, (uint32_t)strlen(path) + 1);
}

static char scratch_dir[256];

static const char *scratch_file(const char *name, const char *content, size_t size) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", scratch_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot write %s", path);
    fwrite(content, 1, size, f);
    fclose(f);
    return path;
}

// splitmix64: the random hostile input, the same for a seed everywhere.
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The hostile inputs of the events kind, at `frame` of the block.
static void append_hostile(Sequence *s, int64_t frame, const char *kind, uint32_t block) {
    static const unsigned char five[5] = {0x90, 60, 100, 0, 0};
    if (strcmp(kind, "event-past-end") == 0) {
        unsigned char *body = sequence_append(s, frame, urid(LV2_MIDI__MidiEvent), 3);
        if (body) {
            memcpy(body, "\x90\x40\x64", 3);
            ((LV2_Atom *)body - 1)->size = 100000;  // the event claims far more than the sequence holds
        }
    } else if (strcmp(kind, "event-header-cut") == 0) {
        // The sequence ends 8 bytes into an event's header.
        ((LV2_Atom_Sequence *)s->buffer)->atom.size += 8;
    } else if (strcmp(kind, "sequence-too-long") == 0) {
        ((LV2_Atom_Sequence *)s->buffer)->atom.size = s->capacity * 4;
    } else if (strcmp(kind, "not-a-sequence") == 0) {
        ((LV2_Atom_Sequence *)s->buffer)->atom.type = urid(LV2_ATOM__Int);
    } else if (strcmp(kind, "beat-time") == 0) {
        ((LV2_Atom_Sequence *)s->buffer)->body.unit = urid(LV2_ATOM__beatTime);
        append_midi(s, frame, (const unsigned char *)"\x90\x45\x64", 3);
    } else if (strcmp(kind, "frame-out-of-range") == 0) {
        append_midi(s, (int64_t)block + 1000, (const unsigned char *)"\x90\x45\x64", 3);
        append_midi(s, -5, (const unsigned char *)"\x80\x45\x00", 3);
    } else if (strcmp(kind, "unknown-type") == 0) {
        unsigned char *body = sequence_append(s, frame, urid("urn:lv2host:unknown-type"), 4);
        if (body) memcpy(body, "abcd", 4);
    } else if (strcmp(kind, "unknown-urid") == 0) {
        unsigned char *body = sequence_append(s, frame, 987654, 4);
        if (body) memcpy(body, "abcd", 4);
        append_patch_set(s, frame, 987655, urid(LV2_ATOM__Path), "/tmp/x", 7);
    } else if (strcmp(kind, "midi-0") == 0) {
        sequence_append(s, frame, urid(LV2_MIDI__MidiEvent), 0);
    } else if (strcmp(kind, "midi-5") == 0) {
        append_midi(s, frame, five, 5);
    } else if (strcmp(kind, "midi-data-high") == 0) {
        append_midi(s, frame, (const unsigned char *)"\x90\xC5\x64", 3);
    } else if (strcmp(kind, "set-no-property") == 0) {
        append_patch_set(s, frame, 0, urid(LV2_ATOM__Path), "/tmp/x", 7);
    } else if (strcmp(kind, "set-no-value") == 0) {
        append_patch_set(s, frame, urid("urn:toneshaper:file"), 0, NULL, 0);
    } else if (strcmp(kind, "set-wrong-type") == 0) {
        int32_t v = 42;
        append_patch_set(s, frame, urid("urn:toneshaper:file"), urid(LV2_ATOM__Int), &v, 4);
    } else if (strcmp(kind, "set-path-no-nul") == 0) {
        append_patch_set(s, frame, urid("urn:toneshaper:file"), urid(LV2_ATOM__Path), "/tmp/abcdefg", 8);
    } else if (strcmp(kind, "missing-file") == 0) {
        append_path(s, frame, "/nonexistent/toneshaper/missing.toneshaper");
    } else if (strcmp(kind, "broken-file") == 0) {
        append_path(s, frame, scratch_file("broken.toneshaper", "{\"duration\": 2, \"points\": [[0, 4", 33));
    } else if (strcmp(kind, "empty-file") == 0) {
        append_path(s, frame, scratch_file("empty.toneshaper", "", 0));
    } else if (strcmp(kind, "directory-file") == 0) {
        append_path(s, frame, scratch_dir);
    } else if (strncmp(kind, "random", 6) == 0) {
        // "random:SEED": events of random types (MIDI, objects, atoms of known and unknown
        // types) with random sizes and bytes, objects whose properties lie about their
        // sizes, and a sequence size anywhere up to the buffer's.
        static uint64_t state;
        if (!state) state = strtoull(kind[6] == ':' ? kind + 7 : "1", NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
        LV2_URID types[] = {urid(LV2_MIDI__MidiEvent), urid(LV2_ATOM__Object), urid(LV2_ATOM__Blank), urid(LV2_ATOM__Int),
                            urid(LV2_ATOM__Path), urid("urn:lv2host:unknown-type"), 4242424};
        int count = (int)(next_random(&state) % 40);
        for (int i = 0; i < count; i++) {
            LV2_URID type = types[next_random(&state) % (sizeof types / sizeof *types)];
            uint32_t size = (uint32_t)(next_random(&state) % 48);
            int64_t at = (int64_t)(next_random(&state) % (block + 8)) - 4;
            unsigned char *body = sequence_append(s, at, type, size);
            if (!body) break;
            for (uint32_t b = 0; b < size; b++) body[b] = (unsigned char)next_random(&state);
            if (type == urid(LV2_ATOM__Object) && size >= 24 && next_random(&state) % 2) {
                // A patch:Set whose property header is real and whose sizes are random.
                uint32_t words[6] = {0, urid(LV2_PATCH__Set), urid(LV2_PATCH__property), 0, (uint32_t)next_random(&state) % 64,
                                     urid(LV2_ATOM__URID)};
                memcpy(body, words, sizeof words);
            }
        }
        LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)s->buffer;
        if (next_random(&state) % 4 == 0) seq->atom.size = (uint32_t)(next_random(&state) % (s->capacity - sizeof(LV2_Atom) + 1));
    } else if (strcmp(kind, "ui-events-at-block-end") == 0) {
        // Not hostile: jalv writes its UI's events (a patch:Get on start, a UI's notes) at
        // the block's length, after the block's other events. A note-on of 69 and a patch:Get.
        append_midi(s, block, (const unsigned char *)"\x90\x45\x64", 3);
        LV2_Atom_Object_Body *object = sequence_append(s, block, urid(LV2_ATOM__Object), sizeof(LV2_Atom_Object_Body));
        if (object) {
            object->id = 0;
            object->otype = urid(LV2_PATCH__Get);
        }
    } else if (strcmp(kind, "patch-get") == 0) {
        // Not hostile: asks for the parameters (the plugin answers on its notify port).
        LV2_Atom_Object_Body *object = sequence_append(s, frame, urid(LV2_ATOM__Object), sizeof(LV2_Atom_Object_Body));
        if (object) {
            object->id = 0;
            object->otype = urid(LV2_PATCH__Get);
        }
    } else if (strcmp(kind, "flood") == 0) {
        for (int i = 0; i < 10000; i++) append_midi(s, frame, five, 5);
    } else {
        die("unknown hostile kind %s", kind);
    }
}

static int is_state_hostile(const char *kind) { return strncmp(kind, "state-", 6) == 0; }

// The hostile states: a document property the plugin must refuse.
static void hostile_state(const char *kind) {
    const char *valid = "{\"duration\": 2, \"minFrequency\": 110, \"maxFrequency\": 440, \"points\": [[0, 220], [2, 220]]}";
    property_count = 0;
    LV2_URID document = urid("urn:toneshaper:document"), string = urid(LV2_ATOM__String);
    uint32_t pod = LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE;
    if (strcmp(kind, "state-empty") == 0) {
        store(NULL, document, "", 1, string, pod);
    } else if (strcmp(kind, "state-zero-size") == 0) {
        store(NULL, document, "", 0, string, pod);
    } else if (strcmp(kind, "state-truncated") == 0) {
        store(NULL, document, valid, 30, string, pod);  // cut, and without its NUL
    } else if (strcmp(kind, "state-truncated-json") == 0) {
        char cut[31];
        memcpy(cut, valid, 30);
        cut[30] = 0;
        store(NULL, document, cut, 31, string, pod);
    } else if (strcmp(kind, "state-wrong-type") == 0) {
        int32_t v = 7;
        store(NULL, document, &v, 4, urid(LV2_ATOM__Int), pod);
    } else if (strcmp(kind, "state-out-of-range") == 0) {
        const char *bad = "{\"duration\": -3, \"minFrequency\": 110, \"maxFrequency\": 1e300, \"fidelity\": 0, \"points\": [[0, 220]]}";
        store(NULL, document, bad, strlen(bad) + 1, string, pod);
    } else if (strcmp(kind, "state-not-json") == 0) {
        store(NULL, document, "\x01\x02\xff\xfe garbage", 13, string, pod);
    } else if (strcmp(kind, "state-missing") == 0) {
        // no property at all
    } else {
        die("unknown hostile state %s", kind);
    }
}

// The notify port's sequence after run(): checked to lie inside the buffer; a patch:Set of
// urn:toneshaper:file with an atom:Path is remembered (the report's notify_path).
static char notify_path[4096];
static int notify_events, notify_malformed;

static void read_notify(const unsigned char *buffer, uint32_t capacity) {
    const LV2_Atom_Sequence *seq = (const LV2_Atom_Sequence *)buffer;
    if (seq->atom.type == 0 && seq->atom.size == capacity - sizeof(LV2_Atom)) return;  // untouched
    if (seq->atom.type != urid(LV2_ATOM__Sequence) || seq->atom.size < sizeof(LV2_Atom_Sequence_Body) ||
        seq->atom.size > capacity - sizeof(LV2_Atom)) {
        notify_malformed++;
        return;
    }
    uint32_t offset = sizeof(LV2_Atom_Sequence_Body), end = seq->atom.size;
    const unsigned char *body = buffer + sizeof(LV2_Atom);
    while (offset + sizeof(LV2_Atom_Event) <= end) {
        const LV2_Atom_Event *event = (const LV2_Atom_Event *)(body + offset);
        if (event->body.size > end - offset - sizeof(LV2_Atom_Event)) {
            notify_malformed++;
            return;
        }
        notify_events++;
        const unsigned char *object = (const unsigned char *)(event + 1);
        if (event->body.type == urid(LV2_ATOM__Object) && event->body.size >= 8 &&
            ((const LV2_Atom_Object_Body *)object)->otype == urid(LV2_PATCH__Set)) {
            uint32_t at = 8;
            LV2_URID property = 0;
            while (at + sizeof(LV2_Atom_Property_Body) <= event->body.size) {
                const LV2_Atom_Property_Body *p = (const LV2_Atom_Property_Body *)(object + at);
                const char *value = (const char *)(p + 1);
                if (p->value.size > event->body.size - at - sizeof *p) {
                    notify_malformed++;
                    break;
                }
                if (p->key == urid(LV2_PATCH__property) && p->value.type == urid(LV2_ATOM__URID)) memcpy(&property, value, 4);
                if (p->key == urid(LV2_PATCH__value) && p->value.type == urid(LV2_ATOM__Path) && property == urid("urn:toneshaper:file") &&
                    p->value.size > 0 && p->value.size <= sizeof notify_path && value[p->value.size - 1] == 0)
                    memcpy(notify_path, value, p->value.size);
                at += (uint32_t)sizeof *p + ((p->value.size + 7u) & ~7u);
            }
        }
        offset += (uint32_t)sizeof(LV2_Atom_Event) + ((event->body.size + 7u) & ~7u);
    }
}

// ---- --bench-runs ---------------------------------------------------------------------

static int compare_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

// The report's run_* lines, from each timed call's ns and frames; the calls' times are sorted.
static void bench_report(long *times, const uint32_t *sizes, long count, uint32_t block, double rate, const char *times_path) {
    if (times_path) {
        FILE *f = fopen(times_path, "w");
        if (!f) die("cannot write %s", times_path);
        for (long i = 0; i < count; i++) fprintf(f, "%ld\n", times[i]);
        fclose(f);
    }
    double *per_sample = malloc((size_t)count * sizeof *per_sample);
    double sum = 0;
    long frames = 0;
    for (long i = 0; i < count; i++) {
        per_sample[i] = (double)times[i] / sizes[i];
        sum += (double)times[i];
        frames += sizes[i];
    }
    qsort(per_sample, (size_t)count, sizeof *per_sample, compare_double);
    qsort(times, (size_t)count, sizeof *times, compare_long);
    double median = count % 2 ? per_sample[count / 2] : 0.5 * (per_sample[count / 2 - 1] + per_sample[count / 2]);
    // The p-th quantile: the smallest time at least that share of the calls do not exceed.
#define QUANTILE(p) (times[(long)ceil((p) * (double)count) - 1 < 0 ? 0 : (long)ceil((p) * (double)count) - 1] / 1000.0)
    printf("run_count: %ld\nrun_ns_per_sample_median: %.4f\nrun_ns_per_sample_mean: %.4f\n", count, median, sum / (double)frames);
    printf("run_p50_us: %.3f\nrun_p99_us: %.3f\nrun_p999_us: %.3f\nrun_max_us: %.3f\nrun_period_us: %.3f\n", QUANTILE(0.5), QUANTILE(0.99),
           QUANTILE(0.999), times[count - 1] / 1000.0, block * 1e6 / rate);
#undef QUANTILE
    free(per_sample);
}

// ---- resident memory ------------------------------------------------------------------

// This process's resident memory (VmRSS of /proc/self/status), in kB, after the C library
// has given back what it holds free (malloc_trim): what is counted is what is in use, not
// what the allocator keeps for later.
static long resident_kb(void) {
    malloc_trim(0);
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) die("cannot read /proc/self/status");
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    fclose(status);
    if (kb < 0) die("no VmRSS in /proc/self/status");
    return kb;
}

// ---- options --------------------------------------------------------------------------

static long parse_frame(const char *text) {
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < 0) die("bad frame %s", text);
    return v;
}

// The command line (the script's steps go to `steps`, a hostile state to state_hostile).
typedef struct {
    const char *so, *uri, *ttl, *out, *save_path, *restore_path, *second_so;
    double rate;
    uint32_t block, seq_size;
    const char *unit;
    long frames;
    int instances, threaded_worker, stereo;
    int without_map, without_worker, without_log, without_options;
    const char *state_hostile;
    long bench_runs, bench_warmup;
    int bench_paced;
    const char *bench_times;
    int cycles;
} Options;

// The flags, in any order; then --bench-runs' defaults and the flags every run needs.
static Options parse_options(int argc, char **argv) {
    Options o = {.rate = 48000, .block = 256, .seq_size = 8192, .unit = "zero", .instances = 1, .bench_warmup = -1, .cycles = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (strcmp(a, name) == 0 && v && ++i)
        if (ARG("--so")) o.so = v;
        else if (ARG("--uri")) o.uri = v;
        else if (ARG("--ttl")) o.ttl = v;
        else if (ARG("--rate")) o.rate = atof(v);
        else if (ARG("--block")) o.block = (uint32_t)atoi(v);
        else if (ARG("--frames")) o.frames = parse_frame(v);
        else if (ARG("--seq-size")) o.seq_size = (uint32_t)atoi(v);
        else if (ARG("--out")) o.out = v;
        else if (ARG("--unit")) o.unit = v;
        else if (ARG("--save-state")) o.save_path = v;
        else if (ARG("--restore-state")) o.restore_path = v;
        else if (ARG("--second-so")) o.second_so = v;
        else if (ARG("--instances")) o.instances = atoi(v);
        else if (strcmp(a, "--threaded-worker") == 0) o.threaded_worker = 1;
        else if (ARG("--bench-runs")) o.bench_runs = parse_frame(v);
        else if (ARG("--bench-warmup")) o.bench_warmup = parse_frame(v);
        else if (ARG("--bench-times")) o.bench_times = v;
        else if (strcmp(a, "--bench-paced") == 0) o.bench_paced = 1;
        else if (ARG("--cycles")) o.cycles = atoi(v);
        else if (ARG("--note")) {
            long on, off = -1;
            int note, velocity;
            int n = sscanf(v, "%ld:%d:%d:%ld", &on, &note, &velocity, &off);
            if (n < 3) die("bad --note %s", v);
            Step *s = add_step(NOTE_ON, on);
            s->note = note;
            s->velocity = velocity;
            if (n == 4) {
                s = add_step(NOTE_OFF, off);
                s->note = note;
            }
        } else if (ARG("--sysex")) {
            long frame = 0;
            int used = 0;
            if (sscanf(v, "%ld:%n", &frame, &used) != 1 || used == 0 || strlen(v + used) >= 1024) die("bad --sysex %s", v);
            Step *s = add_step(SYSEX, frame);
            snprintf(s->path, sizeof s->path, "%s", v + used);
        } else if (ARG("--set")) {
            char symbol[64];
            char value[64];
            long frame = 0;
            if (sscanf(v, "%63[^=]=%63[^@]@%ld", symbol, value, &frame) < 2) die("bad --set %s", v);
            Step *s = add_step(SET, frame);
            snprintf(s->symbol, sizeof s->symbol, "%s", symbol);
            s->value = strtof(value, NULL);
        } else if (ARG("--program")) {
            // N@FRAME: a MIDI program change to program N (0...127).
            long program = 0, frame = 0;
            if (sscanf(v, "%ld@%ld", &program, &frame) < 1 || program < 0 || program > 127) die("bad --program %s", v);
            Step *s = add_step(PROGRAM, frame);
            s->note = (int)program;
        } else if (ARG("--position")) {
            // SPEED:TRANSPORT-FRAME[:BPM]@FRAME: the host's transport rolls (speed 1) or stops
            // (0), at a tempo when BPM is given.
            float speed = 0, bpm = 0;
            long position = 0, frame = 0;
            if (sscanf(v, "%f:%ld@%ld", &speed, &position, &frame) != 3 && sscanf(v, "%f:%ld:%f@%ld", &speed, &position, &bpm, &frame) != 4)
                die("bad --position %s", v);
            Step *s = add_step(POSITION, frame);
            s->value = speed;
            s->note = (int)position;
            s->tempo = bpm;
        } else if (ARG("--load-file") || ARG("--load-scale") || ARG("--load-map")) {
            // The document file, or the tuning's scale or keyboard map file parameter.
            const char *at = strrchr(v, '@');
            Step *s = add_step(LOAD, at ? parse_frame(at + 1) : 0);
            snprintf(s->path, sizeof s->path, "%.*s", at ? (int)(at - v) : (int)strlen(v), v);
            if (strcmp(a, "--load-scale") == 0) s->property = "urn:toneshaper:tuning-scale";
            if (strcmp(a, "--load-map") == 0) s->property = "urn:toneshaper:tuning-map";
        } else if (ARG("--hostile")) {
            if (is_state_hostile(v)) o.state_hostile = v;
            else {
                const char *at = strrchr(v, '@');
                Step *s = add_step(HOSTILE, at ? parse_frame(at + 1) : 64);
                snprintf(s->hostile, sizeof s->hostile, "%.*s", at ? (int)(at - v) : (int)strlen(v), v);
            }
        } else if (ARG("--without")) {
            if (strcmp(v, "urid:map") == 0) o.without_map = 1;
            else if (strcmp(v, "worker:schedule") == 0) o.without_worker = 1;
            else if (strcmp(v, "log:log") == 0) o.without_log = 1;
            else if (strcmp(v, "options:options") == 0) o.without_options = 1;
            else die("unknown feature %s", v);
        } else die("unknown or incomplete argument %s (see the comment at the top of lv2host.c)", a);
#undef ARG
    }
    if (o.bench_runs > 0) {
        if (o.bench_warmup < 0) o.bench_warmup = (long)o.rate;
        if (o.frames <= 0) o.frames = o.bench_warmup + o.bench_runs * (long)o.block;
        if (o.instances != 1 || o.second_so) die("--bench-runs times one instance");
    }
    if (!o.so || !o.uri || o.frames <= 0 || o.block == 0) die("--so, --uri and --frames are required");
    return o;
}

// --unit: unit_uri, unit_stale (and its seed) and unit_frames_per_beat.
static void resolve_unit(const char *unit, double rate) {
    if (strcmp(unit, "zero") == 0) unit_uri = NULL;
    else if (strcmp(unit, "frame") == 0) unit_uri = "http://lv2plug.in/ns/ext/units#frame";
    else if (strcmp(unit, "frame-time") == 0) unit_uri = LV2_ATOM__frameTime;
    else if (strncmp(unit, "stale", 5) == 0 && (unit[5] == 0 || unit[5] == ':')) {
        unit_stale = 1;
        unit_stale_state = strtoull(unit[5] ? unit + 6 : "1", NULL, 10) * 0x9E3779B97F4A7C15ull + 7;
    } else {
        double bpm = 0;
        char name[16] = "";
        if (sscanf(unit, "%15[a-z-]:%lf", name, &bpm) != 2 || !(bpm > 0)) die("bad --unit %s", unit);
        if (strcmp(name, "beat") == 0) unit_uri = "http://lv2plug.in/ns/ext/units#beat";
        else if (strcmp(name, "beat-time") == 0) unit_uri = LV2_ATOM__beatTime;
        else die("bad --unit %s", unit);
        unit_frames_per_beat = rate * 60 / bpm;
    }
}

// --instances and --cycles checked; --second-so means two instances; a stereo URI, two outputs.
static void check_options(Options *o) {
    if (o->instances < 1 || o->instances > 2) die("--instances is 1 or 2");
    if (o->cycles < 1 || (o->cycles > 1 && o->bench_runs > 0)) die("--cycles is at least 1, and 1 with --bench-runs");
    if (o->second_so) o->instances = 2;
    o->stereo = strstr(o->uri, "stereo") != NULL;
}

// ---- paths ----------------------------------------------------------------------------

// --ttl, or toneshaper.ttl next to the .so (written into `buffer`).
static const char *ttl_path(const Options *o, char buffer[1024]) {
    if (o->ttl) return o->ttl;
    snprintf(buffer, 1024, "%s", o->so);
    char *slash = strrchr(buffer, '/');
    snprintf(slash ? slash + 1 : buffer, 1024 - (size_t)(slash ? slash + 1 - buffer : 0), "toneshaper.ttl");
    return buffer;
}

// The bundle's directory (the .so's), as a host gives it: the plugin reads its
// built-in documents there.
static void bundle_path(const char *so, char bundle[1024]) {
    snprintf(bundle, 1024, "%s", so);
    char *bundle_slash = strrchr(bundle, '/');
    if (bundle_slash) bundle_slash[1] = 0;
    else snprintf(bundle, 1024, "./");
}

// The directory of the hostile files (scratch_file), /tmp/lv2host-PID.
static void make_scratch_dir(void) {
    snprintf(scratch_dir, sizeof scratch_dir, "/tmp/lv2host-%d", (int)getpid());
    char mkdir_command[300];
    snprintf(mkdir_command, sizeof mkdir_command, "mkdir -p '%s'", scratch_dir);
    if (system(mkdir_command) != 0) die("cannot make %s", scratch_dir);
}

static void remove_scratch_dir(void) {
    char rm_command[300];
    snprintf(rm_command, sizeof rm_command, "rm -rf '%s'", scratch_dir);
    if (system(rm_command) != 0) fprintf(stderr, "lv2host: could not remove %s\n", scratch_dir);
}

// ---- one cycle: dlopen, instantiate, the script, cleanup, dlclose ---------------------

typedef struct {
    void *library;
    const LV2_Descriptor *descriptor;
} Loaded;

static Loaded load(const char *so, const char *uri) {
    Loaded l = {0};
    l.library = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!l.library) die("dlopen %s: %s", so, dlerror());
    const LV2_Descriptor *(*entry)(uint32_t) = (const LV2_Descriptor *(*)(uint32_t))dlsym(l.library, "lv2_descriptor");
    if (!entry) die("%s has no lv2_descriptor", so);
    for (uint32_t i = 0; i < 64; i++) {
        const LV2_Descriptor *d = entry(i);
        if (!d) break;
        if (strcmp(d->URI, uri) == 0) {
            l.descriptor = d;
            break;
        }
    }
    if (!l.descriptor) die("%s has no plugin %s", so, uri);
    return l;
}

// What one cycle's instances use, alive from dlopen to dlclose: the features the plugin was
// given (it keeps the pointers), the instances and their ports' buffers.
typedef struct {
    Loaded loaded[2];
    LV2_URID_Map map;
    LV2_URID_Unmap unmap;
    LV2_Log_Log log;
    int32_t min_block, max_block, nominal, sequence_size;
    float sample_rate;
    LV2_Options_Option options[6];
    Instance inst[2];
    // Each instance's schedule feature, alive as long as the instance (the plugin keeps
    // the pointer it was given).
    LV2_Worker_Schedule schedules[2];
    Sequence input[2], notify[2];
    float control_values[2][256];
} Cycle;

// What play() measured of the first instance's output.
typedef struct {
    long nonfinite, out_of_range, first_sound, first_nonzero, differ, stereo_differ;
    float peak;
    long *bench_ns;
    uint32_t *bench_frames;
    long bench_count;
} Result;

// The plugin's library, and --second-so's for the second instance (or the same again).
static void load_plugins(const Options *o, Cycle *c) {
    c->loaded[0] = load(o->so, o->uri);
    if (o->instances == 2) c->loaded[1] = o->second_so ? load(o->second_so, o->uri) : c->loaded[0];
}

// The features (less those --without takes away), each instance, its worker thread
// (--threaded-worker) and its restored state (--restore-state, a hostile state). Returns 4
// when the plugin refuses to instantiate (with the report's lines for that), else 0.
static int instantiate_instances(const Options *o, const char *bundle, Cycle *c) {
    c->map = (LV2_URID_Map){NULL, map_uri};
    c->unmap = (LV2_URID_Unmap){NULL, unmap_uri};
    c->log = (LV2_Log_Log){NULL, log_printf, log_vprintf};
    c->min_block = 1;
    c->max_block = (int32_t)o->block;
    c->nominal = (int32_t)o->block;
    c->sequence_size = (int32_t)o->seq_size;
    c->sample_rate = (float)o->rate;
    LV2_Options_Option options[] = {
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_PARAMETERS__sampleRate), sizeof(float), urid(LV2_ATOM__Float), &c->sample_rate},
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_BUF_SIZE__minBlockLength), 4, urid(LV2_ATOM__Int), &c->min_block},
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_BUF_SIZE__maxBlockLength), 4, urid(LV2_ATOM__Int), &c->max_block},
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_BUF_SIZE__nominalBlockLength), 4, urid(LV2_ATOM__Int), &c->nominal},
        {LV2_OPTIONS_INSTANCE, 0, urid(LV2_BUF_SIZE__sequenceSize), 4, urid(LV2_ATOM__Int), &c->sequence_size},
        {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
    };
    memcpy(c->options, options, sizeof options);
    memset(c->inst, 0, sizeof c->inst);

    for (int k = 0; k < o->instances; k++) {
        Instance *inst = &c->inst[k];
        c->schedules[k] = (LV2_Worker_Schedule){inst, schedule_work};
        LV2_Feature f_map = {LV2_URID__map, &c->map}, f_unmap = {LV2_URID__unmap, &c->unmap}, f_log = {LV2_LOG__log, &c->log},
                    f_schedule = {LV2_WORKER__schedule, &c->schedules[k]}, f_options = {LV2_OPTIONS__options, c->options},
                    f_bounded = {LV2_BUF_SIZE__boundedBlockLength, NULL};
        const LV2_Feature *features[8];
        int n = 0;
        if (!o->without_map) features[n++] = &f_map;
        features[n++] = &f_unmap;
        if (!o->without_log) features[n++] = &f_log;
        if (!o->without_worker) features[n++] = &f_schedule;
        if (!o->without_options) features[n++] = &f_options;
        features[n++] = &f_bounded;
        features[n] = NULL;
        inst->descriptor = c->loaded[k].descriptor;
        inst->handle = inst->descriptor->instantiate(inst->descriptor, o->rate, bundle, features);
        if (!inst->handle) {
            printf("instantiate: refused\nlog_messages: %d\nlog_errors: %d\n", log_messages, log_errors);
            return 4;
        }
        if (inst->descriptor->extension_data) {
            inst->worker = inst->descriptor->extension_data(LV2_WORKER__interface);
            inst->state = inst->descriptor->extension_data(LV2_STATE__interface);
        }
        if (o->threaded_worker && inst->worker) start_worker_thread(inst);
        // A state to restore: from a file, or a hostile one; the instance is new.
        if (o->restore_path || o->state_hostile) {
            if (o->restore_path) load_state_file(o->restore_path);
            else hostile_state(o->state_hostile);
            if (!inst->state) die("the plugin has no state interface");
            LV2_State_Status status = inst->state->restore(inst->handle, retrieve, NULL, 0, NULL);
            fprintf(stderr, "lv2host: restore returned %d\n", (int)status);
        }
    }
    return 0;
}

// Each instance's ports connected (the sequences, the controls at their defaults, the audio
// outputs), then activated.
static void connect_ports(const Options *o, Cycle *c) {
    for (int k = 0; k < o->instances; k++) {
        Instance *inst = &c->inst[k];
        c->input[k].capacity = o->seq_size;
        c->input[k].buffer = aligned_alloc(8, o->seq_size * 4 + 64);  // room for the hostile "too long"
        memset(c->input[k].buffer, 0, o->seq_size * 4 + 64);
        c->notify[k].capacity = o->seq_size;
        c->notify[k].buffer = aligned_alloc(8, o->seq_size);
        inst->left = calloc(o->block, sizeof(float));
        inst->right = calloc(o->block, sizeof(float));
        inst->descriptor->connect_port(inst->handle, 0, c->input[k].buffer);
        inst->descriptor->connect_port(inst->handle, 1, c->notify[k].buffer);
        for (int i = 0; i < control_count; i++) {
            c->control_values[k][i] = controls[i].value;
            inst->descriptor->connect_port(inst->handle, controls[i].index, &c->control_values[k][i]);
        }
        // Values set at frame 0 are set before activation, as a host sets a project's or a
        // preset's values before it runs the plugin.
        for (int i = 0; i < step_count; i++)
            if (steps[i].kind == SET && steps[i].frame == 0) c->control_values[k][control_named(steps[i].symbol) - controls] = steps[i].value;
        inst->descriptor->connect_port(inst->handle, audio_ports[0], inst->left);
        if (o->stereo) inst->descriptor->connect_port(inst->handle, audio_ports[1], inst->right);
        if (inst->descriptor->activate) inst->descriptor->activate(inst->handle);
    }
}

// --bench-paced: sleeps until the block's time, and sets the next block's.
static void wait_for_block(struct timespec *next_block, long block_ns) {
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next_block, NULL);
    next_block->tv_nsec += block_ns;
    while (next_block->tv_nsec >= 1000000000L) {
        next_block->tv_nsec -= 1000000000L;
        next_block->tv_sec++;
    }
}

// The notify port's buffer before run(): an atom the size of the buffer, for the plugin to fill.
static void clear_notify(Sequence *notify) {
    LV2_Atom *notify_atom = (LV2_Atom *)notify->buffer;
    notify_atom->size = notify->capacity - sizeof(LV2_Atom);
    notify_atom->type = 0;
}

// Instance k's input for the block of `n` frames at `start`: the script's steps in the block
// (notes, program changes, positions, file loads and hostile events into the sequence,
// control values into their ports).
static void write_block_events(Cycle *c, int k, long start, uint32_t n) {
    Sequence *input = &c->input[k];
    sequence_clear(input);
    // The hostile "sequence" kinds change the header, so they go last.
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < step_count; i++) {
            Step *s = &steps[i];
            if (s->frame < start || s->frame >= start + n) continue;
            int64_t at = s->frame - start;
            int late = s->kind == HOSTILE && (strcmp(s->hostile, "sequence-too-long") == 0 || strcmp(s->hostile, "not-a-sequence") == 0 ||
                                              strcmp(s->hostile, "event-header-cut") == 0);
            if (late != pass) continue;
            unsigned char midi[3];
            switch (s->kind) {
            case NOTE_ON:
                midi[0] = 0x90;
                midi[1] = (unsigned char)s->note;
                midi[2] = (unsigned char)s->velocity;
                append_midi(input, at, midi, 3);
                break;
            case NOTE_OFF:
                midi[0] = 0x80;
                midi[1] = (unsigned char)s->note;
                midi[2] = 0;
                append_midi(input, at, midi, 3);
                break;
            case SET: c->control_values[k][control_named(s->symbol) - controls] = s->value; break;
            case LOAD:
                if (s->property) append_patch_set(input, at, urid(s->property), urid(LV2_ATOM__Path), s->path, (uint32_t)strlen(s->path) + 1);
                else append_path(input, at, s->path);
                break;
            case POSITION: append_position(input, at, s->value, s->note, s->tempo); break;
            case PROGRAM: {
                unsigned char change[2] = {0xC0, (unsigned char)s->note};
                append_midi(input, at, change, 2);
                break;
            }
            case HOSTILE: append_hostile(input, at, s->hostile, n); break;
            case SYSEX: {
                unsigned char bytes[512];
                uint32_t length = (uint32_t)(strlen(s->path) / 2);
                for (uint32_t b = 0; b < length; b++) {
                    unsigned byte = 0;
                    if (sscanf(s->path + 2 * b, "%2x", &byte) != 1) die("bad --sysex bytes %s", s->path);
                    bytes[b] = (unsigned char)byte;
                }
                append_midi(input, at, bytes, length);
                break;
            }
            }
        }
}

// Instance k's run() of the block (timed for --bench-runs once past the warm-up), then its
// notify port read (the first instance's) and its worker's turn.
static void run_block(const Options *o, Cycle *c, int k, long start, uint32_t n, Result *r) {
    Instance *inst = &c->inst[k];
    if (o->bench_runs > 0 && start >= o->bench_warmup && r->bench_count < o->bench_runs) {
        long t0 = now_ns();
        inst->descriptor->run(inst->handle, n);
        long t1 = now_ns();
        r->bench_ns[r->bench_count] = t1 - t0;
        r->bench_frames[r->bench_count++] = n;
    } else
        inst->descriptor->run(inst->handle, n);
    if (k == 0) read_notify(c->notify[k].buffer, c->notify[k].capacity);
    run_worker(inst);
}

// The block's samples of the first instance counted into the report (and compared with its
// right channel and the second instance's).
static void measure_block(const Options *o, const Cycle *c, long start, uint32_t n, Result *r) {
    for (uint32_t i = 0; i < n; i++) {
        float x = c->inst[0].left[i];
        if (!isfinite(x)) r->nonfinite++;
        else {
            if (fabsf(x) > 1) r->out_of_range++;
            if (fabsf(x) > r->peak) r->peak = fabsf(x);
            if (r->first_sound < 0 && fabsf(x) > 1e-4f) r->first_sound = start + i;
            if (r->first_nonzero < 0 && x != 0.0f) r->first_nonzero = start + i;
        }
        if (o->stereo && memcmp(&x, &c->inst[0].right[i], sizeof x) != 0) r->stereo_differ++;
        if (o->instances == 2 && memcmp(&x, &c->inst[1].left[i], sizeof x) != 0) r->differ++;
    }
}

// The script played, block by block, every instance in turn; the first instance's output
// written to --out.
static Result play(const Options *o, Cycle *c) {
    FILE *output = o->out ? fopen(o->out, "wb") : NULL;
    if (o->out && !output) die("cannot write %s", o->out);
    Result r = {.first_sound = -1, .first_nonzero = -1};
    r.bench_ns = o->bench_runs > 0 ? malloc((size_t)o->bench_runs * sizeof *r.bench_ns) : NULL;
    r.bench_frames = o->bench_runs > 0 ? malloc((size_t)o->bench_runs * sizeof *r.bench_frames) : NULL;
    struct timespec next_block;
    clock_gettime(CLOCK_MONOTONIC, &next_block);
    long block_ns = (long)(o->block * 1e9 / o->rate);
    for (long start = 0; start < o->frames; start += o->block) {
        if (o->bench_paced) wait_for_block(&next_block, block_ns);
        uint32_t n = (uint32_t)(o->frames - start < o->block ? o->frames - start : o->block);
        for (int k = 0; k < o->instances; k++) {
            clear_notify(&c->notify[k]);
            write_block_events(c, k, start, n);
            run_block(o, c, k, start, n, &r);
        }
        measure_block(o, c, start, n, &r);
        if (output) fwrite(c->inst[0].left, sizeof(float), n, output);
    }
    if (output) fclose(output);
    return r;
}

// The work still queued is done (and its answers delivered) before saving and cleanup.
static void drain_workers(const Options *o, Cycle *c) {
    for (int k = 0; k < o->instances; k++) {
        stop_worker_thread(&c->inst[k]);
        run_worker(&c->inst[k]);
    }
}

// --save-state: the first instance's state, to the file.
static void save_state(const Options *o, Cycle *c) {
    if (!o->save_path) return;
    if (!c->inst[0].state) die("the plugin has no state interface");
    property_count = 0;
    LV2_State_Status status = c->inst[0].state->save(c->inst[0].handle, store, NULL, LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE, NULL);
    if (status != LV2_STATE_SUCCESS) fprintf(stderr, "lv2host: save returned %d\n", (int)status);
    save_state_file(o->save_path);
}

// Each instance deactivated and cleaned up, then the ports' buffers freed.
static void cleanup_instances(const Options *o, Cycle *c) {
    for (int k = 0; k < o->instances; k++) {
        if (c->inst[k].descriptor->deactivate) c->inst[k].descriptor->deactivate(c->inst[k].handle);
        c->inst[k].descriptor->cleanup(c->inst[k].handle);
    }
    for (int k = 0; k < o->instances; k++) {
        free(c->input[k].buffer);
        free(c->notify[k].buffer);
        free(c->inst[k].left);
        free(c->inst[k].right);
    }
}

// The report (see the comment at the top), and --bench-runs' run_* lines.
static void print_report(const Options *o, const Cycle *c, Result *r) {
    printf("frames: %ld\npeak: %g\nnonfinite: %ld\nout_of_range: %ld\nfirst_sound: %ld\nfirst_nonzero: %ld\n", o->frames, r->peak, r->nonfinite,
           r->out_of_range, r->first_sound, r->first_nonzero);
    printf("log_messages: %d\nlog_errors: %d\nworker_requests: %d\nworker_refused: %d\n", log_messages, log_errors,
           c->inst[0].worker_requests, c->inst[0].worker_refused);
    printf("state_properties: %d\nstereo_differ: %ld\ninstances_differ: %ld\n", property_count, r->stereo_differ, r->differ);
    printf("notify_events: %d\nnotify_malformed: %d\nnotify_path: %s\n", notify_events, notify_malformed, notify_path);
    if (o->bench_runs > 0) {
        if (r->bench_count == 0) die("--bench-runs: no call was timed (--frames is shorter than the warm-up)");
        bench_report(r->bench_ns, r->bench_frames, r->bench_count, o->block, o->rate, o->bench_times);
        free(r->bench_ns);
        free(r->bench_frames);
    }
}

// The libraries closed; returns 1 when the plugin's library is no longer mapped.
static int unload(const Options *o, const Cycle *c) {
    for (int k = 1; k < o->instances; k++)
        if (c->loaded[k].library != c->loaded[0].library) dlclose(c->loaded[k].library);
    dlclose(c->loaded[0].library);
    // Still mapped after dlclose (RTLD_NOLOAD finds it): the library was not unloaded.
    void *still = dlopen(o->so, RTLD_NOW | RTLD_NOLOAD);
    if (!still) return 1;
    dlclose(still);
    return 0;
}

// ---- --cycles: resident memory --------------------------------------------------------

typedef struct {
    long start, *loaded, *unloaded;  // before the first dlopen; each cycle's before cleanup, after dlclose
    int unloaded_every_cycle;
} Memory;

static Memory memory_before(int cycles) {
    Memory m = {.unloaded_every_cycle = 1};
    m.loaded = calloc((size_t)cycles, sizeof(long));
    m.unloaded = calloc((size_t)cycles, sizeof(long));
    m.start = resident_kb();
    return m;
}

// The report's --cycles lines (when there were several), and the figures freed.
static void print_memory_report(Memory *m, int cycles) {
    if (cycles > 1) {
        printf("cycles: %d\nso_unloaded_every_cycle: %d\nrss_start_kb: %ld\nrss_loaded_kb:", cycles, m->unloaded_every_cycle, m->start);
        for (int c = 0; c < cycles; c++) printf(" %ld", m->loaded[c]);
        printf("\nrss_unloaded_kb:");
        for (int c = 0; c < cycles; c++) printf(" %ld", m->unloaded[c]);
        printf("\n");
    }
    free(m->loaded);
    free(m->unloaded);
}

// ---- main -----------------------------------------------------------------------------

int main(int argc, char **argv) {
    Options o = parse_options(argc, argv);
    resolve_unit(o.unit, o.rate);
    check_options(&o);
    char ttl[1024], bundle[1024];
    read_ports(ttl_path(&o, ttl), o.uri);
    bundle_path(o.so, bundle);
    make_scratch_dir();

    // --cycles N: everything from dlopen to dlclose N times in this one process, resident
    // memory read after each cycle's run (what the plugin holds) and after its dlclose.
    Memory memory = memory_before(o.cycles);
    int status = 0;
    for (int cycle = 0; cycle < o.cycles; cycle++) {
        Cycle c = {0};
        load_plugins(&o, &c);
        if (instantiate_instances(&o, bundle, &c) != 0) return 4;
        connect_ports(&o, &c);
        Result r = play(&o, &c);
        drain_workers(&o, &c);
        save_state(&o, &c);
        memory.loaded[cycle] = resident_kb();
        cleanup_instances(&o, &c);
        if (cycle == o.cycles - 1) print_report(&o, &c, &r);
        if (!unload(&o, &c)) memory.unloaded_every_cycle = 0;
        memory.unloaded[cycle] = resident_kb();
        status = r.nonfinite || r.out_of_range || r.stereo_differ || r.differ || notify_malformed ? 2 : status;
    }
    remove_scratch_dir();
    print_memory_report(&memory, o.cycles);
    return status;
}
