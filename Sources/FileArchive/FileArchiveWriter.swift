import CArchive
import Foundation
import Glibc

/// Writes a zip file entry by entry with libarchive, streaming each file's content in chunks so
/// memory stays flat whatever the sizes. Written to a path, the file appears there only when
/// complete (temporary file beside it, fsync, rename; a writer released unfinished deletes it);
/// written to a descriptor (a pipe to a download), each entry goes as it is added.
public final class FileArchiveWriter {
    private enum Output {
        case file(destination: String, temporary: String)
        case descriptor
    }

    private let output: Output
    private let archive: OpaquePointer
    private var isFinished = false

    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
        output = .file(destination: path, temporary: temporary)
        archive = try Self.newZip("cannot create \(temporary)") { archive_write_open_filename($0, temporary) }
    }

    /// Writes to `descriptor`, which the caller closes after `finish`.
    public init(descriptor: Int32) throws {
        output = .descriptor
        archive = try Self.newZip("cannot write the archive") { archive_write_open_fd($0, descriptor) }
    }

    private static func newZip(_ failure: String, open: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        guard let archive = archive_write_new() else { throw FileArchiveError("cannot start an archive") }
        guard archive_write_set_format_zip(archive) == ARCHIVE_OK, open(archive) == ARCHIVE_OK else {
            defer { archive_write_free(archive) }
            throw error(of: archive, failure)
        }
        return archive
    }

    deinit {
        if !isFinished {
            archive_write_free(archive)
            if case .file(_, let temporary) = output { unlink(temporary) }
        }
    }

    /// Adds a regular file named `name` (a relative path with "/" separators) holding the
    /// content of the file at `path`.
    public func add(name: String, fileAt path: String) throws {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw FileArchiveError(entry: name, "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(source) }
        var status = stat()
        guard fstat(source, &status) == 0 else { throw FileArchiveError(entry: name, "cannot read \(path)") }
        try writeHeader(name: name, byteCount: Int64(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var remaining = Int64(status.st_size)
        while remaining > 0 {
            let count = chunk.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw FileArchiveError(entry: name, "cannot read \(path): it changed while being archived") }
            try chunk.withUnsafeBytes { try writeData(UnsafeRawBufferPointer(rebasing: $0.prefix(min(count, Int(remaining)))), entry: name) }
            remaining -= Int64(count)
        }
    }

    /// Completes the archive; written to a path, syncs it to the disk and moves it there.
    public func finish() throws {
        guard archive_write_close(archive) == ARCHIVE_OK else { throw Self.error(of: archive, "cannot complete the archive") }
        archive_write_free(archive)
        isFinished = true
        guard case .file(let destination, let temporary) = output else { return }
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard descriptor >= 0, fsync(descriptor) == 0, rename(temporary, destination) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw FileArchiveError("cannot write \(destination): \(message)")
        }
    }

    private func writeHeader(name: String, byteCount: Int64) throws {
        guard let entry = archive_entry_new() else { throw FileArchiveError(entry: name, "cannot start an entry") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, carchive_regular_file)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, byteCount)
        archive_entry_set_mtime(entry, time(nil), 0)
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw Self.error(of: archive, "cannot add", entry: name) }
    }

    private func writeData(_ bytes: UnsafeRawBufferPointer, entry: String) throws {
        var written = 0
        while written < bytes.count {
            let count = archive_write_data(archive, bytes.baseAddress! + written, bytes.count - written)
            guard count > 0 else { throw Self.error(of: archive, "cannot write", entry: entry) }
            written += count
        }
    }

    static func error(of archive: OpaquePointer, _ action: String, entry: String = "") -> FileArchiveError {
        let detail = archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
        return FileArchiveError(entry: entry, "\(action): \(detail)")
    }
}
