// One-line wrappers around libvips' variadic calls, which Swift cannot call directly.
// Each returns 0 on success and -1 on failure (the message is in vips_error_buffer()).
#include <vips/vips.h>

// Opening and loading.

/// Opens a file reading only its header: pixels are decoded later, on demand, front to back.
static inline VipsImage *shim_vips_open_header(const char *path) {
    return vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}
static inline VipsImage *shim_vips_open(const char *path, VipsFailOn fail_on) {
    return vips_image_new_from_file(path, "fail_on", fail_on, NULL);
}
static inline void shim_vips_free_buffer_copy(VipsImage *image, void *copy) {
    g_free(copy);
}
/// libvips reads a buffer lazily, for as long as the image lives: the image gets its own copy
/// (freed when it closes), so the caller's bytes may go away at once. (AddressSanitizer caught
/// a decode reading a Swift array that had already been freed.)
static inline VipsImage *shim_vips_open_buffer(const void *bytes, size_t length) {
    void *copy = g_memdup2(bytes, length);
    VipsImage *image = vips_image_new_from_buffer(copy, length, "", NULL);
    if (image == NULL) {
        g_free(copy);
        return NULL;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(shim_vips_free_buffer_copy), copy);
    return image;
}
static inline int shim_vips_thumbnail(const char *path, VipsImage **out, int width, int height,
                                      VipsSize size, VipsFailOn fail_on) {
    return vips_thumbnail(path, out, width, "height", height, "size", size, "fail_on", fail_on, NULL);
}
/// Resizes an image already in memory (a decoded rendition) to fit, never enlarging.
static inline int shim_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
}

// Saving. Metadata stripping is requested here and also done by the caller, because
// webpsave in libvips 8.14 ignores `strip`.

static inline int shim_vips_jpegsave_buffer(VipsImage *in, void **bytes, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, bytes, length, "Q", quality, "strip", TRUE,
                                "optimize_coding", TRUE, NULL);
}
static inline int shim_vips_webpsave_buffer(VipsImage *in, void **bytes, size_t *length, int quality) {
    return vips_webpsave_buffer(in, bytes, length, "Q", quality, "strip", TRUE, NULL);
}
/// Saves by file suffix; options may follow in brackets ("a.png[bitdepth=1]").
static inline int shim_vips_write_to_file(VipsImage *in, const char *path) {
    return vips_image_write_to_file(in, path, NULL);
}

// Operations.

static inline int shim_vips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}
static inline int shim_vips_xyz(VipsImage **out, int width, int height) {
    return vips_xyz(out, width, height, NULL);
}
static inline int shim_vips_black(VipsImage **out, int width, int height, int bands) {
    return vips_black(out, width, height, "bands", bands, NULL);
}
static inline int shim_vips_gaussnoise(VipsImage **out, int width, int height, double sigma) {
    return vips_gaussnoise(out, width, height, "sigma", sigma, "mean", 0.0, NULL);
}
static inline int shim_vips_recomb(VipsImage *in, VipsImage **out, VipsImage *matrix) {
    return vips_recomb(in, out, matrix, NULL);
}
static inline int shim_vips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n) {
    return vips_linear(in, out, a, b, n, NULL);
}
static inline int shim_vips_multiply(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_multiply(left, right, out, NULL);
}
static inline int shim_vips_add(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_add(left, right, out, NULL);
}
static inline int shim_vips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
    return vips_cast(in, out, format, NULL);
}
static inline int shim_vips_maplut(VipsImage *in, VipsImage **out, VipsImage *lut) {
    return vips_maplut(in, out, lut, NULL);
}
static inline int shim_vips_replicate(VipsImage *in, VipsImage **out, int across, int down) {
    return vips_replicate(in, out, across, down, NULL);
}
/// Mixes `then` and `otherwise` by the 0–255 values of `condition` (soft edges, not a hard cut).
static inline int shim_vips_blend(VipsImage *condition, VipsImage *then, VipsImage *otherwise, VipsImage **out) {
    return vips_ifthenelse(condition, then, otherwise, out, "blend", TRUE, NULL);
}
static inline int shim_vips_getpoint(VipsImage *in, double **vector, int *n, int x, int y) {
    return vips_getpoint(in, vector, n, x, y, NULL);
}
/// Puts an image with an alpha channel on white, since JPEG has no transparency.
static inline int shim_vips_flatten_on_white(VipsImage *in, VipsImage **out) {
    double white = 255.0;  // one value serves every band count (grey or colour)
    VipsArrayDouble *background = vips_array_double_new(&white, 1);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}
static inline int shim_vips_zoom(VipsImage *in, VipsImage **out, int factor) {
    return vips_zoom(in, out, factor, factor, NULL);
}
/// Separable convolution in integer arithmetic (the fast, vectorised path for 8-bit images).
static inline int shim_vips_convsep_integer(VipsImage *in, VipsImage **out, VipsImage *mask) {
    return vips_convsep(in, out, mask, "precision", VIPS_PRECISION_INTEGER, NULL);
}
static inline int shim_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}
/// Converts from the image's embedded ICC profile to sRGB.
static inline int shim_vips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, NULL);
}
