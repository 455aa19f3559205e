import FileArchive
import Foundation
import Persistence

/// How far an export or import has come, in items (trips plus activities), for progress displays.
public struct ArchiveProgress: Hashable, Sendable {
    public let itemsDone: Int
    public let itemsTotal: Int
}

/// What an import brought in, and what became of the photos.
public struct ImportSummary: Hashable, Sendable {
    public var trips: Int
    public var activities: Int
    /// Trips whose photo came from the archive file.
    public var photosFromArchive = 0
    /// Trips that kept the photo a current trip had (the same file named, or the same name and collection).
    public var photosKept = 0
    /// Photos (originals) no trip shows any more, deleted from the photo folder.
    public var photosRemoved = 0
}

/// What an archive file holds, checked in full, for a person to confirm before importing.
public struct ArchivePreview: Hashable, Sendable {
    public let formatVersion: Int
    public let exportedAt: Date?
    /// A zip archive carrying photos, rather than a plain JSON document.
    public let isPackage: Bool
    public let trips: Int
    public let activities: Int
    /// Distinct photo files in the archive that its trips use.
    public let photos: Int
}

/// Export and import of the whole wishlist (docs/EXPORT-FORMAT.md): a zip archive holding the
/// JSON document and every original photo, or, for a path ending in `.json`, the document alone.
public struct WishlistArchive: Sendable {
    public static let importAuthor = "import"
    static let importCacheKilobytes = 512 * 1024
    /// What an archive may hold: far beyond any real wishlist, short of filling a disk by accident.
    /// Photos do not compress and an exported document deflates about 8 times, so content of 32
    /// times the file's size leaves room for any real archive; decoding the document then holds
    /// at most ~25 × 32 bytes per byte received.
    public static let limits = FileArchiveLimits(maxEntries: 200_000, maxEntryBytes: 4 << 30, maxTotalBytes: 64 << 30,
                                                 maxExpansion: 32)
    let store: WishlistStore

    public init(store: WishlistStore) {
        self.store = store
    }

    /// The largest archive file an upload into `folder` may be: what `limits` allow, and what
    /// the disk holds twice (the file, then the photos unpacked from it) beside the margin that
    /// staging keeps free. So any archive this app wrote restores where there is room for it.
    public static func largestUpload(into folder: URL) -> Int {
        let free = DataFolder.freeBytes(at: folder) ?? limits.maxTotalBytes
        return Int(max(0, min(limits.maxTotalBytes, (free - StagedArchive.freeSpaceMargin) / 2)))
    }

    /// Whether `export(to:)` writes the document alone (no photos) to `url`.
    public static func isPlainDocument(_ url: URL) -> Bool {
        url.pathExtension.lowercased() == "json"
    }

    /// Writes every trip, activity, goal and preference, as of one moment, to `url`, and unless it
    /// ends in `.json`, every photo's original beside them in a zip archive.
    public func export(to url: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws {
        guard !Self.isPlainDocument(url) else {
            _ = try writeDocument(to: url, progress: progress)
            return
        }
        try prepareExport(in: url.deletingLastPathComponent(), progress: progress).write(to: FileArchiveWriter(path: url.path))
    }

    /// The first half of a zip export: the document written, as of one moment, into a staging
    /// folder in `folder`; `PreparedExport.write(to:)` then packs it with the photos it names.
    public func prepareExport(in folder: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws -> PreparedExport {
        try PreparedExport(staging: folder.appendingPathComponent(DataFolder.stagingName(DataFolder.exportStagingPrefix)), photos: store.photos) {
            try writeDocument(to: $0, progress: progress)
        }
    }

    /// Writes the document; returns the photo files its trips name.
    private func writeDocument(to url: URL, progress: (ArchiveProgress) -> Void) throws -> Set<String> {
        try store.database.read { connection in
            let total = try connection.fetchScalar(Int.self, "SELECT (SELECT count(*) FROM Trip) + (SELECT count(*) FROM Activity)") ?? 0
            let writer = try ArchiveWriter(
                url: url, exportedAt: store.clock.now(),
                preferences: ArchivePreferences(activitySortOrder: try WishlistQuery.activitySortOrder.fetch(connection)),
                goals: try connection.fetchAll(Goal.self, "SELECT * FROM Goal ORDER BY sort_order").map(ArchiveGoal.init))
            var done = 0
            var photoNames: Set<String> = []
            progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
            try ArchiveExporter.forEachBatch(on: connection) { trips in
                for trip in trips {
                    try writer.write(trip)
                    photoNames.formUnion(trip.namedPhotoFiles.map(\.file))
                    done += 1 + trip.activities.count
                }
                progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
            }
            try writer.finish()
            return photoNames
        }
    }

    /// Reads and checks the whole file at `url` and prepares its photos, changing nothing; throws
    /// an `ArchiveError` naming the first problem. Its `preview` says what an import would bring.
    public func stage(_ url: URL) throws -> StagedArchive {
        try StagedArchive(url: url, library: store.photos, limits: Self.limits, existingPhotos: store.referencedPhotoFiles)
    }

    /// Replaces the whole wishlist with the archive at `url`: `stage`, then `import(_:)`.
    @discardableResult
    public func `import`(from url: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws -> ImportSummary {
        try self.import(try stage(url), progress: progress)
    }

    /// Replaces the whole wishlist with a staged archive, in one transaction (author "import").
    /// The archive's photos are stored before the transaction and deleted again if it fails;
    /// photos no trip shows afterwards are deleted after it commits (take a `Backup` first).
    @discardableResult
    public func `import`(_ staged: StagedArchive, progress: (ArchiveProgress) -> Void = { _ in }) throws -> ImportSummary {
        let archive = staged.document
        let total = archive.trips.reduce(0) { $0 + 1 + $1.activities.count }
        let photoNames = Array(staged.photos.keys)
        return try store.photos.committing(photoNames.map { staged.photos[$0]! }) { stored in
            let storedByName = Dictionary(uniqueKeysWithValues: zip(photoNames, stored))
            return try store.database.write(author: Self.importAuthor) { connection in
                // The indexes of a large import outgrow SQLite's default 2 MB page cache; pages that
                // spill must then be found again in the WAL, which slows each insert as it grows.
                let cacheSize = try connection.fetchScalar(Int.self, "PRAGMA cache_size") ?? -2000
                try connection.execute("PRAGMA cache_size = -\(Self.importCacheKilobytes)")
                defer { try? connection.execute("PRAGMA cache_size = \(cacheSize)") }
                var outcome = try Schema.withoutTriggers(on: connection) {
                    try ArchiveImporter(connection: connection, importTime: store.clock.now()).replaceTrips(
                        with: archive.trips, photos: storedByName, total: total, progress: progress)
                }
                try Self.keepHistory(of: archive, on: connection)
                progress(ArchiveProgress(itemsDone: total, itemsTotal: total))
                outcome.summary.activities = total - archive.trips.count
                return (outcome.summary, released: outcome.releasedFiles)
            }
        }
    }

    /// Achievement dates (for goals the import leaves achieved) and preferences from the archive.
    private static func keepHistory(of archive: Archive, on connection: Connection) throws {
        for goal in archive.goals ?? [] {
            guard let dateAchieved = goal.dateAchieved else { continue }
            try connection.execute("UPDATE Goal SET date_achieved = ? WHERE badge = ? AND is_achieved", [dateAchieved, goal.badge])
        }
        if let order = archive.preferences?.activitySortOrder {
            try Preferences.set(.activitySortOrder, to: order.rawValue, on: connection)
        }
        try Preferences.set(.seeded, to: "true", on: connection)
    }

    /// The decoded, validated document, or an `ArchiveError` for the first problem.
    static func read(_ url: URL) throws -> Archive {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ArchiveError(location: "", message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder.archive.decode(Archive.self, from: data)
        } catch let error as DecodingError {
            throw ArchiveError(error, in: data)
        }
    }
}

/// An export's document, written, with the photos it names: packed into a zip by `write(to:)`.
/// Its staging folder goes when it is released.
public final class PreparedExport: Sendable {
    private let staging: URL
    private let photos: PhotoLibrary
    private let document: URL
    private let photoNames: Set<String>

    /// Writes the document with `writeDocument`, which returns the photo files it names.
    fileprivate init(staging: URL, photos: PhotoLibrary, writeDocument: (URL) throws -> Set<String>) throws {
        let document = staging.appendingPathComponent(StagedArchive.documentEntry)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            photoNames = try writeDocument(document)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        self.staging = staging
        self.photos = photos
        self.document = document
    }

    deinit {
        try? FileManager.default.removeItem(at: staging)
    }

    /// Adds the document and every photo it names to `package`, and finishes it; the staging
    /// folder goes then, written or not.
    public func write(to package: FileArchiveWriter) throws {
        defer { try? FileManager.default.removeItem(at: staging) }
        try package.add(name: StagedArchive.documentEntry, fileAt: document.path)
        // Stored files never change, so they match the document; one that an edit deleted since
        // fails the export with its name (export again).
        for name in photoNames.sorted() {
            try package.add(name: StagedArchive.photoFolder + name, fileAt: try photos.url(for: name).path)
        }
        try package.finish()
    }
}
