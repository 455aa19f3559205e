#include <zlib.h>

// deflateInit2 and inflateInit2 are macros (they pass the library's version and struct size).
static inline int czlib_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, MAX_WBITS + 16);
}
