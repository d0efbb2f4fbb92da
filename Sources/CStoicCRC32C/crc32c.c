#include "CStoicCRC32C.h"

#include <string.h>

// Table-driven CRC32C (reflected polynomial 0x82F63B78), slicing by 8.
static uint32_t table[8][256];
static int table_ready = 0;

static void build_table(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t crc = n;
    for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    table[0][n] = crc;
  }
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t crc = table[0][n];
    for (int k = 1; k < 8; k++) {
      crc = table[0][crc & 0xff] ^ (crc >> 8);
      table[k][n] = crc;
    }
  }
  __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

uint32_t stoic_crc32c_extend_portable(uint32_t crc, const void *bytes, size_t length) {
  if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE)) build_table();  // idempotent
  const unsigned char *p = (const unsigned char *)bytes;
  uint32_t c = ~crc;
  while (length >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    uint32_t lo = (uint32_t)word ^ c;
    uint32_t hi = (uint32_t)(word >> 32);
    c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^
        table[4][lo >> 24] ^ table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
        table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
    p += 8;
    length -= 8;
  }
  while (length--) c = table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
  return ~c;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *bytes,
                                                                size_t length) {
  const unsigned char *p = (const unsigned char *)bytes;
  uint64_t c = ~crc;
  while (length && ((uintptr_t)p & 7)) {
    c = _mm_crc32_u8((uint32_t)c, *p++);
    length--;
  }
  while (length >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
    p += 8;
    length -= 8;
  }
  while (length--) c = _mm_crc32_u8((uint32_t)c, *p++);
  return ~(uint32_t)c;
}

static int has_sse42(void) {
  static int cached = -1;
  int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (value < 0) {
    __builtin_cpu_init();
    value = __builtin_cpu_supports("sse4.2") ? 1 : 0;
    __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
  }
  return value;
}

uint32_t stoic_crc32c_extend(uint32_t crc, const void *bytes, size_t length) {
  if (has_sse42()) return crc32c_sse42(crc, bytes, length);
  return stoic_crc32c_extend_portable(crc, bytes, length);
}

int stoic_crc32c_is_hardware_accelerated(void) { return has_sse42(); }

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

uint32_t stoic_crc32c_extend(uint32_t crc, const void *bytes, size_t length) {
  const unsigned char *p = (const unsigned char *)bytes;
  uint32_t c = ~crc;
  while (length >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    c = __crc32cd(c, word);
    p += 8;
    length -= 8;
  }
  while (length--) c = __crc32cb(c, *p++);
  return ~c;
}

int stoic_crc32c_is_hardware_accelerated(void) { return 1; }

#else

uint32_t stoic_crc32c_extend(uint32_t crc, const void *bytes, size_t length) {
  return stoic_crc32c_extend_portable(crc, bytes, length);
}

int stoic_crc32c_is_hardware_accelerated(void) { return 0; }

#endif
