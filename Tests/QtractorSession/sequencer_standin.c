// A stand-in for the ALSA sequencer, preloaded (LD_PRELOAD) into Qtractor by the Qtractor
// session test. Qtractor starts its audio engine only together with its MIDI engine, and the
// MIDI engine opens the ALSA sequencer (/dev/snd/seq), which a container or a CI machine
// without the snd-seq kernel module does not have: the session then fails with "The
// audio/MIDI engine could not be started" and no JACK client. Here the sequencer opens and
// is empty: no other client, no port to connect, no event ever comes in, and every event
// sent out is dropped. Qtractor's audio engine (JACK, the buses, the plugins, transport)
// is untouched; the test hears it through JACK.
//
// Only the calls that take the sequencer's handle are replaced: alsa-lib's own functions
// keep the info structures (their sizes, getters and setters), which never see the handle.
// No ALSA header is needed: the handle and the structures are opaque pointers here.
//
//   cc -shared -fPIC -o sequencer_standin.so sequencer_standin.c

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <unistd.h>

typedef struct standin_sequencer {
    int read_end;  // a pipe nobody writes: Qtractor's input thread polls it and sees nothing
    int write_end;
    int next_port;
} standin_sequencer;

static standin_sequencer sequencer = {-1, -1, 0};

int snd_seq_open(void **handle, const char *name, int streams, int mode) {
    (void)name, (void)streams, (void)mode;
    if (sequencer.read_end < 0) {
        int ends[2];
        if (pipe(ends) != 0) return -errno;
        fcntl(ends[0], F_SETFL, O_NONBLOCK);
        sequencer.read_end = ends[0];
        sequencer.write_end = ends[1];
    }
    *handle = &sequencer;
    return 0;
}

int snd_seq_close(void *handle) { return (void)handle, 0; }
int snd_seq_client_id(void *handle) { return (void)handle, 128; }
int snd_seq_set_client_name(void *handle, const char *name) { return (void)handle, (void)name, 0; }

int snd_seq_create_simple_port(void *handle, const char *name, unsigned int caps, unsigned int type) {
    (void)handle, (void)name, (void)caps, (void)type;
    return sequencer.next_port++;
}

int snd_seq_delete_simple_port(void *handle, int port) { return (void)handle, (void)port, 0; }
int snd_seq_alloc_queue(void *handle) { return (void)handle, 0; }
int snd_seq_free_queue(void *handle, int queue) { return (void)handle, (void)queue, 0; }

int snd_seq_poll_descriptors_count(void *handle, short events) { return (void)handle, (void)events, 1; }

int snd_seq_poll_descriptors(void *handle, struct pollfd *descriptors, unsigned int space, short events) {
    (void)handle;
    if (space < 1) return 0;
    descriptors[0].fd = sequencer.read_end;
    descriptors[0].events = events;
    descriptors[0].revents = 0;
    return 1;
}

int snd_seq_event_input(void *handle, void **event) {
    (void)handle;
    if (event) *event = NULL;
    return -EAGAIN;
}

int snd_seq_event_input_pending(void *handle, int fetch) { return (void)handle, (void)fetch, 0; }
int snd_seq_event_output(void *handle, void *event) { return (void)handle, (void)event, 0; }
int snd_seq_event_output_direct(void *handle, void *event) { return (void)handle, (void)event, 0; }
int snd_seq_drain_output(void *handle) { return (void)handle, 0; }
int snd_seq_drop_input(void *handle) { return (void)handle, 0; }
int snd_seq_drop_output(void *handle) { return (void)handle, 0; }
int snd_seq_free_event(void *event) { return (void)event, 0; }
int snd_seq_remove_events(void *handle, void *condition) { return (void)handle, (void)condition, 0; }

int snd_seq_control_queue(void *handle, int queue, int type, int value, void *event) {
    (void)handle, (void)queue, (void)type, (void)value, (void)event;
    return 0;
}

// The queue's status, tempo and timer: the caller's structure is left as it allocated it.
int snd_seq_get_queue_status(void *handle, int queue, void *status) { return (void)handle, (void)queue, (void)status, 0; }
int snd_seq_get_queue_tempo(void *handle, int queue, void *tempo) { return (void)handle, (void)queue, (void)tempo, 0; }
int snd_seq_set_queue_tempo(void *handle, int queue, void *tempo) { return (void)handle, (void)queue, (void)tempo, 0; }
int snd_seq_set_queue_timer(void *handle, int queue, void *timer) { return (void)handle, (void)queue, (void)timer, 0; }

// No other client, no port: nothing to list, connect or subscribe to.
int snd_seq_query_next_client(void *handle, void *info) { return (void)handle, (void)info, -ENOENT; }
int snd_seq_query_next_port(void *handle, void *info) { return (void)handle, (void)info, -ENOENT; }
int snd_seq_query_port_subscribers(void *handle, void *query) { return (void)handle, (void)query, -ENOENT; }
int snd_seq_get_any_client_info(void *handle, int client, void *info) { return (void)handle, (void)client, (void)info, -ENOENT; }
int snd_seq_get_any_port_info(void *handle, int client, int port, void *info) {
    (void)handle, (void)client, (void)port, (void)info;
    return -ENOENT;
}
int snd_seq_get_port_info(void *handle, int port, void *info) { return (void)handle, (void)port, (void)info, 0; }
int snd_seq_set_port_info(void *handle, int port, void *info) { return (void)handle, (void)port, (void)info, 0; }
int snd_seq_subscribe_port(void *handle, void *subscription) { return (void)handle, (void)subscription, -ENOENT; }
int snd_seq_unsubscribe_port(void *handle, void *subscription) { return (void)handle, (void)subscription, -ENOENT; }
