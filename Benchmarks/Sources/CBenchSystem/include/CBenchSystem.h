// Linux headers the benchmark needs that Swift's Glibc module does not bring in.
#include <sys/vfs.h>

// The file system type of a path (statfs f_type), or -1 when statfs fails.
long stoic_bench_filesystem_type(const char *path);

// Allocations (malloc, calloc, realloc, memalign, aligned_alloc, posix_memalign) the calling
// thread has made since it started.
unsigned long stoic_bench_allocations(void);

#include <stdint.h>

// Starts `path` with `argv` (NULL-terminated) and this process's environment, its standard
// output on `output_fd` and its standard error on `error_fd` when they are not negative. The
// child's pid, or -1.
int stoic_bench_spawn(const char *path, char *const argv[], int output_fd, int error_fd);

// Waits for child `pid` (wait4): its wait status, CPU seconds (user + system) and peak
// resident memory in KiB. 0, or -1 when wait4 fails.
int stoic_bench_wait(int pid, int *status, double *cpu_seconds, long *max_rss_kib);

// A wait status's exit code, or -1 when the child did not exit.
int stoic_bench_exited(int status);

// The signal that ended a child (from its wait status), or 0.
int stoic_bench_signal(int status);

// An 8-byte counter in the file at `path` (created when new, zero), mapped shared: what a
// process stores there survives its SIGKILL. NULL on failure.
uint64_t *stoic_bench_map_counter(const char *path);

void stoic_bench_counter_store(uint64_t *counter, uint64_t value);
uint64_t stoic_bench_counter_load(const uint64_t *counter);

// Makes SIGTERM set a flag instead of ending the process: the pipeline's app then stops
// logging and ends as a service does on SIGTERM (it drains or flushes what it holds).
void stoic_bench_catch_sigterm(void);

// Whether a SIGTERM arrived since stoic_bench_catch_sigterm.
int stoic_bench_sigterm_caught(void);
