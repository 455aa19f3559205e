// libwebpmux: reads and rewrites the chunks of a WebP container (EXIF, XMP, ICC, image data).
#include <webp/mux.h>
