#include "CStoicAtomics.h"

int stoic_atomics_are_lock_free(void) {
  return __atomic_always_lock_free(sizeof(uint64_t), 0) ? 1 : 0;
}
