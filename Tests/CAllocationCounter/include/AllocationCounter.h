#ifndef TONESHAPER_ALLOCATION_COUNTER_H
#define TONESHAPER_ALLOCATION_COUNTER_H
#include <stdint.h>

/* Counts heap allocations made by the calling thread between start and stop, by
   interposing malloc and friends in the test executable. Used to show that rendering
   thousands of periods allocates nothing. */
void allocation_counter_start(void);
uint64_t allocation_counter_stop(void);
#endif
