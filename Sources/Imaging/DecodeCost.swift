import CVips

/// How many bytes decoding an image will hold at once, estimated from its header alone, so a
/// decompression bomb (a small file that opens to gigabytes) is refused before any pixel is read.
///
/// Most loaders stream: libvips pulls rows through shrink-on-load a strip at a time, so memory
/// follows the width, not the area (a 10000×10000 baseline JPEG, plain PNG or WebP thumbnailed
/// in 40–85 MB on this machine). Some formats cannot be read that way and decode the whole frame
/// first; they are the bombs. Measured with `vipsthumbnail` on 10000×10000 images (libvips
/// 8.14): interlaced 16-bit RGB PNG 654 MB, GIF 621 MB; progressive 8000×8000 JPEG 226 MB.
enum DecodeCost {
    /// Rows a streamed decode keeps in flight (libvips' strips and shrink buffers), generously.
    static let streamedRows = 256

    static func estimatedBytes(of header: VipsImageRef, format: ImageFormat) -> Int {
        let width = header.width, height = header.height
        let sampleBytes = Int(vips_format_sizeof(vips_image_get_format(header.pointer)))
        let bytesPerPixel = header.bands * sampleBytes
        let wholeFrame: Int? = switch format {
        // Adam7 interlacing spreads every row over seven passes: libpng needs the whole image.
        case .png where header.isInterlaced: bytesPerPixel
        // libjpeg keeps every DCT coefficient (two bytes per sample) until the last scan.
        case .jpeg where header.isInterlaced: header.bands * 2
        // libnsgif paints each frame on a full RGBA canvas, and libvips copies it out.
        case .gif: 4 * 2
        // Animated WebP frames are composed on a full RGBA canvas.
        case .webp where header.pageCount > 1: 4
        // libheif decodes the whole picture (planes, then interleaved pixels).
        case .heif: bytesPerPixel * 2
        default: nil
        }
        return width * (wholeFrame.map { $0 * height } ?? bytesPerPixel * min(height, streamedRows))
    }
}
