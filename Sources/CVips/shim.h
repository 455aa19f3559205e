// One-line wrappers around libvips' variadic calls, which Swift cannot call directly.
#include <vips/vips.h>
