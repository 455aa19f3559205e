import CWebPMux

/// Metadata removal for WebP, with libwebpmux. libvips 8.14's webpsave ignores `strip` and
/// always writes an EXIF chunk (rebuilt from defaults even when the image carries none).
enum WebPMux {
    /// The chunks that carry metadata rather than pixels.
    private static let metadataChunks = ["EXIF", "XMP ", "ICCP"]

    /// The same picture without EXIF, XMP and ICC chunks; reassembling also clears the
    /// container header's flags for them.
    static func removingMetadata(from bytes: [UInt8]) throws -> [UInt8] {
        let mux = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            return WebPMuxCreate(&data, 1)  // 1: the mux keeps its own copy of the bytes
        }
        guard let mux else { throw ImagingError.processingFailed("libwebpmux cannot read the encoded WebP") }
        defer { WebPMuxDelete(mux) }
        for chunk in metadataChunks {
            let result = WebPMuxDeleteChunk(mux, chunk)
            guard result == WEBP_MUX_OK || result == WEBP_MUX_NOT_FOUND else {
                throw ImagingError.processingFailed("libwebpmux cannot remove the \(chunk) chunk (\(result.rawValue))")
            }
        }
        var output = WebPData()
        guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let start = output.bytes else {
            throw ImagingError.processingFailed("libwebpmux cannot assemble the WebP")
        }
        defer { WebPDataClear(&output) }
        return Array(UnsafeBufferPointer(start: start, count: output.size))
    }
}
