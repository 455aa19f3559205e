#include <brotli/encode.h>
/* The decoder: for tests, which check what the encoder made. */
#include <brotli/decode.h>
