import FileArchive
import Foundation
import Imaging

/// An archive file read and checked in full, before anything in the wishlist changes: the
/// document decoded, and for a zip archive every photo the document names extracted into a
/// staging folder beside the database, its content hash compared with its name, and thumbnailed. Any problem throws an
/// `ArchiveError` naming the first one. The staging folder goes when this is released, so a
/// screen can hold one while a person looks at its `preview`, then import it.
public final class StagedArchive: @unchecked Sendable {
    /// The document inside a zip archive; photos are `photos/<sha256>.<extension>`.
    static let documentEntry = "wishlist.json"
    static let photoFolder = "photos/"
    /// Zip files start with a local file header, "PK\3\4"; anything else is read as JSON.
    static let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    let document: Archive
    /// Whether the file was a zip archive (carrying photos) rather than a plain document.
    let isPackage: Bool
    /// The photos the document's trips name, by stored-file name, ready to store.
    let photos: [String: PreparedPhoto]
    private let staging: URL

    init(url: URL, library: PhotoLibrary, limits: FileArchiveLimits, existingPhotos: () throws -> Set<String>) throws {
        let staging = library.directory.deletingLastPathComponent()
            .appendingPathComponent(DataFolder.stagingName(DataFolder.importStagingPrefix), isDirectory: true)
        self.staging = staging
        isPackage = try Self.startsWithZipSignature(url)
        // deinit does not run when init throws before every property is set.
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            (document, photos) = try Self.read(url, isPackage: isPackage, staging: staging, library: library,
                                               limits: limits, existingPhotos: existingPhotos)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    private static func read(_ url: URL, isPackage: Bool, staging: URL, library: PhotoLibrary, limits: FileArchiveLimits,
                             existingPhotos: () throws -> Set<String>) throws -> (Archive, [String: PreparedPhoto]) {
        guard isPackage else {
            let document = try WishlistArchive.read(url)
            let existing = try existingPhotos()
            try checkReferences(in: document) { existing.contains($0) ? nil : "is not in the photo library; import the zip archive that carries it" }
            return (document, [:])
        }
        do {
            let (documentFile, photoSizes) = try extractDocument(url, into: staging, limits: limits)
            let document = try WishlistArchive.read(documentFile)
            try checkReferences(in: document) { photoSizes[$0] == nil ? "names \(photoFolder)\($0), which is not in the archive" : nil }
            let named = Set(document.trips.flatMap { $0.namedPhotoFiles.map(\.file) })
            // The rows come from the document: its size bounds what the database grows by.
            let documentBytes = (try FileManager.default.attributesOfItem(atPath: documentFile.path)[.size] as? Int64) ?? 0
            try checkFreeSpace(for: named.reduce(documentBytes) { $0 + photoSizes[$1, default: 0] }, at: staging)
            let staged = try extractPhotos(named, from: url, into: staging, limits: limits)
            return (document, try prepare(staged, namedBy: document, with: library))
        } catch let error as FileArchiveError {
            throw ArchiveError(location: error.entry, message: error.message)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: staging)
    }

    public var preview: ArchivePreview {
        ArchivePreview(formatVersion: document.formatVersion, exportedAt: document.exportedAt, isPackage: isPackage,
                       trips: document.trips.count, activities: document.trips.reduce(0) { $0 + $1.activities.count },
                       photos: photos.count)
    }

    private static func startsWithZipSignature(_ url: URL) throws -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ArchiveError(location: "", message: "cannot read \(url.path)")
        }
        defer { try? handle.close() }
        return (try handle.read(upToCount: zipSignature.count)).map(Array.init) == zipSignature
    }

    /// The first of two passes over a zip archive: checks every entry's name, extracts the
    /// document and notes each photo entry's declared size. Photos wait for the second pass, so
    /// an entry the document does not name is never written.
    private static func extractDocument(_ url: URL, into staging: URL, limits: FileArchiveLimits) throws -> (document: URL, photoSizes: [String: Int64]) {
        let document = staging.appendingPathComponent(documentEntry)
        var hasDocument = false
        var photoSizes: [String: Int64] = [:]
        let reader = try FileArchiveReader(path: url.path, limits: limits)
        while let name = try reader.nextEntry() {
            if name == documentEntry, !hasDocument {
                try reader.extract(to: document.path)
                hasDocument = true
            } else {
                photoSizes[try photoFile(named: name).file] = reader.currentSize ?? 0
            }
        }
        guard hasDocument else { throw ArchiveError(location: "", message: "the archive has no \(documentEntry)") }
        return (document, photoSizes)
    }

    /// The second pass: extracts the photos in `named` into a staging `ImageStore`, which names
    /// them by their content, so a photo whose bytes do not match its name is caught here.
    private static func extractPhotos(_ named: Set<String>, from url: URL, into staging: URL, limits: FileArchiveLimits) throws -> ImageStore {
        let stagedPhotos = try ImageStore(directory: staging.appendingPathComponent("photos"))
        let incoming = staging.appendingPathComponent("incoming").path
        var extracted: Set<String> = []
        let reader = try FileArchiveReader(path: url.path, limits: limits)
        while let name = try reader.nextEntry() {
            guard name != documentEntry else { continue }
            let (file, format) = try photoFile(named: name)
            guard named.contains(file), extracted.insert(file).inserted else { continue }
            try reader.extract(to: incoming)
            defer { unlink(incoming) }
            let stored = try stagedPhotos.store(fileAt: incoming, format: format)
            guard stored.name == file else {
                throw ArchiveError(location: name, message: "its content does not match its name (SHA-256 \(stored.name.prefix(64))): the archive is damaged or was altered")
            }
        }
        return stagedPhotos
    }

    /// The photo file an entry other than the document holds; anything else has no place here.
    private static func photoFile(named name: String) throws -> (file: String, format: ImageFormat) {
        let file = String(name.dropFirst(photoFolder.count))
        guard name.hasPrefix(photoFolder), ImageStore.isValidName(file),
              let format = ImageFormat(fileExtension: String(file.split(separator: ".")[1])) else {
            throw ArchiveError(location: name, message: "is not part of a wishlist archive (expected \(documentEntry) and \(photoFolder)<sha256>.<extension>)")
        }
        return (file, format)
    }

    /// Refuses to stage what the disk cannot hold (the photos, and the document's worth of rows)
    /// beside a margin for renditions and the import's journal, rather than filling it part way.
    private static func checkFreeSpace(for bytes: Int64, at folder: URL) throws {
        guard let free = DataFolder.freeBytes(at: folder) else { return }
        let needed = bytes + freeSpaceMargin
        guard needed <= free else {
            throw ArchiveError(location: "", message: "it needs \(megabytes(needed)) of free disk space and \(megabytes(free)) is free; free some space and try again")
        }
    }

    /// Kept free beyond the photos themselves: their thumbnails, renditions and the import's writes.
    static let freeSpaceMargin: Int64 = 64 << 20

    private static func megabytes(_ bytes: Int64) -> String {
        "\((bytes + (1 << 20) - 1) >> 20) MB"
    }

    /// Thumbnails every photo the document names (each once); checks that each is an image of
    /// the type its name says, within the library's limits.
    private static func prepare(_ staged: ImageStore, namedBy document: Archive, with library: PhotoLibrary) throws -> [String: PreparedPhoto] {
        var prepared: [String: PreparedPhoto] = [:]
        for name in document.trips.flatMap({ $0.namedPhotoFiles.map(\.file) }) where prepared[name] == nil {
            let location = photoFolder + name
            do {
                let photo = try library.prepare(fileAt: try staged.url(for: name).path)
                guard name.hasSuffix(".\(photo.format.fileExtension)") else {
                    throw ArchiveError(location: location, message: "is a \(photo.format.fileExtension) image under another extension")
                }
                prepared[name] = photo
            } catch let error as ValidationError {
                throw ArchiveError(location: location, message: error.message)
            }
        }
        return prepared
    }

    /// Throws for the first trip whose photo file `problem` finds fault with.
    private static func checkReferences(in document: Archive, _ problem: (String) throws -> String?) throws {
        for (index, trip) in document.trips.enumerated() {
            for (location, name) in trip.namedPhotoFiles {
                guard let message = try problem(name) else { continue }
                throw ArchiveError(location: "trips[\(index)].\(location)", message: message)
            }
        }
    }
}
