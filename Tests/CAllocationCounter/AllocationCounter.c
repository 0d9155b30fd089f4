#define _GNU_SOURCE
#include "AllocationCounter.h"
#include <stddef.h>
#include <malloc.h>

/* glibc's own entry points, so the overrides below need no dlsym (which allocates). */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread int counting;
static __thread uint64_t count;

void allocation_counter_start(void) { count = 0; counting = 1; }
uint64_t allocation_counter_stop(void) { counting = 0; return count; }

void *malloc(size_t n) { if (counting) count++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { if (counting) count++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { if (counting) count++; return __libc_realloc(p, n); }
void free(void *p) { if (counting && p) count++; __libc_free(p); }
void *memalign(size_t a, size_t n) { if (counting) count++; return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { if (counting) count++; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    if (counting) count++;
    void *p = __libc_memalign(a, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
