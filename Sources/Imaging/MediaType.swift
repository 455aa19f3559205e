import CMagic
import Glibc
import Synchronization

/// Detects a file's MIME type from its bytes with libmagic — never from its name or from what
/// a client claims.
///
/// One libmagic handle serves the whole process behind a lock: a handle is not thread-safe, a
/// call takes tens of microseconds (measured: see `Benchmarks/thumbnail/README.md`), and uploads
/// are rare, so the lock is never contended in practice, while a handle per thread would load
/// the magic database once per thread and need a thread-exit hook to close it.
public enum MediaType {
    /// How much of a file is examined. Every accepted format is recognised by its first bytes;
    /// anything libmagic cannot classify from this much is refused, which is the safe outcome.
    static let sniffLength = 16 * 1024

    public static func detect(path: String) throws -> String {
        try detect(bytes: readPrefix(of: path))
    }

    public static func detect(bytes: [UInt8]) throws -> String {
        try magic.withLock { handle in
            let cookie = try handle.open()
            let result = bytes.withUnsafeBytes { magic_buffer(cookie, $0.baseAddress, $0.count) }
            guard let result else {
                throw ImagingError.unsupportedType("of unknown type (\(MagicHandle.lastError(cookie)))")
            }
            return String(cString: result)
        }
    }

    private static func readPrefix(of path: String) throws -> [UInt8] {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ImagingError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: sniffLength)
        var filled = 0
        while filled < sniffLength {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, sniffLength - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ImagingError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        return Array(buffer.prefix(filled))
    }

    private static let magic = Mutex(MagicHandle())
}

/// A libmagic handle opened on first use (so a process that never detects pays nothing).
private struct MagicHandle: ~Copyable {
    private var cookie: magic_t?

    mutating func open() throws -> magic_t {
        if let cookie { return cookie }
        guard let opened = magic_open(MAGIC_MIME_TYPE) else {
            throw ImagingError.processingFailed("libmagic could not start")
        }
        guard magic_load(opened, nil) == 0 else {
            let message = Self.lastError(opened)
            magic_close(opened)
            throw ImagingError.processingFailed("libmagic could not load its database: \(message)")
        }
        cookie = opened
        return opened
    }

    static func lastError(_ cookie: magic_t) -> String {
        magic_error(cookie).map { String(cString: $0) } ?? "no detail"
    }
}
