import CArchive
import Glibc

/// Bounds on what an archive may hold, checked while reading: a hostile or broken file stops
/// with a message instead of filling the disk or the memory.
public struct FileArchiveLimits: Sendable, Equatable {
    public var maxEntries: Int
    public var maxEntryBytes: Int64
    public var maxTotalBytes: Int64
    /// The most content one byte of the archive file may unpack to: a few kilobytes of zip can
    /// hold gigabytes of zeros, so what reading costs is bounded by what was received.
    public var maxExpansion: Int64

    public init(maxEntries: Int, maxEntryBytes: Int64, maxTotalBytes: Int64, maxExpansion: Int64 = .max) {
        self.maxEntries = maxEntries
        self.maxEntryBytes = maxEntryBytes
        self.maxTotalBytes = maxTotalBytes
        self.maxExpansion = maxExpansion
    }

    /// The content an archive of `archiveBytes` may hold in all.
    func totalBytes(forArchiveOf archiveBytes: Int64) -> Int64 {
        let (expanded, overflow) = archiveBytes.multipliedReportingOverflow(by: maxExpansion)
        return overflow ? maxTotalBytes : min(maxTotalBytes, expanded)
    }
}

/// Reads a zip file's regular-file entries in order with libarchive, one at a time, streaming
/// their content. Only names that stay inside a folder come out: absolute names, `..`, links and
/// special files are refused with a `FileArchiveError` naming the entry. Directory entries are
/// skipped. The zip's central directory is required, so a truncated file is refused.
public final class FileArchiveReader {
    public let limits: FileArchiveLimits
    private let archive: OpaquePointer
    /// The content this archive may unpack to: `limits` applied to its size.
    public let maxTotalBytes: Int64
    private var entryCount = 0
    private var totalBytes: Int64 = 0
    private var current: String?
    /// The size the current entry declares, when its header gives one.
    public private(set) var currentSize: Int64?

    public init(path: String, limits: FileArchiveLimits) throws {
        self.limits = limits
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FileArchiveError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        maxTotalBytes = limits.totalBytes(forArchiveOf: Int64(status.st_size))
        guard let archive = archive_read_new() else { throw FileArchiveError("cannot start reading an archive") }
        self.archive = archive
        archive_read_support_format_zip_seekable(archive)
        guard archive_read_open_filename(archive, path, 64 * 1024) == ARCHIVE_OK else {
            // deinit frees the archive: a class whose properties are all set runs it on a throw.
            throw FileArchiveWriter.error(of: archive, "\(path) is not a readable zip archive")
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// The name of the next regular file (its content is read with `read` or `extract`), or nil
    /// at the end of the archive.
    public func nextEntry() throws -> String? {
        while true {
            var entry: OpaquePointer?
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { current = nil; currentSize = nil; return nil }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw FileArchiveWriter.error(of: archive, "the archive is damaged", entry: current.map { "after \($0)" } ?? "")
            }
            let name = archive_entry_pathname_utf8(entry).map { String(cString: $0) }
                ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            entryCount += 1
            guard entryCount <= limits.maxEntries else {
                throw FileArchiveError(entry: name, "the archive has more than \(limits.maxEntries) entries")
            }
            try Self.checkName(name)
            let type = archive_entry_filetype(entry)
            if type == carchive_directory { continue }
            guard type == carchive_regular_file, archive_entry_hardlink(entry) == nil, archive_entry_symlink(entry) == nil else {
                throw FileArchiveError(entry: name, type == carchive_symbolic_link ? "is a symbolic link; only files are allowed"
                                                                     : "is not a regular file; only files are allowed")
            }
            currentSize = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
            if let size = currentSize, size > limits.maxEntryBytes {
                throw FileArchiveError(entry: name, "is \(size) bytes; the limit is \(limits.maxEntryBytes)")
            }
            current = name
            return name
        }
    }

    /// Streams the current entry's content to `consume` in chunks, enforcing the size limits.
    public func read(_ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let name = current ?? ""
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var entryBytes: Int64 = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw FileArchiveWriter.error(of: archive, "cannot be read", entry: name) }
            if count == 0 { return }
            entryBytes += Int64(count)
            totalBytes += Int64(count)
            guard entryBytes <= limits.maxEntryBytes else {
                throw FileArchiveError(entry: name, "is larger than the limit of \(limits.maxEntryBytes) bytes")
            }
            guard entryBytes <= currentSize ?? .max else {
                throw FileArchiveError(entry: name, "holds more than the \(currentSize ?? 0) bytes its header gives")
            }
            guard totalBytes <= maxTotalBytes else {
                let expansion = maxTotalBytes < limits.maxTotalBytes ? " (\(limits.maxExpansion) times the archive's size)" : ""
                throw FileArchiveError(entry: name, "the archive's content is larger than the limit of \(maxTotalBytes) bytes\(expansion)")
            }
            try chunk.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
    }

    /// Writes the current entry's content to a new file at `path` (which must not exist).
    public func extract(to path: String) throws {
        let name = current ?? ""
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileArchiveError(entry: name, "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try read { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw FileArchiveError(entry: name, "cannot write \(path): \(String(cString: strerror(errno)))") }
                written += count
            }
        }
    }

    /// Refuses names that could land outside the folder they are extracted into.
    static func checkName(_ name: String) throws {
        guard !name.isEmpty, !name.contains("\0") else { throw FileArchiveError(entry: name, "has an empty or invalid name") }
        guard !name.hasPrefix("/") else {
            throw FileArchiveError(entry: name, "has an absolute name; only names inside the archive are allowed")
        }
        guard !name.split(separator: "/").contains("..") else {
            throw FileArchiveError(entry: name, "names a parent folder (..); only names inside the archive are allowed")
        }
    }
}
