import CVips
import Foundation

/// SHA-256 through glib's GChecksum (glib comes with libvips; Linux has no CryptoKit).
public struct SHA256: ~Copyable {
    private let checksum: OpaquePointer

    public init() {
        checksum = g_checksum_new(G_CHECKSUM_SHA256)
    }

    deinit {
        g_checksum_free(checksum)
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        g_checksum_update(checksum, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The digest as 64 lowercase hex digits. The checksum cannot be updated afterwards.
    public func hexDigest() -> String {
        String(cString: g_checksum_get_string(checksum))
    }

    /// Adds `text`'s UTF-8 bytes.
    public func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Adds the bytes of the file at `path`, read a piece at a time.
    public func update(contentsOfFileAt path: String) throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        while let piece = try handle.read(upToCount: 1 << 16), !piece.isEmpty {
            piece.withUnsafeBytes { update($0) }
        }
    }

    /// The digest of `text`'s UTF-8 bytes, as 64 lowercase hex digits.
    public static func hexDigest(of text: String) -> String {
        let hasher = SHA256()
        hasher.update(text)
        return hasher.hexDigest()
    }
}
