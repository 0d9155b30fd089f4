// The MTS-ESP client's loader (the header says what and why).
#include "mts_esp_client.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef void (*mts_void)(void);
typedef bool (*mts_bool)(void);
typedef bool (*mts_filter)(char, char);
typedef const double *(*mts_table)(void);

/// The library's functions, published with release stores once all are resolved (`loaded`
/// last), read with acquire loads by the audio thread.
static struct {
    mts_void register_client;
    mts_void deregister_client;
    mts_bool has_master;
    mts_filter should_filter_note;
    mts_table tuning_table;
} functions;
static int loaded;
/// Tried already (found or not): the places are looked at once per process.
static int tried;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *open_library(void) {
    const char *chosen = getenv("TONESHAPER_MTS_LIBRARY");
    if (chosen) return chosen[0] ? dlopen(chosen, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *handle = dlopen("/usr/local/lib/libMTS.so", RTLD_NOW | RTLD_LOCAL);
    return handle ? handle : dlopen("/usr/lib/libMTS.so", RTLD_NOW | RTLD_LOCAL);
}

/// Loads the library and resolves the functions, once (under `lock`).
static void load(void) {
    if (tried) return;
    tried = 1;
    void *handle = open_library();
    if (!handle) return;
    mts_void register_client = (mts_void)dlsym(handle, "MTS_RegisterClient");
    mts_void deregister_client = (mts_void)dlsym(handle, "MTS_DeregisterClient");
    mts_bool has_master = (mts_bool)dlsym(handle, "MTS_HasMaster");
    mts_filter should_filter_note = (mts_filter)dlsym(handle, "MTS_ShouldFilterNote");
    mts_table tuning_table = (mts_table)dlsym(handle, "MTS_GetTuningTable");
    if (!register_client || !deregister_client || !has_master || !should_filter_note || !tuning_table) {
        dlclose(handle);  // not the library we know: no client
        return;
    }
    functions.register_client = register_client;
    functions.deregister_client = deregister_client;
    functions.has_master = has_master;
    functions.should_filter_note = should_filter_note;
    functions.tuning_table = tuning_table;
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

bool toneshaper_mts_register(void) {
    pthread_mutex_lock(&lock);
    load();
    bool found = loaded;
    if (found) functions.register_client();
    pthread_mutex_unlock(&lock);
    return found;
}

void toneshaper_mts_deregister(void) {
    pthread_mutex_lock(&lock);
    if (loaded) functions.deregister_client();
    pthread_mutex_unlock(&lock);
}

const double *toneshaper_mts_tuning_table(void) {
    if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE) || !functions.has_master()) return NULL;
    return functions.tuning_table();
}

bool toneshaper_mts_should_filter_note(unsigned char note, unsigned char channel) {
    if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE) || !functions.has_master()) return false;
    return functions.should_filter_note((char)(note & 0x7F), (char)(channel & 0x0F));
}
