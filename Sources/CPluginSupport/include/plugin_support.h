// What every plugin format's shell needs of C and Embedded Swift cannot call itself (it
// imports no Glibc): string equality, a monotonic clock, a short pause, reading a whole
// file, the documents of a folder, standard error, and a work thread of the plugin's own.
// Header-only (static inline): each shell's build includes it; nothing here is exported
// from a plugin.
#ifndef TONESHAPER_PLUGIN_SUPPORT_H
#define TONESHAPER_PLUGIN_SUPPORT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/// strcmp of two NUL-terminated strings, either of which may be NULL (then unequal).
static inline int toneshaper_plugin_equal(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/// Seconds on the monotonic clock (the rate limit of repeated log lines).
static inline double toneshaper_plugin_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/// A tenth of a millisecond's sleep (a thread off the audio thread waiting for another).
static inline void toneshaper_plugin_pause(void) {
    struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
}

/// A line on standard error, for a host without a log.
static inline void toneshaper_plugin_stderr(const char *prefix, const char *message) { fprintf(stderr, "%s: %s\n", prefix, message); }

static inline void toneshaper_plugin_free(void *pointer) { free(pointer); }

/// Formats a number for a host's text of a value: `digits` significant digits, then `unit`
/// (may be empty). (Embedded Swift's description of a Double is not fixed point.)
static inline void toneshaper_plugin_format_number(char *buffer, unsigned capacity, double value, int digits, const char *unit) {
    if (!buffer || capacity == 0) return;
    if (unit && unit[0]) snprintf(buffer, capacity, "%.*g %s", digits, value, unit);
    else snprintf(buffer, capacity, "%.*g", digits, value);
}

/// Reads a number at the start of `text` (spaces first, a unit after it allowed): 1 when there is one.
static inline int toneshaper_plugin_parse_number(const char *text, double *value) {
    if (!text) return 0;
    char *end = NULL;
    double parsed = strtod(text, &end);
    if (end == text) return 0;
    *value = parsed;
    return 1;
}

/// Why toneshaper_plugin_read_file gave no bytes.
enum {
    TONESHAPER_PLUGIN_FILE_OK = 0,
    TONESHAPER_PLUGIN_FILE_MISSING = 1,
    TONESHAPER_PLUGIN_FILE_UNREADABLE = 2,
    TONESHAPER_PLUGIN_FILE_TOO_LARGE = 3,
    TONESHAPER_PLUGIN_FILE_EMPTY = 4,
};

/// Reads a whole file of at most `limit` bytes into a malloc'd buffer (free with
/// toneshaper_plugin_free), off the audio thread only. NULL, with the reason in *status,
/// when it cannot.
static inline unsigned char *toneshaper_plugin_read_file(const char *path, size_t limit, size_t *size, int *status) {
    *size = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        *status = TONESHAPER_PLUGIN_FILE_MISSING;
        return NULL;
    }
    unsigned char *bytes = NULL;
    size_t used = 0, capacity = 0;
    int reason = TONESHAPER_PLUGIN_FILE_OK;
    for (;;) {
        if (used == capacity) {
            if (capacity > limit) {
                reason = TONESHAPER_PLUGIN_FILE_TOO_LARGE;
                break;
            }
            capacity = capacity ? capacity * 2 : 65536;
            unsigned char *grown = realloc(bytes, capacity);
            if (!grown) {
                reason = TONESHAPER_PLUGIN_FILE_UNREADABLE;
                break;
            }
            bytes = grown;
        }
        size_t got = fread(bytes + used, 1, capacity - used, file);
        used += got;
        if (got == 0) break;
    }
    if (reason == TONESHAPER_PLUGIN_FILE_OK) {
        if (ferror(file)) reason = TONESHAPER_PLUGIN_FILE_UNREADABLE;
        else if (used > limit) reason = TONESHAPER_PLUGIN_FILE_TOO_LARGE;
        else if (used == 0) reason = TONESHAPER_PLUGIN_FILE_EMPTY;
    }
    fclose(file);
    *status = reason;
    if (reason != TONESHAPER_PLUGIN_FILE_OK) {
        free(bytes);
        return NULL;
    }
    *size = used;
    return bytes;
}

// The work thread: a thread of the plugin's own, woken by a semaphore (sem_post neither
// blocks nor allocates: the audio thread may call it).

typedef struct toneshaper_plugin_thread {
    pthread_t thread;
    sem_t wake;
    int started;
} toneshaper_plugin_thread;

/// Starts `body(context)` on a new thread; 1 on success.
static inline int toneshaper_plugin_thread_start(toneshaper_plugin_thread *worker, void *(*body)(void *), void *context) {
    if (sem_init(&worker->wake, 0, 0) != 0) return 0;
    if (pthread_create(&worker->thread, NULL, body, context) != 0) {
        sem_destroy(&worker->wake);
        return 0;
    }
    worker->started = 1;
    return 1;
}

static inline void toneshaper_plugin_thread_wake(toneshaper_plugin_thread *worker) { sem_post(&worker->wake); }

static inline void toneshaper_plugin_thread_wait(toneshaper_plugin_thread *worker) {
    while (sem_wait(&worker->wake) != 0) {}
}

/// Joins the thread (its body must have been told to return, and woken).
static inline void toneshaper_plugin_thread_join(toneshaper_plugin_thread *worker) {
    if (!worker->started) return;
    pthread_join(worker->thread, NULL);
    sem_destroy(&worker->wake);
    worker->started = 0;
}

/// Only the files a document library holds: names ending in ".toneshaper".
static inline int toneshaper_plugin_is_document(const struct dirent *entry) {
    size_t length = strlen(entry->d_name);
    return entry->d_name[0] != '.' && length > 11 && strcmp(entry->d_name + length - 11, ".toneshaper") == 0;
}

/// Byte order of names, as the node lists its documents (not the locale's collation).
static inline int toneshaper_plugin_by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

/// Writes the path of the `index`th document (by name) of directory `directory` into `path`
/// (`capacity` bytes): 1 when there is one, 0 when not (or the path would not fit). Off the
/// audio thread only.
static inline int toneshaper_plugin_nth_document(const char *directory, int index, char *path, size_t capacity) {
    struct dirent **entries = NULL;
    int count = scandir(directory, &entries, toneshaper_plugin_is_document, toneshaper_plugin_by_name);
    if (count < 0) return 0;
    int found = 0;
    if (index >= 0 && index < count) {
        int written = snprintf(path, capacity, "%s/%s", directory, entries[index]->d_name);
        found = written > 0 && (size_t)written < capacity;
    }
    for (int i = 0; i < count; i++) free(entries[i]);
    free(entries);
    return found;
}

/// The user's folder of shapes (`old` 0) or the folder earlier versions saved them in (`old`
/// 1), into `folder` (`capacity` bytes): `$XDG_DATA_HOME/toneshaper/shapes` (`.../library`),
/// XDG_DATA_HOME only if absolute, else `~/.local/share/toneshaper/...`. 1 when there is
/// one, 0 without XDG_DATA_HOME or HOME (or when it would not fit). TONESHAPER_LIBRARY, when
/// set, is the user's folder and the only one, as the node's LibraryLocations says (a musician
/// who moved the library for the node finds the same shapes in the plugins). The one rule the
/// window, the CLAP preset provider and the node share.
static inline int toneshaper_plugin_shapes_folder(int old, char *folder, size_t capacity) {
    const char *explicit_folder = getenv("TONESHAPER_LIBRARY");
    if (explicit_folder && explicit_folder[0]) {
        if (old) return 0;
        int n = snprintf(folder, capacity, "%s", explicit_folder);
        return n > 0 && (size_t)n < capacity;
    }
    const char *data = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    const char *leaf = old ? "library" : "shapes";
    int n;
    if (data && data[0] == '/') n = snprintf(folder, capacity, "%s/toneshaper/%s", data, leaf);
    else if (home && home[0]) n = snprintf(folder, capacity, "%s/.local/share/toneshaper/%s", home, leaf);
    else return 0;
    return n > 0 && (size_t)n < capacity;
}

/// What toneshaper_plugin_save_file and toneshaper_plugin_rename_file say.
enum {
    TONESHAPER_PLUGIN_SAVED = 0,
    TONESHAPER_PLUGIN_SAVE_EXISTS = 1,
    TONESHAPER_PLUGIN_SAVE_FAILED = 2,
};

/// Makes `folder` and its parents (mode 0755); 1 when it is there.
static inline int toneshaper_plugin_make_folder(const char *folder) {
    char path[4096];
    size_t length = strlen(folder);
    if (length == 0 || length >= sizeof path) return 0;
    memcpy(path, folder, length + 1);
    for (size_t i = 1; i <= length; i++) {
        if (path[i] != '/' && path[i] != 0) continue;
        char kept = path[i];
        path[i] = 0;
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return 0;
        path[i] = kept;
    }
    // opendir, not stat: stat is a symbol of a newer glibc than the plugins may need.
    DIR *dir = opendir(folder);
    if (dir) closedir(dir);
    return dir != NULL;
}

/// Writes `size` bytes into a new file `path` (opened with `flags` and `mode`), synced and
/// closed: 1 when all of it is on disk (what both atomic writers below put in place).
static inline int toneshaper_plugin_write_synced(const char *path, int flags, mode_t mode, const unsigned char *bytes, size_t size) {
    int fd = open(path, flags, mode);
    if (fd < 0) return 0;
    size_t done = 0;
    while (done < size) {
        ssize_t wrote = write(fd, bytes + done, size - done);
        if (wrote <= 0 && errno != EINTR) break;
        if (wrote > 0) done += (size_t)wrote;
    }
    int ok = done == size && fsync(fd) == 0;
    return close(fd) == 0 && ok;
}

/// Writes `size` bytes as the file `path` atomically and never over another: into a hidden
/// temporary file beside it, synced, then linked to its name (link refuses a name that
/// exists), the temporary removed. SAVED, EXISTS (nothing changed) or FAILED (nothing left).
static inline int toneshaper_plugin_save_file(const char *folder, const char *path, const unsigned char *bytes, size_t size) {
    if (!toneshaper_plugin_make_folder(folder)) return TONESHAPER_PLUGIN_SAVE_FAILED;
    if (access(path, F_OK) == 0) return TONESHAPER_PLUGIN_SAVE_EXISTS;
    char temporary[4200];
    int n = snprintf(temporary, sizeof temporary, "%s/.saving-%ld.tmp", folder, (long)getpid());
    if (n <= 0 || (size_t)n >= sizeof temporary) return TONESHAPER_PLUGIN_SAVE_FAILED;
    int ok = toneshaper_plugin_write_synced(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644, bytes, size);
    int result = TONESHAPER_PLUGIN_SAVE_FAILED;
    if (ok) result = link(temporary, path) == 0 ? TONESHAPER_PLUGIN_SAVED : errno == EEXIST ? TONESHAPER_PLUGIN_SAVE_EXISTS : result;
    unlink(temporary);
    return result;
}

/// Renames file `from` to `to` (the same folder), never over another file: linked to its new
/// name, then the old name removed. SAVED, EXISTS or FAILED (nothing changed).
static inline int toneshaper_plugin_rename_file(const char *from, const char *to) {
    if (link(from, to) != 0) return errno == EEXIST ? TONESHAPER_PLUGIN_SAVE_EXISTS : TONESHAPER_PLUGIN_SAVE_FAILED;
    if (unlink(from) != 0) {
        unlink(to);
        return TONESHAPER_PLUGIN_SAVE_FAILED;
    }
    return TONESHAPER_PLUGIN_SAVED;
}

/// The folder of the document snapshots a plugin's window asks for (DocumentSnapshot):
/// `$XDG_RUNTIME_DIR/toneshaper` (the user's own, cleared at logout) when it is absolute, else
/// `/tmp/toneshaper-<uid>`. 1 when it fits in `capacity`.
static inline int toneshaper_plugin_snapshot_folder(char *folder, size_t capacity) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    int n;
    if (runtime && runtime[0] == '/') n = snprintf(folder, capacity, "%s/toneshaper", runtime);
    else n = snprintf(folder, capacity, "/tmp/toneshaper-%ld", (long)getuid());
    return n > 0 && (size_t)n < capacity;
}

/// Writes `size` bytes as the file `path` in `folder` (made, mode 0700, when missing),
/// replacing the file there: a temporary file beside it, synced, renamed to its name, so a
/// reader finds the old file or the new one whole. SAVED or FAILED (nothing left).
static inline int toneshaper_plugin_replace_file(const char *folder, const char *path, const unsigned char *bytes, size_t size) {
    if (mkdir(folder, 0700) != 0 && errno != EEXIST) return TONESHAPER_PLUGIN_SAVE_FAILED;
    if (access(folder, W_OK | X_OK) != 0) return TONESHAPER_PLUGIN_SAVE_FAILED;
    char temporary[4200];
    int n = snprintf(temporary, sizeof temporary, "%s.%ld.tmp", path, (long)getpid());
    if (n <= 0 || (size_t)n >= sizeof temporary) return TONESHAPER_PLUGIN_SAVE_FAILED;
    int ok = toneshaper_plugin_write_synced(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600, bytes, size);
    if (ok && rename(temporary, path) == 0) return TONESHAPER_PLUGIN_SAVED;
    unlink(temporary);
    return TONESHAPER_PLUGIN_SAVE_FAILED;
}

/// This process's id (a window's snapshot names hold it: two hosts never share a name).
static inline long toneshaper_plugin_process_id(void) { return (long)getpid(); }

/// Removes the file `path` (nothing when it is not there).
static inline void toneshaper_plugin_remove_file(const char *path) { unlink(path); }

#endif
