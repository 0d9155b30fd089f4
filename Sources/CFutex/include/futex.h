#ifndef TONESHAPER_FUTEX_H
#define TONESHAPER_FUTEX_H
#include <stdint.h>

/* The two system calls of the control side's wake-up (ToneShaperJack's `ControlWake`). The
   protocol around them (a 32-bit word changed with atomics) is Swift; only the calls that
   Swift cannot make, and the compiler's real-time proof cannot see into, are here.

   toneshaper_futex_wake: wakes at most one thread sleeping in toneshaper_futex_wait on
   `word`. Called from the JACK process callback, and only when the word says a thread
   sleeps. It never blocks: FUTEX_WAKE hashes the address, takes that hash bucket's kernel
   lock for the few instructions of dequeuing one waiter, marks it runnable and returns (the
   same call JACK2 makes from its own real-time threads to start the next client, and
   sem_post makes). No allocation, no user-space lock, no I/O. */
void toneshaper_futex_wake(uint32_t *word);

/* Sleeps while *word == expected, for at most timeout_ns nanoseconds (CLOCK_MONOTONIC).
   Returns at once if *word != expected; may return early (a signal, a spurious wake-up):
   the caller looks at the word again. Control thread only. */
void toneshaper_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns);

#endif
