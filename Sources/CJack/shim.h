#include <jack/jack.h>
#include <jack/statistics.h>
#include <jack/midiport.h>
#include <jack/transport.h>
#include <stdint.h>
#include <time.h>

/* jack_client_open is variadic, which Swift cannot call: this fixed-argument wrapper can. */
static inline jack_client_t *toneshaper_jack_client_open(const char *name, jack_options_t options,
                                                          jack_status_t *status) {
    return jack_client_open(name, options, status);
}

/* JACK_DEFAULT_AUDIO_TYPE is a string macro; a function makes its type plain in Swift. */
static inline const char *toneshaper_jack_audio_type(void) { return JACK_DEFAULT_AUDIO_TYPE; }

/* JACK_DEFAULT_MIDI_TYPE, likewise. */
static inline const char *toneshaper_jack_midi_type(void) { return JACK_DEFAULT_MIDI_TYPE; }

/* The transport state and position in one call, flattened for Swift (jack_position_t holds
   a padding array Swift imports as a long tuple): rolling, frame, and, when a timebase
   master gives them (valid BBT), bar, beat, tick, ticks per beat, beats per bar and tempo.
   jack_transport_query is real-time safe. Returns 1 if BBT is valid. */
static inline int toneshaper_jack_transport(jack_client_t *client, int *rolling, uint32_t *frame,
                                            int32_t *bar, int32_t *beat, int32_t *tick,
                                            double *ticks_per_beat, float *beats_per_bar, double *bpm) {
    jack_position_t pos;
    jack_transport_state_t state = jack_transport_query(client, &pos);
    *rolling = state == JackTransportRolling;
    *frame = pos.frame;
    if (!(pos.valid & JackPositionBBT)) return 0;
    *bar = pos.bar; *beat = pos.beat; *tick = pos.tick;
    *ticks_per_beat = pos.ticks_per_beat; *beats_per_bar = pos.beats_per_bar; *bpm = pos.beats_per_minute;
    return 1;
}

/* Monotonic nanoseconds (vDSO, no system call, no allocation): times the process callback. */
static inline uint64_t toneshaper_monotonic_nanoseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wall-clock microseconds since 1970: what OSC time tags (converted to Unix time) count in. */
static inline int64_t toneshaper_wall_clock_microseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + (int64_t)(ts.tv_nsec / 1000);
}

/* Relaxed atomic access to plain memory: the timing histogram is written by the audio
   thread and read by the control side, without locks and without a formal data race. */
static inline uint64_t toneshaper_load_relaxed_u64(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void toneshaper_store_relaxed_u64(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* The same, naming the server to talk to (JackServerName), instead of the default one or
   the one JACK_DEFAULT_SERVER names. */
static inline jack_client_t *toneshaper_jack_client_open_on(const char *name, jack_options_t options,
                                                             jack_status_t *status, const char *server) {
    return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
}
