#include <zlib.h>

// inflateInit2 is a macro, which Swift cannot call: this wraps it for gzip streams (window bits
// 15 + 16: a gzip header and trailer rather than zlib's). Compression is libdeflate's
// (CStoicDeflate).
static inline int stoic_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 16);
}
