import Foundation
import Glibc

/// A new file with a unique name that hashes and counts what is written to it.
final class TemporaryFile {
    let path: String
    private var isMoved = false
    private var descriptor: Int32
    private let hasher = SHA256()
    private(set) var byteCount = 0

    init(in directory: URL, prefix: String) throws {
        var template = Array(directory.appendingPathComponent("\(prefix)XXXXXX").path.utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure("cannot create a file in", directory.path) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        closeDescriptor()
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        hasher.update(bytes)
        var written = 0
        while written < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("cannot write") }
            written += count
        }
        byteCount += bytes.count
    }

    func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw failure("cannot sync") }
    }

    /// The SHA-256 of everything written, as 64 lowercase hex digits.
    func digest() -> String {
        hasher.hexDigest()
    }

    func move(to destination: String) throws {
        closeDescriptor()
        guard rename(path, destination) == 0 else { throw failure("cannot rename") }
        isMoved = true
    }

    /// Deletes the file unless it was moved.
    func discard() {
        closeDescriptor()
        if !isMoved { unlink(path) }
    }

    private func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func failure(_ action: String) -> ImagingError {
        Self.failure(action, path)
    }

    /// The error for the failed call that set `errno`; a full disk gets its own case.
    private static func failure(_ action: String, _ path: String) -> ImagingError {
        let detail = "\(action) \(path): \(String(cString: strerror(errno)))"
        return errno == ENOSPC || errno == EDQUOT ? .diskFull(detail) : .storageFailed(detail)
    }
}
