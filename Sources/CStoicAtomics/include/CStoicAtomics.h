#ifndef CSTOIC_ATOMICS_H
#define CSTOIC_ATOMICS_H

#include <stdint.h>
#include <string.h>

// Atomic operations on 8-byte words anywhere in memory, a shared file mapping included (the
// standard library's `Atomic` lives only in a value of its own). Every word must be 8-byte
// aligned. Counters need no ordering with other memory: they are relaxed. Publishing a record
// (a store the reader must see after the bytes it guards) is a release store, and the matching
// load an acquire load. Floating-point words hold the IEEE 754 bit pattern of a double and are
// updated with compare-and-swap loops.

/// Adds `amount` (wrapping) and returns the new value.
static inline uint64_t stoic_atomic_add(void *word, uint64_t amount) {
  return __atomic_add_fetch((uint64_t *)word, amount, __ATOMIC_RELAXED);
}

/// The value, with no ordering.
static inline uint64_t stoic_atomic_load(const void *word) {
  return __atomic_load_n((const uint64_t *)word, __ATOMIC_RELAXED);
}

/// The value; later reads see what was stored before the release store that wrote it.
static inline uint64_t stoic_atomic_load_acquire(const void *word) {
  return __atomic_load_n((const uint64_t *)word, __ATOMIC_ACQUIRE);
}

/// Stores `value` with no ordering.
static inline void stoic_atomic_store(void *word, uint64_t value) {
  __atomic_store_n((uint64_t *)word, value, __ATOMIC_RELAXED);
}

/// Stores `value` after every store made before it is visible.
static inline void stoic_atomic_store_release(void *word, uint64_t value) {
  __atomic_store_n((uint64_t *)word, value, __ATOMIC_RELEASE);
}

/// Stores `value` and returns the value it replaced.
static inline uint64_t stoic_atomic_exchange(void *word, uint64_t value) {
  return __atomic_exchange_n((uint64_t *)word, value, __ATOMIC_RELAXED);
}

static inline uint64_t stoic_double_bits(double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

static inline double stoic_bits_double(uint64_t bits) {
  double value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

/// Adds `amount` to the double stored in the word (a compare-and-swap loop); returns the sum.
static inline double stoic_atomic_add_double(void *word, double amount) {
  uint64_t *target = (uint64_t *)word;
  uint64_t expected = __atomic_load_n(target, __ATOMIC_RELAXED);
  double sum;
  do {
    sum = stoic_bits_double(expected) + amount;
  } while (!__atomic_compare_exchange_n(
      target, &expected, stoic_double_bits(sum), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return sum;
}

/// Replaces the double stored in the word by `value` if `value` is smaller.
static inline void stoic_atomic_min_double(void *word, double value) {
  uint64_t *target = (uint64_t *)word;
  uint64_t expected = __atomic_load_n(target, __ATOMIC_RELAXED);
  while (value < stoic_bits_double(expected)) {
    if (__atomic_compare_exchange_n(
            target, &expected, stoic_double_bits(value), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// Replaces the double stored in the word by `value` if `value` is larger.
static inline void stoic_atomic_max_double(void *word, double value) {
  uint64_t *target = (uint64_t *)word;
  uint64_t expected = __atomic_load_n(target, __ATOMIC_RELAXED);
  while (value > stoic_bits_double(expected)) {
    if (__atomic_compare_exchange_n(
            target, &expected, stoic_double_bits(value), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// 1 when an 8-byte atomic on this platform is a single instruction (never a lock in a
/// library), 0 otherwise.
int stoic_atomics_are_lock_free(void);

#endif
