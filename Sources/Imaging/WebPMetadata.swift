/// Removes metadata chunks from a WebP file. libvips 8.14's webpsave ignores `strip` and always
/// writes an EXIF chunk (rebuilt from defaults even when the image carries no metadata), so the
/// chunks are taken out of the RIFF container after encoding.
enum WebPMetadata {
    private static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// VP8X header flags announcing those chunks: ICC 0x20, EXIF 0x08, XMP 0x04.
    private static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    /// The same picture without EXIF, XMP and ICC chunks; input that is not a well-formed
    /// WebP container is returned unchanged (it came from libvips, so that does not happen).
    static func removingMetadata(from bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 12, fourCC(bytes, at: 0) == "RIFF", fourCC(bytes, at: 8) == "WEBP" else { return bytes }
        var output = Array(bytes[0..<12])
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = fourCC(bytes, at: offset)
            let size = Int(littleEndian32(bytes, at: offset + 4))
            let end = offset + 8 + size + (size & 1)  // chunks are padded to an even length
            guard end <= bytes.count else { return bytes }
            if !metadataChunks.contains(name) {
                var chunk = bytes[offset..<end]
                if name == "VP8X" { chunk[offset + 8] &= ~metadataFlags }
                output += chunk
            }
            offset = end
        }
        let riffSize = UInt32(output.count - 8)
        output.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: riffSize >> (8 * $0)) })
        return output
    }

    private static func fourCC(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
