// See futex.h. Linux futexes; elsewhere a short sleep stands in for the wait (the node
// then hears the audio side within about a millisecond, not at once).
#include "futex.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void toneshaper_futex_wake(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void toneshaper_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
    if (timeout_ns <= 0) return;
    struct timespec relative = {(time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000)};
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &relative, NULL, 0);
}
#else
#include <time.h>

void toneshaper_futex_wake(uint32_t *word) { (void)word; }

void toneshaper_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
    if (timeout_ns <= 0 || __atomic_load_n(word, __ATOMIC_ACQUIRE) != expected) return;
    int64_t ns = timeout_ns < 1000000 ? timeout_ns : 1000000;
    struct timespec pause = {0, (long)ns};
    nanosleep(&pause, NULL);
}
#endif
