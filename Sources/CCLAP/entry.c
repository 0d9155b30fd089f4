// The shared object's one exported symbol, clap_entry, and the tables a host reads before
// it makes an instance: the two plugins' descriptors and the plugin factory. Instances are
// made by the Swift shell (toneshaper_clap_create).

#include "cclap.h"
#include "plugin_support.h"

const toneshaper_clap_plugin *toneshaper_clap_create(const toneshaper_clap_host *host, int stereo);

static const char *const mono_features[] = {"instrument", "synthesizer", "mono", NULL};
static const char *const stereo_features[] = {"instrument", "synthesizer", "stereo", NULL};

// The program's version (Sources/toneshaper/Version.swift, the one place it is written),
// passed in by Scripts/build-clap.sh as -D TONESHAPER_VERSION="\"0.4.0\"".
#ifndef TONESHAPER_VERSION
#error "TONESHAPER_VERSION is not defined: build with Scripts/build-clap.sh, which reads it from Sources/toneshaper/Version.swift"
#endif

#define TONESHAPER_DESCRIPTION "Plays tone shapes: a curve of frequency over time, repeated; drone or a voice per note"

static const toneshaper_clap_plugin_descriptor descriptors[2] = {
    {{TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, "org.toneshaper.instrument", "ToneShaper", "ToneShaper",
     "", "", "", TONESHAPER_VERSION, TONESHAPER_DESCRIPTION, mono_features},
    {{TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, "org.toneshaper.instrument-stereo", "ToneShaper (stereo)",
     "ToneShaper", "", "", "", TONESHAPER_VERSION, TONESHAPER_DESCRIPTION, stereo_features},
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
        if (toneshaper_plugin_equal(plugin_id, descriptors[i].id)) return toneshaper_clap_create(host, i);
    }
    return NULL;
}

static const toneshaper_clap_plugin_factory factory = {plugin_count, plugin_descriptor, create_plugin};

// ---- preset discovery: the built-in shapes (inside the plugin) and the user's library ------

static const toneshaper_clap_preset_provider_descriptor provider_descriptor = {
    {TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, "org.toneshaper.presets", "ToneShaper shapes", "ToneShaper"};

static const toneshaper_clap_universal_plugin_id plugin_ids[2] = {{"clap", "org.toneshaper.instrument"},
                                                                   {"clap", "org.toneshaper.instrument-stereo"}};

/// The user's folders of documents (toneshaper_plugin_shapes_folder): the shapes, then the
/// folder earlier versions saved them in.
static char shapes[TONESHAPER_CLAP_PATH_SIZE];
static char library[TONESHAPER_CLAP_PATH_SIZE];

static bool provider_init(const toneshaper_clap_preset_provider *provider) {
    const toneshaper_clap_preset_indexer *indexer = provider->provider_data;
    const toneshaper_clap_preset_filetype filetype = {"ToneShaper document", "A tone shape: its curve and every parameter", "toneshaper"};
    if (indexer->declare_filetype) indexer->declare_filetype(indexer, &filetype);
    const toneshaper_clap_preset_location builtins = {TONESHAPER_CLAP_PRESET_IS_FACTORY_CONTENT, "ToneShaper built-in shapes",
                                                      TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN, NULL};
    if (indexer->declare_location) indexer->declare_location(indexer, &builtins);
    if (toneshaper_plugin_shapes_folder(0, shapes, sizeof shapes)) {
        const toneshaper_clap_preset_location user = {TONESHAPER_CLAP_PRESET_IS_USER_CONTENT, "ToneShaper shapes",
                                                      TONESHAPER_CLAP_PRESET_LOCATION_FILE, shapes};
        if (indexer->declare_location) indexer->declare_location(indexer, &user);
    }
    if (toneshaper_plugin_shapes_folder(1, library, sizeof library)) {
        const toneshaper_clap_preset_location old = {TONESHAPER_CLAP_PRESET_IS_USER_CONTENT, "ToneShaper library",
                                                     TONESHAPER_CLAP_PRESET_LOCATION_FILE, library};
        if (indexer->declare_location) indexer->declare_location(indexer, &old);
    }
    return true;
}

static void provider_destroy(const toneshaper_clap_preset_provider *provider) { free((void *)provider); }

static void declare_plugins(const toneshaper_clap_preset_metadata_receiver *receiver) {
    for (int i = 0; i < 2; i++)
        if (receiver->add_plugin_id) receiver->add_plugin_id(receiver, &plugin_ids[i]);
    if (receiver->add_feature) receiver->add_feature(receiver, "instrument");
}

/// The plugin's own presets (each built-in shape, its name the load key), or one document file.
static bool provider_metadata(const toneshaper_clap_preset_provider *provider, uint32_t kind, const char *location,
                              const toneshaper_clap_preset_metadata_receiver *receiver) {
    (void)provider;
    if (!receiver || !receiver->begin_preset) return false;
    if (kind == TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN) {
        for (int i = 0; i < toneshaper_clap_builtin_count(); i++) {
            size_t size;
            const char *name;
            toneshaper_clap_builtin(i, &size, &name);
            if (!receiver->begin_preset(receiver, name, name)) return true;
            declare_plugins(receiver);
            if (receiver->set_flags) receiver->set_flags(receiver, TONESHAPER_CLAP_PRESET_IS_FACTORY_CONTENT);
        }
        return true;
    }
    if (kind == TONESHAPER_CLAP_PRESET_LOCATION_FILE && location) {
        size_t length = strlen(location);
        if (length < 12 || strcmp(location + length - 11, ".toneshaper") != 0) {
            if (receiver->on_error) receiver->on_error(receiver, 0, "not a .toneshaper document");
            return false;
        }
        if (!receiver->begin_preset(receiver, NULL, NULL)) return true;
        declare_plugins(receiver);
        return true;
    }
    return false;
}

static const void *provider_extension(const toneshaper_clap_preset_provider *provider, const char *id) {
    (void)provider;
    (void)id;
    return NULL;
}

static uint32_t provider_count(const toneshaper_clap_preset_discovery_factory *factory) {
    (void)factory;
    return 1;
}

static const toneshaper_clap_preset_provider_descriptor *provider_get_descriptor(const toneshaper_clap_preset_discovery_factory *factory,
                                                                                 uint32_t index) {
    (void)factory;
    return index == 0 ? &provider_descriptor : NULL;
}

static const toneshaper_clap_preset_provider *provider_create(const toneshaper_clap_preset_discovery_factory *factory,
                                                              const toneshaper_clap_preset_indexer *indexer, const char *id) {
    (void)factory;
    if (!indexer || !toneshaper_plugin_equal(id, provider_descriptor.id)) return NULL;
    toneshaper_clap_preset_provider *provider = calloc(1, sizeof *provider);
    if (!provider) return NULL;
    provider->desc = &provider_descriptor;
    provider->provider_data = (void *)indexer;
    provider->init = provider_init;
    provider->destroy = provider_destroy;
    provider->get_metadata = provider_metadata;
    provider->get_extension = provider_extension;
    return provider;
}

static const toneshaper_clap_preset_discovery_factory preset_discovery = {provider_count, provider_get_descriptor, provider_create};

static bool entry_init(const char *plugin_path) {
    (void)plugin_path;
    return true;
}

static void entry_deinit(void) {}

static const void *entry_factory(const char *factory_id) {
    if (toneshaper_plugin_equal(factory_id, TONESHAPER_CLAP_PLUGIN_FACTORY_ID)) return &factory;
    if (toneshaper_plugin_equal(factory_id, TONESHAPER_CLAP_PRESET_DISCOVERY_FACTORY_ID) ||
        toneshaper_plugin_equal(factory_id, TONESHAPER_CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT))
        return &preset_discovery;
    return NULL;
}

const toneshaper_clap_plugin_entry clap_entry = {
    {TONESHAPER_CLAP_MAJOR, TONESHAPER_CLAP_MINOR, TONESHAPER_CLAP_REVISION}, entry_init, entry_deinit, entry_factory};
