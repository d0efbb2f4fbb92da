#ifndef CSTOIC_CRC32C_H
#define CSTOIC_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Extends a CRC32C (Castagnoli) over `length` bytes. Pass 0 to start; the result is the
/// finished CRC (pre- and post-inversion are handled inside), so calls can be chained.
uint32_t stoic_crc32c_extend(uint32_t crc, const void *bytes, size_t length);

/// The same computation with the portable table-driven code, whatever the CPU has.
uint32_t stoic_crc32c_extend_portable(uint32_t crc, const void *bytes, size_t length);

/// 1 if the hardware instruction is used on this CPU, 0 if the table-driven code is.
int stoic_crc32c_is_hardware_accelerated(void);

#endif
