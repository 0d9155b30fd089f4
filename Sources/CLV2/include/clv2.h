#ifndef TONESHAPER_CLV2_H
#define TONESHAPER_CLV2_H

// The LV2 headers the plugin uses, and the few C helpers Embedded Swift needs (it imports
// no C library module of its own, and cannot call a variadic function). The C target CLV2
// (Package.swift); Scripts/build-lv2.sh maps it as SwiftPM does.

#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>
#include <lv2/midi/midi.h>
#include <lv2/patch/patch.h>
#include <lv2/state/state.h>
#include <lv2/worker/worker.h>
#include <lv2/log/log.h>
#include <lv2/options/options.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/parameters/parameters.h>

#include <stdint.h>

/// Ardour's inline display (a small picture in the mixer strip): its header is not in
/// lv2-dev, so its two structures are declared here as Ardour defines them, under names of
/// our own. The URIs: http://harrisonconsoles.com/lv2/inlinedisplay#interface (the
/// plugin's extension data) and #queue_draw (the host's feature).
typedef struct {
    unsigned char *data;
    int width;
    int height;
    int stride;
} toneshaper_inline_display_surface;

typedef struct {
    toneshaper_inline_display_surface *(*render)(LV2_Handle instance, uint32_t width, uint32_t max_height);
} toneshaper_inline_display_interface;

typedef struct {
    void *handle;
    void (*queue_draw)(void *handle);
} toneshaper_inline_display_queue;
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// Logs `message` through the host's log feature (its printf is variadic).
static inline void toneshaper_lv2_log(const LV2_Log_Log *log, LV2_URID type, const char *message) {
    if (log && log->printf) log->printf(log->handle, type, "toneshaper.lv2: %s\n", message);
}

/// Logs `message` with how many times it happened, through log:log or on standard error.
static inline void toneshaper_lv2_log_counted(const LV2_Log_Log *log, LV2_URID type, const char *message, uint32_t count) {
    if (log && log->printf) {
        if (count > 1) log->printf(log->handle, type, "toneshaper.lv2: %s (%u times)\n", message, count);
        else log->printf(log->handle, type, "toneshaper.lv2: %s\n", message);
    } else {
        if (count > 1) fprintf(stderr, "toneshaper.lv2: %s (%u times)\n", message, count);
        else fprintf(stderr, "toneshaper.lv2: %s\n", message);
    }
}

/// Logs `message` on standard error, when the host offers no log feature.
static inline void toneshaper_lv2_stderr(const char *message) {
    fprintf(stderr, "toneshaper.lv2: %s\n", message);
}



#endif
