// The shared object's three exported symbols (GetPluginFactory, ModuleEntry, ModuleExit), the
// plugin factory a host reads before it makes an instance (IPluginFactory, 2 and 3: the two
// classes, mono and stereo), and the interface ids the Swift shell answers for. Instances are
// made by the Swift shell (toneshaper_vst3_create).

#include "cvst3.h"
#include "plugin_support.h"

#include <stdlib.h>
#include <string.h>

// The program's version (Sources/toneshaper/Version.swift, the one place it is written),
// passed in by Scripts/build-vst3.sh as -D TONESHAPER_VERSION="\"0.4.0\"".
#ifndef TONESHAPER_VERSION
#error "TONESHAPER_VERSION is not defined: build with Scripts/build-vst3.sh, which reads it from Sources/toneshaper/Version.swift"
#endif

/// An id as the SDK's INLINE_UID writes it on Linux: each 32-bit word, most significant byte first.
#define UID(a, b, c, d)                                                                                                      \
    {(uint8_t)((a) >> 24), (uint8_t)((a) >> 16), (uint8_t)((a) >> 8), (uint8_t)(a), (uint8_t)((b) >> 24), (uint8_t)((b) >> 16), \
     (uint8_t)((b) >> 8),  (uint8_t)(b),         (uint8_t)((c) >> 24), (uint8_t)((c) >> 16), (uint8_t)((c) >> 8), (uint8_t)(c), \
     (uint8_t)((d) >> 24), (uint8_t)((d) >> 16), (uint8_t)((d) >> 8),  (uint8_t)(d)}

// ---- interface ids --------------------------------------------------------------------

static const uint8_t funknown_iid[16] = UID(0x00000000, 0x00000000, 0xC0000000, 0x00000046);
static const uint8_t plugin_base_iid[16] = UID(0x22888DDB, 0x156E45AE, 0x8358B348, 0x08190625);
static const uint8_t factory_iid[16] = UID(0x7A4D811C, 0x52114A1F, 0xAED9D2EE, 0x0B43BF9F);
static const uint8_t factory2_iid[16] = UID(0x0007B650, 0xF24B4C0B, 0xA464EDB9, 0xF00B2ABB);
static const uint8_t factory3_iid[16] = UID(0x4555A2AB, 0xC1234E57, 0x9B122910, 0x36878931);

/// The component's interfaces, by slot (cvst3.h); FUnknown and IPluginBase are slot 0's.
static const uint8_t component_iids[7][16] = {
    UID(0xE831FF31, 0xF2D54301, 0x928EBBEE, 0x25697802),  // IComponent
    UID(0x42043F99, 0xB7DA453C, 0xA569E79D, 0x9AAEC33D),  // IAudioProcessor
    UID(0xDCD7BBE3, 0x7742448D, 0xA874AACC, 0x979C759E),  // IEditController
    UID(0xDF0FF9F7, 0x49B74669, 0xB63AB732, 0x7ADBF5E5),  // IMidiMapping
    UID(0x3D4BD6B5, 0x913A4FD2, 0xA886E768, 0xA5EB92C1),  // IUnitInfo
    UID(0xB7F8F859, 0x41234872, 0x91169581, 0x4F3721A3),  // INoteExpressionController
    UID(0x2A654303, 0xEF764E3D, 0x95B5FE83, 0x730EF6D0),  // IProcessContextRequirements
};

/// The editor view's interfaces, by slot; FUnknown is slot 0's.
static const uint8_t view_iids[3][16] = {
    UID(0x5BC32507, 0xD06049EA, 0xA6151B52, 0x2B755B29),  // IPlugView
    UID(0x10BDD94F, 0x41424774, 0x821FAD8F, 0xECA72CA9),  // Linux::ITimerHandler
    UID(0x561E65C9, 0x13A0496F, 0x813A2C35, 0x654D7983),  // Linux::IEventHandler
};

static const uint8_t run_loop_iid[16] = UID(0x18C35366, 0x97764F1A, 0x9C5B8385, 0x7A871389);

int toneshaper_vst3_same_id(const uint8_t *a, const uint8_t *b) { return a && b && memcmp(a, b, 16) == 0; }

/// The slot of the interface `iid` names in an object of `kind`, or -1.
static int slot_of(int32_t kind, const uint8_t *iid) {
    if (toneshaper_vst3_same_id(iid, funknown_iid) || (kind == TONESHAPER_VST3_COMPONENT && toneshaper_vst3_same_id(iid, plugin_base_iid)))
        return 0;
    const int count = kind == TONESHAPER_VST3_COMPONENT ? 7 : 3;
    for (int slot = 0; slot < count; slot++)
        if (toneshaper_vst3_same_id(iid, kind == TONESHAPER_VST3_COMPONENT ? component_iids[slot] : view_iids[slot])) return slot;
    return -1;
}

// ---- the plugin's objects: interfaces and one reference count --------------------------

struct toneshaper_vst3_counted {
    uint32_t references;
    int32_t kind;
    void *body;
    void (*destroy)(void *body);
    toneshaper_vst3_object interfaces[7];
};

void *toneshaper_vst3_make(int32_t kind, void *body, void (*destroy)(void *body), const void *const *tables) {
    struct toneshaper_vst3_counted *counted = calloc(1, sizeof *counted);
    if (!counted) return NULL;
    counted->references = 1;
    counted->kind = kind;
    counted->body = body;
    counted->destroy = destroy;
    for (int slot = 0; slot < (kind == TONESHAPER_VST3_COMPONENT ? 7 : 3); slot++) counted->interfaces[slot] = (toneshaper_vst3_object){tables[slot], counted};
    return &counted->interfaces[0];
}

void *toneshaper_vst3_body(void *interface) { return interface ? ((toneshaper_vst3_object *)interface)->counted->body : NULL; }

void *toneshaper_vst3_slot(void *interface, int32_t slot) { return &((toneshaper_vst3_object *)interface)->counted->interfaces[slot]; }

toneshaper_vst3_result toneshaper_vst3_query(void *self, const uint8_t *iid, void **object) {
    if (!self || !object) return TONESHAPER_VST3_INVALID_ARGUMENT;
    struct toneshaper_vst3_counted *counted = ((toneshaper_vst3_object *)self)->counted;
    int slot = slot_of(counted->kind, iid);
    if (slot < 0) {
        *object = NULL;
        return TONESHAPER_VST3_NO_INTERFACE;
    }
    __atomic_add_fetch(&counted->references, 1, __ATOMIC_RELAXED);
    *object = &counted->interfaces[slot];
    return TONESHAPER_VST3_OK;
}

uint32_t toneshaper_vst3_add_ref(void *self) {
    return self ? __atomic_add_fetch(&((toneshaper_vst3_object *)self)->counted->references, 1, __ATOMIC_RELAXED) : 0;
}

uint32_t toneshaper_vst3_release(void *self) {
    if (!self) return 0;
    struct toneshaper_vst3_counted *counted = ((toneshaper_vst3_object *)self)->counted;
    uint32_t left = __atomic_sub_fetch(&counted->references, 1, __ATOMIC_ACQ_REL);
    if (left == 0) {
        counted->destroy(counted->body);
        free(counted);
    }
    return left;
}

const uint8_t *toneshaper_vst3_host_iid(int which) { return which == TONESHAPER_VST3_HOST_RUN_LOOP ? run_loop_iid : NULL; }

// ---- the classes ----------------------------------------------------------------------

/// The two instruments' class ids. FROZEN: a host saves projects by them, so they never
/// change (Tests/ToneShaperPluginTests/VST3ClassIDTests.swift checks them). Each is the MD5 of
/// the CLAP plugin's id: "org.toneshaper.instrument" and "org.toneshaper.instrument-stereo".
static const uint8_t class_ids[2][16] = {
    UID(0xF86493AA, 0xEECFBCDB, 0xB7CADF1A, 0x73D55927),  // ToneShaper (mono)
    UID(0x920414C7, 0x3A90F826, 0x4F903663, 0xFEDFF65F),  // ToneShaper (stereo)
};
static const char *const class_names[2] = {"ToneShaper", "ToneShaper (stereo)"};

#define VENDOR "ToneShaper"
#define CATEGORY "Audio Module Class"
#define SUBCATEGORIES "Instrument|Synth"
#define SDK_VERSION "VST 3.7.9"
#define MANY_INSTANCES 0x7FFFFFFF
#define SIMPLE_MODE_SUPPORTED 2  // ComponentFlags: not distributable, one object for processor and controller

/// The plugin's instance (the Swift shell): the object for `iid`, added a reference, or NULL.
void *toneshaper_vst3_create(int stereo, const uint8_t *iid);

static void copy_text(char *to, size_t size, const char *text) {
    strncpy(to, text, size - 1);
    to[size - 1] = 0;
}

static void copy_text16(toneshaper_vst3_char16 *to, size_t count, const char *text) {
    size_t i = 0;
    for (; text[i] && i < count - 1; i++) to[i] = (unsigned char)text[i];  // ASCII only here
    to[i] = 0;
}

static toneshaper_vst3_result factory_query(void *self, const uint8_t *iid, void **object);
static uint32_t factory_add_ref(void *self) {
    (void)self;
    return 1;  // the factory is static: it lives as long as the shared object
}
static uint32_t factory_release(void *self) {
    (void)self;
    return 1;
}

static toneshaper_vst3_result get_factory_info(void *self, toneshaper_vst3_factory_info *info) {
    (void)self;
    if (!info) return TONESHAPER_VST3_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    copy_text(info->vendor, sizeof info->vendor, VENDOR);
    info->flags = 1 << 4;  // kUnicode: names come through getClassInfoUnicode too
    return TONESHAPER_VST3_OK;
}

static int32_t count_classes(void *self) {
    (void)self;
    return 2;
}

/// Class `index` as IPluginFactory2 describes it; IPluginFactory's description is the first
/// part of it (the same fields in the same places), IPluginFactory3's the same in UTF-16.
static toneshaper_vst3_result get_class_info2(void *self, int32_t index, toneshaper_vst3_class_info2 *info) {
    (void)self;
    if (!info || index < 0 || index > 1) return TONESHAPER_VST3_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    memcpy(info->cid, class_ids[index], 16);
    info->cardinality = MANY_INSTANCES;
    copy_text(info->category, sizeof info->category, CATEGORY);
    copy_text(info->name, sizeof info->name, class_names[index]);
    info->class_flags = SIMPLE_MODE_SUPPORTED;
    copy_text(info->subcategories, sizeof info->subcategories, SUBCATEGORIES);
    copy_text(info->vendor, sizeof info->vendor, VENDOR);
    copy_text(info->version, sizeof info->version, TONESHAPER_VERSION);
    copy_text(info->sdk_version, sizeof info->sdk_version, SDK_VERSION);
    return TONESHAPER_VST3_OK;
}

static toneshaper_vst3_result get_class_info(void *self, int32_t index, toneshaper_vst3_class_info *info) {
    toneshaper_vst3_class_info2 whole;
    if (!info || get_class_info2(self, index, &whole) != TONESHAPER_VST3_OK) return TONESHAPER_VST3_INVALID_ARGUMENT;
    memcpy(info, &whole, sizeof *info);
    return TONESHAPER_VST3_OK;
}

static toneshaper_vst3_result get_class_info_unicode(void *self, int32_t index, toneshaper_vst3_class_info_w *info) {
    toneshaper_vst3_class_info2 whole;
    if (!info || get_class_info2(self, index, &whole) != TONESHAPER_VST3_OK) return TONESHAPER_VST3_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    memcpy(info, &whole, offsetof(toneshaper_vst3_class_info_w, name));  // id, cardinality, category
    copy_text16(info->name, 64, whole.name);
    info->class_flags = whole.class_flags;
    memcpy(info->subcategories, whole.subcategories, sizeof info->subcategories);
    copy_text16(info->vendor, 64, whole.vendor);
    copy_text16(info->version, 64, whole.version);
    copy_text16(info->sdk_version, 64, whole.sdk_version);
    return TONESHAPER_VST3_OK;
}

static toneshaper_vst3_result create_instance(void *self, const char *cid, const char *iid, void **object) {
    (void)self;
    if (!object) return TONESHAPER_VST3_INVALID_ARGUMENT;
    *object = NULL;
    for (int i = 0; i < 2; i++) {
        if (!toneshaper_vst3_same_id((const uint8_t *)cid, class_ids[i])) continue;
        *object = toneshaper_vst3_create(i, (const uint8_t *)iid);
        return *object ? TONESHAPER_VST3_OK : TONESHAPER_VST3_NO_INTERFACE;
    }
    return TONESHAPER_VST3_INVALID_ARGUMENT;
}

static toneshaper_vst3_result set_host_context(void *self, void *context) {
    (void)self;
    (void)context;
    return TONESHAPER_VST3_OK;  // nothing the factory needs of the host
}

/// IPluginFactory3's table: IPluginFactory's and IPluginFactory2's functions come first, so it
/// serves all three.
static const struct {
    TONESHAPER_VST3_UNKNOWN
    toneshaper_vst3_result (*get_factory_info)(void *, toneshaper_vst3_factory_info *);
    int32_t (*count_classes)(void *);
    toneshaper_vst3_result (*get_class_info)(void *, int32_t, toneshaper_vst3_class_info *);
    toneshaper_vst3_result (*create_instance)(void *, const char *, const char *, void **);
    toneshaper_vst3_result (*get_class_info2)(void *, int32_t, toneshaper_vst3_class_info2 *);
    toneshaper_vst3_result (*get_class_info_unicode)(void *, int32_t, toneshaper_vst3_class_info_w *);
    toneshaper_vst3_result (*set_host_context)(void *, void *);
} factory_vtable = {factory_query,   factory_add_ref, factory_release, get_factory_info,       count_classes,
                    get_class_info,  create_instance, get_class_info2, get_class_info_unicode, set_host_context};
_Static_assert(sizeof factory_vtable == 10 * 8 || sizeof(void *) != 8, "IPluginFactory3");
_Static_assert(offsetof(toneshaper_vst3_class_info2, class_flags) == sizeof(toneshaper_vst3_class_info), "PClassInfo is PClassInfo2's start");

static struct {
    const void *vtable;
} factory = {&factory_vtable};

static toneshaper_vst3_result factory_query(void *self, const uint8_t *iid, void **object) {
    if (!object) return TONESHAPER_VST3_INVALID_ARGUMENT;
    if (toneshaper_vst3_same_id(iid, funknown_iid) || toneshaper_vst3_same_id(iid, factory_iid) ||
        toneshaper_vst3_same_id(iid, factory2_iid) || toneshaper_vst3_same_id(iid, factory3_iid)) {
        *object = self;
        return TONESHAPER_VST3_OK;
    }
    *object = NULL;
    return TONESHAPER_VST3_NO_INTERFACE;
}

// ---- the exported entry points --------------------------------------------------------

__attribute__((visibility("default"))) void *GetPluginFactory(void) { return &factory; }

/// Linux's module entry and exit (the host passes the shared object's handle): nothing to do.
__attribute__((visibility("default"))) bool ModuleEntry(void *handle) {
    (void)handle;
    return true;
}

__attribute__((visibility("default"))) bool ModuleExit(void) { return true; }
