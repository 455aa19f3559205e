import CVips

/// SHA-256 through glib's GChecksum (glib comes with libvips; Linux has no CryptoKit).
public struct SHA256: ~Copyable {
    private let checksum: OpaquePointer

    init() {
        checksum = g_checksum_new(G_CHECKSUM_SHA256)
    }

    deinit {
        g_checksum_free(checksum)
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        g_checksum_update(checksum, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The digest as 64 lowercase hex digits. The checksum cannot be updated afterwards.
    func hexDigest() -> String {
        String(cString: g_checksum_get_string(checksum))
    }

    /// The digest of `text`'s UTF-8 bytes, as 64 lowercase hex digits.
    public static func hexDigest(of text: String) -> String {
        let hasher = SHA256()
        var text = text
        text.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        return hasher.hexDigest()
    }
}
