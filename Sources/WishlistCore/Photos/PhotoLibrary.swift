import Foundation
import Imaging

/// Bounds on an uploaded photo; each one refused with a message before anything is stored.
public struct PhotoLimits: Sendable, Equatable {
    public var maxBytes: Int
    /// Width × height, checked from the header before decoding (decompression bombs).
    public var maxPixels: Int

    public init(maxBytes: Int = 30 * 1024 * 1024, maxPixels: Int = 100_000_000) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
    }
}

/// A photo checked and thumbnailed, not yet stored.
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
    /// A JPEG for browsers when they cannot show the original (HEIC).
    let rendition: EncodedImage?

    /// The size of the picture the trip page shows.
    var displayWidth: Int { rendition?.width ?? width }
    var displayHeight: Int { rendition?.height ?? height }
}

/// A prepared photo whose files are in the library.
struct StoredPhoto: Sendable {
    let prepared: PreparedPhoto
    let original: StoredFile
    let rendition: StoredFile?

    /// Hex digits of the content hash used as the photo's version in URLs and ETags.
    static let versionLength = 16

    var version: String { String(original.name.prefix(Self.versionLength)) }

    /// Files this store created (not reused from an earlier upload of the same picture).
    var newFiles: [StoredFile] { [original, rendition].compactMap { $0 }.filter(\.isNew) }
}

/// The trip photos' files: checks uploads (type from the bytes, size, pixels, damage), makes
/// thumbnails and display renditions, and keeps originals in a content-addressed folder.
///
/// Storing files, committing the rows that reference them and deleting files no longer
/// referenced all happen under one lock (`committing`), and so does the startup sweep: a file
/// is never deleted between being stored and being referenced by a committed row.
public final class PhotoLibrary: Sendable {
    public let limits: PhotoLimits
    let files: ImageStore
    let thumbnailer: Thumbnailer
    private let lock = NSLock()

    /// ~480 px on the long side covers a card at 2× density.
    static let thumbnailSide = 480
    /// WebP: a third smaller than JPEG at the same look, and shown by every current browser.
    static let thumbnailFormat = OutputFormat.webp
    static let thumbnailQuality = 75

    public init(directory: URL, limits: PhotoLimits = PhotoLimits()) throws {
        self.limits = limits
        files = try ImageStore(directory: directory)
        thumbnailer = Thumbnailer(limits: ImageLimits(maxPixels: limits.maxPixels))
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
        guard byteCount <= limits.maxBytes else {
            throw PhotoProblem.tooLarge(byteCount: byteCount, limit: limits.maxBytes).validationError
        }
        do {
            let info = try thumbnailer.inspect(path: path)
            let thumbnail = try thumbnailer.makeThumbnail(
                path: path, maxSide: Self.thumbnailSide, format: Self.thumbnailFormat, quality: Self.thumbnailQuality)
            let rendition = info.format.isBrowserDisplayable ? nil : try thumbnailer.makeDisplayRendition(path: path)
            return PreparedPhoto(original: .file(path: path), format: info.format, width: info.uprightWidth,
                                 height: info.uprightHeight, thumbnail: thumbnail, rendition: rendition)
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
        var stored: [StoredPhoto] = []
        let outcome: (Value, released: [String])
        do {
            for photo in photos { stored.append(try store(photo)) }
            outcome = try write(stored)
        } catch {
            for file in stored.flatMap(\.newFiles) { try? files.remove(name: file.name) }
            throw error
        }
        // A file that cannot be deleted now is an orphan the next startup sweep removes.
        for name in outcome.released { try? files.remove(name: name) }
        return outcome.0
    }

    /// Deletes files no row references and reports referenced files that are missing.
    /// `referencedNames` runs under the lock, so no upload is between storing and committing.
    func sweep(referencedNames: () throws -> Set<String>) throws -> PhotoSweep {
        lock.lock()
        defer { lock.unlock() }
        let referenced = try referencedNames()
        return PhotoSweep(removedFiles: try files.sweep(keeping: referenced), missingFiles: files.missing(from: referenced))
    }

    private func store(_ photo: PreparedPhoto) throws -> StoredPhoto {
        let original = switch photo.original {
        case .file(let path): try files.store(fileAt: path, format: photo.format)
        case .bytes(let bytes): try files.store(bytes: bytes, format: photo.format)
        }
        do {
            let rendition = try photo.rendition.map { try files.store(bytes: $0.bytes, format: $0.format) }
            return StoredPhoto(prepared: photo, original: original, rendition: rendition)
        } catch {
            if original.isNew { try? files.remove(name: original.name) }
            throw error
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
    /// Files no row referenced (left by a crash or an import), now deleted.
    public let removedFiles: [String]
    /// Files rows reference that are not there; their trips show the placeholder.
    public let missingFiles: [String]
}
