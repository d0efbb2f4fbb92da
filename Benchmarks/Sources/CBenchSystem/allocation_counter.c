#include "CBenchSystem.h"

#include <errno.h>
#include <stddef.h>

// The benchmark's allocation counter: malloc and its siblings are defined here, in the
// executable, so that every allocation of the process (the Swift runtime's included) passes
// through them and is counted per thread before glibc's own allocator serves it.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread unsigned long allocations;

unsigned long stoic_bench_allocations(void) { return allocations; }

void *malloc(size_t size) {
  allocations++;
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  allocations++;
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  allocations++;
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  allocations++;
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  allocations++;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  allocations++;
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) {
    return ENOMEM;
  }
  *out = pointer;
  return 0;
}
