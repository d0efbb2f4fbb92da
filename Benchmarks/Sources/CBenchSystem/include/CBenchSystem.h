// Linux headers the benchmark needs that Swift's Glibc module does not bring in.
#include <sys/vfs.h>

// The file system type of a path (statfs f_type), or -1 when statfs fails.
long stoic_bench_filesystem_type(const char *path);

// Allocations (malloc, calloc, realloc, memalign, aligned_alloc, posix_memalign) the calling
// thread has made since it started.
unsigned long stoic_bench_allocations(void);
