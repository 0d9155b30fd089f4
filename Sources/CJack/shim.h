#include <jack/jack.h>
#include <jack/statistics.h>

/* jack_client_open is variadic, which Swift cannot call: this fixed-argument wrapper can. */
static inline jack_client_t *toneshaper_jack_client_open(const char *name, jack_options_t options,
                                                          jack_status_t *status) {
    return jack_client_open(name, options, status);
}
