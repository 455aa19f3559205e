import Foundation
import Glibc
import Imaging

/// Bounds on an uploaded photo; each one refused with a message before anything is stored.
public struct PhotoLimits: Sendable, Equatable {
    public var maxBytes: Int
    /// Width × height, checked from the header before decoding (decompression bombs).
    public var maxPixels: Int
    /// The memory one decode may need, estimated from the header (see `ImageLimits`).
    public var maxDecodeBytes: Int

    public init(maxBytes: Int = 30 * 1024 * 1024, maxPixels: Int = 100_000_000,
                maxDecodeBytes: Int = ImageLimits.defaultMaxDecodeBytes) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.maxDecodeBytes = maxDecodeBytes
    }
}

/// A photo checked, thumbnailed and rendered for display, not yet stored.
struct PreparedPhoto: Sendable {
    enum Original: Sendable {
        case file(path: String)
        case bytes([UInt8])
    }

    let original: Original
    let format: ImageFormat
    /// Upright size of the original.
    let width: Int
    let height: Int
    let thumbnail: EncodedImage
    /// One per `DisplaySize`, in its order: what pages show instead of the original.
    let renditions: [EncodedImage]
    /// When the camera took it ("2019-06-01T12:00:00"), if the file says.
    var dateTaken: String? = nil

    /// The size of the picture the trip page shows (the largest rendition).
    var displayWidth: Int { renditions[0].width }
    var displayHeight: Int { renditions[0].height }
}

/// A prepared photo whose files are in the library.
struct StoredPhoto: Sendable {
    let prepared: PreparedPhoto
    let original: StoredFile

    /// Hex digits of the content hash used as the photo's version in URLs and ETags.
    static let versionLength = 16

    var version: String { String(original.name.prefix(Self.versionLength)) }
}

/// The trip photos' files: checks uploads (type from the bytes, size, pixels, damage), makes
/// thumbnails and display renditions, and keeps originals in a content-addressed folder. The
/// renditions (`DisplaySize`) live in its `renditions` subfolder, named after their original;
/// pages show them, never the original, which keeps its GPS position and camera EXIF.
///
/// Storing files, committing the rows that reference them and deleting files no longer
/// referenced all happen under one lock (`committing`), and so does the startup sweep: a file
/// is never deleted between being stored and being referenced by a committed row. Other
/// processes may store into the same folder (`wishlist token create` seeding beside a first
/// `serve`): storing holds `processes` shared, and the sweep runs only when it can hold it alone.
public final class PhotoLibrary: Sendable {
    public let limits: PhotoLimits
    let files: ImageStore
    let renditions: RenditionStore
    let thumbnailer: Thumbnailer
    private let lock = NSLock()
    private let processes: ProcessLock

    /// ~480 px on the long side covers a card at 2× density.
    static let thumbnailSide = 480
    /// WebP: a third smaller than JPEG at the same look, and shown by every current browser.
    static let thumbnailFormat = OutputFormat.webp
    static let thumbnailQuality = 75
    /// JPEG: several times faster to encode than WebP at these sizes, which every upload pays.
    public static let renditionFormat = OutputFormat.jpeg
    static let renditionQuality = 82

    public init(directory: URL, limits: PhotoLimits = PhotoLimits()) throws {
        self.limits = limits
        files = try ImageStore(directory: directory)
        renditions = try RenditionStore(directory: directory.appendingPathComponent("renditions", isDirectory: true))
        thumbnailer = Thumbnailer(limits: ImageLimits(maxPixels: limits.maxPixels, maxDecodeBytes: limits.maxDecodeBytes))
        processes = try ProcessLock(folder: files.directory)
    }

    public var directory: URL { files.directory }

    /// The location of a stored file, for serving it; throws for anything but a stored-file name.
    public func url(for fileName: String) throws -> URL {
        try files.url(for: fileName)
    }

    /// Whether the stored file exists (a row may outlive its file after a disk mishap).
    public func contains(_ fileName: String) -> Bool {
        guard let url = try? files.url(for: fileName) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// Checks and thumbnails the file at `path`. The user's problems (type, size, pixels, damage)
    /// throw `ValidationError` for the "photo" field; nothing is written.
    func prepare(fileAt path: String) throws -> PreparedPhoto {
        let byteCount = try Self.byteCount(of: path)
        guard byteCount > 0 else { throw PhotoProblem.empty.validationError }
        guard byteCount <= limits.maxBytes else {
            throw PhotoProblem.tooLarge(byteCount: byteCount, limit: limits.maxBytes).validationError
        }
        return try Self.explainingProblems {
            let info = try thumbnailer.inspect(path: path)
            let thumbnail = try thumbnailer.makeThumbnail(
                of: info, maxSide: Self.thumbnailSide, format: Self.thumbnailFormat, quality: Self.thumbnailQuality)
            return PreparedPhoto(original: .file(path: path), format: info.format, width: info.uprightWidth,
                                 height: info.uprightHeight, thumbnail: thumbnail, renditions: try makeRenditions(of: info),
                                 dateTaken: info.dateTaken)
        }
    }

    /// The stored rendition of `original` (a stored-file name), made now when it is missing:
    /// photos stored before renditions existed get theirs on first request. Nil when the
    /// original itself is gone.
    public func rendition(of original: String, size: DisplaySize) throws -> URL? {
        let url = try renditions.url(of: original, maxSide: size.rawValue, format: Self.renditionFormat.imageFormat)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        guard contains(original) else { return nil }
        let made = try makeRenditions(of: try thumbnailer.inspect(path: files.url(for: original).path))
        lock.lock()
        defer { lock.unlock() }
        // Deleted while rendering: storing now would leave renditions of nothing.
        guard contains(original) else { return nil }
        try processes.whileShared { try storeRenditions(made, of: original) }
        return url
    }

    private func makeRenditions(of info: ImageInfo) throws -> [EncodedImage] {
        try thumbnailer.makeRenditions(of: info, maxSides: DisplaySize.allCases.map(\.rawValue),
                                       format: Self.renditionFormat, quality: Self.renditionQuality)
    }

    /// The user's problems (type, pixels, damage) as `ValidationError` for the "photo" field.
    private static func explainingProblems<Value>(_ work: () throws -> Value) throws -> Value {
        do {
            return try work()
        } catch let error as ImagingError {
            guard let problem = PhotoProblem(error) else { throw error }
            throw problem.validationError
        }
    }

    /// Stores the photo's files (if any), runs `write`, then deletes the files `write` reports as
    /// no longer referenced. When `write` throws, files this call created are deleted again.
    func committing<Value>(_ photo: PreparedPhoto?, _ write: (StoredPhoto?) throws -> (Value, released: [String])) throws -> Value {
        try committing(photo.map { [$0] } ?? []) { try write($0.first) }
    }

    /// `committing` for several photos at once (seeding).
    func committing<Value>(_ photos: [PreparedPhoto], _ write: ([StoredPhoto]) throws -> (Value, released: [String])) throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try processes.whileShared {
            var stored: [StoredPhoto] = []
            let outcome: (Value, released: [String])
            do {
                for photo in photos { stored.append(try store(photo)) }
                outcome = try write(stored)
            } catch {
                for photo in stored where photo.original.isNew { remove(photo.original.name) }
                throw error
            }
            for name in outcome.released { remove(name) }
            return outcome.0
        }
    }

    /// Deletes a stored file and its renditions. One that cannot be deleted now is an orphan
    /// the next startup sweep removes.
    private func remove(_ name: String) {
        try? files.remove(name: name)
        for size in DisplaySize.allCases {
            try? renditions.remove(renditionOf: name, maxSide: size.rawValue, format: Self.renditionFormat.imageFormat)
        }
    }

    /// Deletes files no row references and reports referenced files that are missing.
    /// `referencedNames` runs under the lock, so no upload is between storing and committing;
    /// while another process is storing, nothing is swept (`PhotoSweep.isDeferred`).
    func sweep(referencedNames: () throws -> Set<String>) throws -> PhotoSweep {
        lock.lock()
        defer { lock.unlock() }
        return try processes.ifAlone {
            let referenced = try referencedNames()
            let wantedRenditions = try Set(referenced.flatMap { name in
                try DisplaySize.allCases.map { try RenditionStore.name(of: name, maxSide: $0.rawValue, format: Self.renditionFormat.imageFormat) }
            })
            return PhotoSweep(removedFiles: try files.sweep(keeping: referenced) + renditions.sweep(keeping: wantedRenditions),
                              missingFiles: files.missing(from: referenced))
        } ?? PhotoSweep(removedFiles: [], missingFiles: [], isDeferred: true)
    }

    private func store(_ photo: PreparedPhoto) throws -> StoredPhoto {
        let original = switch photo.original {
        case .file(let path): try files.store(fileAt: path, format: photo.format)
        case .bytes(let bytes): try files.store(bytes: bytes, format: photo.format)
        }
        do {
            try storeRenditions(photo.renditions, of: original.name)
            return StoredPhoto(prepared: photo, original: original)
        } catch {
            if original.isNew { remove(original.name) }
            throw error
        }
    }

    private func storeRenditions(_ images: [EncodedImage], of original: String) throws {
        for (size, image) in zip(DisplaySize.allCases, images) {
            try renditions.store(image, of: original, maxSide: size.rawValue)
        }
    }

    private static func byteCount(of path: String) throws -> Int {
        do {
            return try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw ImagingError.unreadable(path: path, reason: error.localizedDescription)
        }
    }
}

/// What the startup sweep did.
public struct PhotoSweep: Sendable, Equatable {
    /// Files no row referenced (left by a crash or an import) and renditions of no referenced
    /// file, now deleted.
    public let removedFiles: [String]
    /// Files rows reference that are not there; their trips show the placeholder.
    public let missingFiles: [String]
    /// Another process was storing photos: nothing was swept, the next start sweeps.
    public var isDeferred = false
}

/// An advisory lock (`flock`) on a folder itself (no file of its own to leave behind), shared
/// between the processes that use it: held shared by each while it writes there, alone by one
/// that removes what it thinks is left over. The kernel drops it with its process, however that
/// ends. Callers in one process take it one at a time (it is one open folder for the process).
final class ProcessLock: Sendable {
    private let descriptor: Int32

    init(folder: URL) throws {
        descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImagingError.storageFailed("cannot open \(folder.path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    func whileShared<Value>(_ body: () throws -> Value) throws -> Value {
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// `body`'s value, or nil without running it while another process holds the lock.
    func ifAlone<Value>(_ body: () throws -> Value) throws -> Value? {
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
