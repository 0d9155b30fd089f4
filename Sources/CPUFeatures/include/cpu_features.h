#ifndef TONESHAPER_CPU_FEATURES_H
#define TONESHAPER_CPU_FEATURES_H

/// 1 when this CPU and the OS running it support every instruction of the x86-64-v3 level
/// (AVX, AVX2, FMA, BMI1/2, LZCNT, MOVBE, F16C, with the OS saving the YMM registers).
/// 0 on other CPUs and on other architectures.
int toneshaper_cpu_has_x86_64_v3(void);

/// 1 when the CPU and OS support x86-64-v4 (v3 plus AVX-512 F, BW, CD, DQ and VL, with the
/// OS saving the ZMM and mask registers). 0 elsewhere.
int toneshaper_cpu_has_x86_64_v4(void);

/// Writes the processor's brand string (cpuid leaves 0x80000002-4), NUL-terminated, into
/// `out` (at least 49 bytes). An empty string where cpuid has none.
void toneshaper_cpu_brand(char *out, int size);

/// getenv(name): the value of an environment variable, NULL when unset. Here so that the
/// Swift that asks (the kernel level's selection) needs no C library module of its own,
/// which Embedded Swift cannot import.
const char *toneshaper_environment_value(const char *name);

#endif
