#include <zlib.h>

// deflateInit2 and inflateInit2 are macros, which Swift cannot call: these wrap them for gzip
// streams (window bits 15 + 16: a gzip header and trailer rather than zlib's).
static inline int stoic_deflate_init_gzip(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int stoic_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 16);
}
