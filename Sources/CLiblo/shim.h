#include <lo/lo.h>

/* LO_TT_IMMEDIATE is a macro Swift does not import. */
static inline lo_timetag toneshaper_lo_tt_immediate(void) {
    lo_timetag t = {0, 1};
    return t;
}
