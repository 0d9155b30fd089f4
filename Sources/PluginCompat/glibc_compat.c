// What lets the plugins (the LV2 plugin, its editor window, the CLAP plugin) load with
// glibc 2.31 (Debian 11) although they are linked on a newer system. Compiled into each of
// them by Scripts/build-lv2.sh and Scripts/build-clap.sh (not a SwiftPM target); nothing of it
// is exported (their version scripts keep every symbol but the entry point local).
//
// - arc4random_buf came with glibc 2.36, and Embedded Swift's random numbers call it: here it
//   is, over getrandom (glibc 2.25), so the reference binds to this definition.
// - The functions that moved from libpthread and libdl into libc in glibc 2.34 got a new
//   default version there (pthread_create@GLIBC_2.34, dlsym@GLIBC_2.34, ...); the same
//   functions under their old versions are still in every libc since. Scripts/build-*.sh
//   link with -Wl,--wrap=NAME for each TONESHAPER_OLD line at the end of this file (Scripts/plugin-compat.sh
//   reads them), and __wrap_NAME below jumps to NAME at its old
//   version: the arguments are untouched, whatever the function's signature.
#include <errno.h>
#include <stddef.h>
#include <sys/random.h>

void arc4random_buf(void *buffer, size_t size) {
    unsigned char *bytes = buffer;
    while (size > 0) {
        ssize_t got = getrandom(bytes, size, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            // No getrandom (a kernel older than 3.17): the hash seeds are the only use, and
            // they need no secrecy. Anything that varies will do.
            static unsigned long state = 0x9e3779b97f4a7c15ul;
            for (; size > 0; size--) {
                state = state * 6364136223846793005ul + 1442695040888963407ul + (unsigned long)(size_t)bytes;
                *bytes++ = (unsigned char)(state >> 56);
            }
            return;
        }
        bytes += got;
        size -= (size_t)got;
    }
}

// __wrap_NAME: a jump to NAME@VERSION, the version glibc 2.31 has. Each in a section of its
// own, so that the link (--gc-sections) keeps only those called, and a plugin refers to no
// function it does not call (a reference that is never bound would still fail a load with
// every reference bound now, -z now).
#define TONESHAPER_OLD(name, version)                                                      \
    __asm__(".pushsection .text.__wrap_" #name ",\"ax\",@progbits\n"                      \
            ".globl __wrap_" #name "\n"                                                    \
            ".type __wrap_" #name ", @function\n"                                          \
            "__wrap_" #name ":\n"                                                          \
            "    jmp toneshaper_old_" #name "@PLT\n"                                       \
            ".size __wrap_" #name ", . - __wrap_" #name "\n"                               \
            ".popsection\n"                                                                \
            ".symver toneshaper_old_" #name ", " #name "@" version "\n");
// The list: what plugin_compat_check (Scripts/plugin-compat.sh) reported.

// The CLAP plugin's render thread (pthread_create, pthread_join) and its semaphores.
TONESHAPER_OLD(pthread_create, "GLIBC_2.2.5")
TONESHAPER_OLD(pthread_join, "GLIBC_2.2.5")
TONESHAPER_OLD(sem_init, "GLIBC_2.2.5")
TONESHAPER_OLD(sem_destroy, "GLIBC_2.2.5")
TONESHAPER_OLD(sem_wait, "GLIBC_2.2.5")
TONESHAPER_OLD(sem_post, "GLIBC_2.2.5")
// The test hosts Scripts/test-package.sh runs in a Debian 11 root (Tests/LV2Host,
// Tests/CLAPHost): a program's start, and dlopen and its kin.
TONESHAPER_OLD(__libc_start_main, "GLIBC_2.2.5")
TONESHAPER_OLD(dlopen, "GLIBC_2.2.5")
TONESHAPER_OLD(dlsym, "GLIBC_2.2.5")
TONESHAPER_OLD(dlclose, "GLIBC_2.2.5")
TONESHAPER_OLD(dlerror, "GLIBC_2.2.5")
