// strtod and snprintf("%.*e"), pinned to the "C" locale. strtod_l takes the locale as an
// argument; snprintf has no such variant, so its output is read back digit by digit and
// its decimal point (whichever character the locale uses) is never relied on.
#define _GNU_SOURCE
#include "number_text.h"
#include <float.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

/// The "C" locale, made once. (glibc returns a static object for it; elsewhere a second
/// thread racing here frees its copy.)
static locale_t c_locale(void) {
    static locale_t cached = (locale_t)0;
    locale_t made = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
    if (made) return made;
    made = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!made) return (locale_t)0;
    locale_t expected = (locale_t)0;
    if (!__atomic_compare_exchange_n(&cached, &expected, made, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        freelocale(made);
        return expected;
    }
    return made;
}

double toneshaper_read_number(const char *text) {
    locale_t c = c_locale();
    return c ? strtod_l(text, NULL, c) : strtod(text, NULL);
}

int toneshaper_read_whole_number(const char *text, double *value) {
    if (!text[0] || text[0] == ' ' || (text[0] >= '\t' && text[0] <= '\r')) return 0;
    locale_t c = c_locale();
    char *end = NULL;
    double read = c ? strtod_l(text, &end, c) : strtod(text, &end);
    if (!end || *end) return 0;
    *value = read;
    return 1;
}

int toneshaper_shortest_digits(double value, unsigned char *digits, int *exponent) {
    char printed[48];
    char plain[48];
    int count = 0;
    // A normal double's shortest form, when it has 15 digits or fewer, is its rounding to
    // 15 digits (DBL_DIG): 15 is the first worth trying. A subnormal has fewer digits of
    // its own (5e-324 is the smallest), so there every precision is tried from 1.
    for (int precision = value < DBL_MIN ? 1 : 15; precision <= 17; precision++) {
        snprintf(printed, sizeof printed, "%.*e", precision - 1, value);
        // "d<point>ddde±x": the digits up to 'e', then the exponent.
        const char *p = printed;
        count = 0;
        for (; *p && *p != 'e'; p++) {
            if (*p >= '0' && *p <= '9' && count < 17) digits[count++] = *p;
        }
        *exponent = *p == 'e' ? atoi(p + 1) : 0;
        // The same number spelt with '.', for strtod_l in the C locale.
        int n = snprintf(plain, sizeof plain, "%c.%.*se%d", digits[0], count - 1, (const char *)digits + 1, *exponent);
        if (n < 0 || n >= (int)sizeof plain) break;
        if (toneshaper_read_number(plain) == value) break;
    }
    while (count > 1 && digits[count - 1] == '0') count--;
    return count;
}
