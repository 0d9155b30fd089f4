// lv2soundcheck: runs an installed LV2 plugin for one second as lilv's lv2bench runs it, and
// reports whether it makes sound. lv2bench times run() with every control at its default,
// urid:map and urid:unmap as the only features (no worker, no options, no log), every audio
// input reading one zeroed buffer, every audio output writing one shared buffer, an empty
// input sequence on every atom input and a 1024-byte buffer on every atom output; a plugin
// that stays silent under those conditions would be timed doing nothing. This tool sets the
// plugin up the same way and prints, one "key: value" a line, the peak and the RMS of the
// output buffer over the second (Scripts/bench.sh plugin refuses to compare a silent plugin).
//
// Given FRAMES, it then times that many frames of run() as lv2bench does (one clock read
// around the loop), but with the two URIDs the loop writes into the atom buffers each block
// mapped once before it, as hosts keep them. lv2bench maps them again every block through a
// linear search of every URI mapped so far, a cost that grows with the number of URIs the
// plugin mapped, and is the harness's, not the plugin's; this shows each plugin without it.
//
//   cc -std=c11 -O1 -o lv2soundcheck Tests/LV2Host/lv2soundcheck.c $(pkg-config --cflags --libs lilv-0) -lm
//   LV2_PATH=... lv2soundcheck URI [BLOCK [FRAMES]]
//
// Exit status: 0 it ran (sound or not: the caller judges the peak); 3 usage error, plugin
// not found, a feature required that lv2bench does not offer, or an unknown port type; 4
// the plugin refused to instantiate.
#define _POSIX_C_SOURCE 200809L
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// urid:map over a fixed table: a check maps a few dozen URIs at most.
enum { max_uris = 1024 };
static char *uris[max_uris];
static uint32_t uri_count = 0;

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (uint32_t i = 0; i < uri_count; i++)
        if (strcmp(uris[i], uri) == 0) return i + 1;
    if (uri_count == max_uris) return 0;
    uris[uri_count] = strdup(uri);
    return ++uri_count;
}

static const char *unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid) {
    (void)handle;
    return urid >= 1 && urid <= uri_count ? uris[urid - 1] : NULL;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: lv2soundcheck URI [BLOCK [FRAMES]]\n");
        return 3;
    }
    const uint32_t block = argc >= 3 ? (uint32_t)atoi(argv[2]) : 256;
    const long timed_frames = argc == 4 ? atol(argv[3]) : 0;
    const uint32_t rate = 48000;
    if (block == 0 || block > 8192) {
        fprintf(stderr, "lv2soundcheck: BLOCK must be 1 to 8192\n");
        return 3;
    }

    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    LilvNode *uri = lilv_new_uri(world, argv[1]);
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
    if (!plugin) {
        fprintf(stderr, "lv2soundcheck: no plugin <%s> on LV2_PATH\n", argv[1]);
        return 3;
    }
    LilvNode *urid_map = lilv_new_uri(world, LV2_URID__map);
    LilvNodes *required = lilv_plugin_get_required_features(plugin);
    LILV_FOREACH (nodes, i, required) {
        const LilvNode *feature = lilv_nodes_get(required, i);
        if (!lilv_node_equals(feature, urid_map)) {
            fprintf(stderr, "lv2soundcheck: <%s> requires <%s>, which lv2bench does not offer\n", argv[1],
                    lilv_node_as_uri(feature));
            return 3;
        }
    }

    LV2_URID_Map map = {NULL, map_uri};
    LV2_URID_Unmap unmap = {NULL, unmap_uri};
    LV2_Feature map_feature = {LV2_URID__map, &map};
    LV2_Feature unmap_feature = {LV2_URID__unmap, &unmap};
    const LV2_Feature *features[] = {&map_feature, &unmap_feature, NULL};
    LilvInstance *instance = lilv_plugin_instantiate(plugin, rate, features);
    if (!instance) {
        fprintf(stderr, "lv2soundcheck: <%s> refused to instantiate\n", argv[1]);
        return 4;
    }

    float *in = calloc(block, sizeof(float));
    float *out = calloc(block, sizeof(float));
    const size_t atom_capacity = 1024;
    LV2_Atom_Sequence seq_in = {{sizeof(LV2_Atom_Sequence_Body), map_uri(NULL, LV2_ATOM__Sequence)}, {0, 0}};
    LV2_Atom_Sequence *seq_out = malloc(sizeof(LV2_Atom_Sequence) + atom_capacity);
    const uint32_t port_count = lilv_plugin_get_num_ports(plugin);
    float *mins = calloc(port_count, sizeof(float));
    float *maxes = calloc(port_count, sizeof(float));
    float *controls = calloc(port_count, sizeof(float));
    lilv_plugin_get_port_ranges_float(plugin, mins, maxes, controls);
    LilvNode *control_port = lilv_new_uri(world, LV2_CORE__ControlPort);
    LilvNode *audio_port = lilv_new_uri(world, LV2_CORE__AudioPort);
    LilvNode *cv_port = lilv_new_uri(world, LV2_CORE__CVPort);
    LilvNode *atom_port = lilv_new_uri(world, LV2_ATOM__AtomPort);
    LilvNode *input_port = lilv_new_uri(world, LV2_CORE__InputPort);
    for (uint32_t index = 0; index < port_count; index++) {
        const LilvPort *port = lilv_plugin_get_port_by_index(plugin, index);
        const bool input = lilv_port_is_a(plugin, port, input_port);
        if (lilv_port_is_a(plugin, port, control_port)) {
            // A control without a default takes its minimum, else its maximum, else 0, as in lv2bench.
            if (isnan(controls[index])) controls[index] = !isnan(mins[index]) ? mins[index] : !isnan(maxes[index]) ? maxes[index] : 0;
            lilv_instance_connect_port(instance, index, &controls[index]);
        } else if (lilv_port_is_a(plugin, port, audio_port) || lilv_port_is_a(plugin, port, cv_port)) {
            lilv_instance_connect_port(instance, index, input ? in : out);
        } else if (lilv_port_is_a(plugin, port, atom_port)) {
            lilv_instance_connect_port(instance, index, input ? (void *)&seq_in : (void *)seq_out);
        } else {
            fprintf(stderr, "lv2soundcheck: <%s> port %u has a type lv2bench does not run\n", argv[1], index);
            return 3;
        }
    }

    lilv_instance_activate(instance);
    double peak = 0, sum_squares = 0;
    const uint32_t calls = rate / block;
    for (uint32_t call = 0; call < calls; call++) {
        seq_in.atom.size = sizeof(LV2_Atom_Sequence_Body);
        seq_out->atom.size = atom_capacity;
        seq_out->atom.type = map_uri(NULL, LV2_ATOM__Chunk);
        lilv_instance_run(instance, block);
        for (uint32_t i = 0; i < block; i++) {
            const double sample = fabs((double)out[i]);
            if (!(sample <= peak)) peak = sample;  // a NaN becomes the peak, and shows
            sum_squares += sample * sample;
        }
    }
    printf("frames: %u\npeak: %.6f\nrms: %.6f\n", calls * block, peak, sqrt(sum_squares / (calls * block)));
    if (timed_frames > 0) {
        const LV2_URID sequence = map_uri(NULL, LV2_ATOM__Sequence), chunk = map_uri(NULL, LV2_ATOM__Chunk);
        const long timed_calls = timed_frames / block;
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (long call = 0; call < timed_calls; call++) {
            seq_in.atom.size = sizeof(LV2_Atom_Sequence_Body);
            seq_in.atom.type = sequence;
            seq_out->atom.size = atom_capacity;
            seq_out->atom.type = chunk;
            lilv_instance_run(instance, block);
        }
        clock_gettime(CLOCK_MONOTONIC, &end);
        const double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) * 1e-9;
        printf("timed_frames: %ld\nns_per_sample: %.4f\n", timed_calls * (long)block, seconds * 1e9 / (double)(timed_calls * (long)block));
    }
    lilv_instance_deactivate(instance);
    lilv_instance_free(instance);
    return 0;
}
