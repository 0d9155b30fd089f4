// cpuid and xgetbv, read directly rather than through __builtin_cpu_supports, so that the
// program needs nothing from libgcc or compiler-rt and checks the OS side (XCR0) itself:
// a CPU with AVX-512 under an OS that does not save ZMM registers must not run v4 code.
#include "cpu_features.h"
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

static unsigned long long xcr0(void) {
    unsigned int eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

/// Leaf 1 ECX, leaf 7 EBX, leaf 0x80000001 ECX, and whether the OS saves YMM (and ZMM) state.
typedef struct { unsigned int l1c, l7b, x1c; int ymm, zmm; } Features;

static Features features(void) {
    Features f = {0, 0, 0, 0, 0};
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
    f.l1c = c;
    int osxsave = (c >> 27) & 1;
    if (osxsave) {
        unsigned long long x = xcr0();
        f.ymm = (x & 0x6) == 0x6;               // SSE and AVX state
        f.zmm = (x & 0xE6) == 0xE6;             // and opmask, ZMM_Hi256, Hi16_ZMM
    }
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) f.l7b = b;
    if (__get_cpuid(0x80000001, &a, &b, &c, &d)) f.x1c = c;
    return f;
}

static int bit(unsigned int word, int n) { return (word >> n) & 1; }

int toneshaper_cpu_has_x86_64_v3(void) {
    Features f = features();
    int avx = bit(f.l1c, 28), fma = bit(f.l1c, 12), movbe = bit(f.l1c, 22), f16c = bit(f.l1c, 29);
    int avx2 = bit(f.l7b, 5), bmi1 = bit(f.l7b, 3), bmi2 = bit(f.l7b, 8), lzcnt = bit(f.x1c, 5);
    return f.ymm && avx && fma && movbe && f16c && avx2 && bmi1 && bmi2 && lzcnt;
}

int toneshaper_cpu_has_x86_64_v4(void) {
    if (!toneshaper_cpu_has_x86_64_v3()) return 0;
    Features f = features();
    int avx512f = bit(f.l7b, 16), dq = bit(f.l7b, 17), cd = bit(f.l7b, 28), bw = bit(f.l7b, 30), vl = bit(f.l7b, 31);
    return f.zmm && avx512f && dq && cd && bw && vl;
}

void toneshaper_cpu_brand(char *out, int size) {
    if (size <= 0) return;
    out[0] = 0;
    unsigned int regs[12];
    unsigned int a, b, c, d;
    if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000004) return;
    for (unsigned int leaf = 0; leaf < 3; leaf++) {
        __get_cpuid(0x80000002 + leaf, &regs[4 * leaf], &regs[4 * leaf + 1], &regs[4 * leaf + 2], &regs[4 * leaf + 3]);
    }
    char brand[49];
    memcpy(brand, regs, 48);
    brand[48] = 0;
    const char *start = brand;
    while (*start == ' ') start++;             // some CPUs pad the front
    strncpy(out, start, (size_t)size - 1);
    out[size - 1] = 0;
}

#else

int toneshaper_cpu_has_x86_64_v3(void) { return 0; }
int toneshaper_cpu_has_x86_64_v4(void) { return 0; }
void toneshaper_cpu_brand(char *out, int size) { if (size > 0) out[0] = 0; }

#endif

const char *toneshaper_environment_value(const char *name) { return getenv(name); }
