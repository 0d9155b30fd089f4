#include <sndfile.h>

#ifdef __linux__
/* sync_file_range(2) is a GNU extension that Swift's Glibc module leaves out. Renders use
   it to start writing a long file to disk while it is still being made, so that the fsync
   before the final rename finds little left to do. */
extern int sync_file_range(int fd, long long offset, long long nbytes, unsigned int flags);
static inline int toneshaper_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, 2 /* SYNC_FILE_RANGE_WRITE */);
}
#else
static inline int toneshaper_start_writeback(int fd) { (void)fd; return 0; }
#endif
