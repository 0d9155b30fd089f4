// The shared object's one exported symbol, clap_entry, and the tables a host reads before
// it makes an instance: the two plugins' descriptors and the plugin factory. Instances are
// made by the Swift shell (toneshaper_clap_create).

#include "cclap.h"

const toneshaper_clap_plugin *toneshaper_clap_create(const toneshaper_clap_host *host, int stereo);

static const char *const mono_features[] = {"instrument", "synthesizer", "mono", NULL};
static const char *const stereo_features[] = {"instrument", "synthesizer", "stereo", NULL};

#define TONESHAPER_DESCRIPTION "Plays tone shapes: a curve of frequency over time, repeated; drone or a voice per note"

static const toneshaper_clap_plugin_descriptor descriptors[2] = {
    {{TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, "org.toneshaper.instrument", "ToneShaper", "ToneShaper",
     "", "", "", "1.0.0", TONESHAPER_DESCRIPTION, mono_features},
    {{TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, "org.toneshaper.instrument-stereo", "ToneShaper (stereo)",
     "ToneShaper", "", "", "", "1.0.0", TONESHAPER_DESCRIPTION, stereo_features},
};

const toneshaper_clap_plugin_descriptor *toneshaper_clap_descriptor(int stereo) { return &descriptors[stereo ? 1 : 0]; }

static uint32_t plugin_count(const toneshaper_clap_plugin_factory *factory) {
    (void)factory;
    return 2;
}

static const toneshaper_clap_plugin_descriptor *plugin_descriptor(const toneshaper_clap_plugin_factory *factory, uint32_t index) {
    (void)factory;
    return index < 2 ? &descriptors[index] : NULL;
}

static const toneshaper_clap_plugin *create_plugin(const toneshaper_clap_plugin_factory *factory, const toneshaper_clap_host *host,
                                                   const char *plugin_id) {
    (void)factory;
    if (!host) return NULL;
    for (int i = 0; i < 2; i++) {
        if (toneshaper_clap_equal(plugin_id, descriptors[i].id)) return toneshaper_clap_create(host, i);
    }
    return NULL;
}

static const toneshaper_clap_plugin_factory factory = {plugin_count, plugin_descriptor, create_plugin};

static bool entry_init(const char *plugin_path) {
    (void)plugin_path;
    return true;
}

static void entry_deinit(void) {}

static const void *entry_factory(const char *factory_id) {
    if (toneshaper_clap_equal(factory_id, TONESHAPER_CLAP_PLUGIN_FACTORY_ID)) return &factory;
    return NULL;
}

const toneshaper_clap_plugin_entry clap_entry = {
    {TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, entry_init, entry_deinit, entry_factory};
