import Foundation
import Imaging
import Persistence

/// What a backup holds, or what a restore put back.
public struct BackupSummary: Hashable, Sendable {
    public let folder: URL
    public let photoFiles: Int
}

/// A backup kept in `backups/`, taken before an import or a restore replaced the wishlist.
public struct ImportBackup: Hashable, Sendable {
    /// The folder's name, `import-YYYYMMDD-HHMMSS[-N]`.
    public let name: String
    public let folder: URL
    /// "5 Dec 2026, 06:37 UTC".
    public let takenAt: String
}

/// A backup that cannot be made or put back, in words for the person at the terminal.
public struct BackupError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
}

/// Consistent copies of the live wishlist, and putting one back: a folder holding
/// `wishlist.sqlite` and `images/` with the photo files it refers to (docs/RELIABILITY.md).
public enum Backup {
    static let databaseFileName = "wishlist.sqlite"
    static let folderForImportBackups = "backups"
    /// Backups taken before imports that are kept, the newest; older ones go as a new one is taken.
    public static let keptImportBackups = 5

    /// Copies the live wishlist into the new folder `folder`: the database through SQLite's online
    /// backup (one moment; the server keeps writing meanwhile) and the photo files this copy refers
    /// to. Photo files never change (content-derived names), so copying them after the snapshot is
    /// consistent, unless one is deleted in between: then the snapshot is taken again.
    @discardableResult
    public static func write(of store: WishlistStore, to folder: URL) throws -> BackupSummary {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(databaseFileName)
        var missing: [String] = []
        for _ in 1...3 {
            try store.database.backup(to: copy.path)
            let copied: Int
            (copied, missing) = try copyPhotos(referencedBy: copy, from: store.photos.directory)
            if missing.isEmpty { return BackupSummary(folder: folder, photoFiles: copied) }
        }
        throw BackupError(description: "photos the database refers to are missing from \(store.photos.directory.path): \(missing.joined(separator: ", "))")
    }

    /// A backup in `<data directory>/backups/import-YYYYMMDD-HHMMSS/` (UTC), taken before an
    /// import replaces anything; the oldest beyond `keptImportBackups` go.
    public static func beforeImport(of store: WishlistStore) throws -> BackupSummary {
        let date = store.clock.now()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let parent = importBackupsFolder(of: store)
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []).compactMap(ImportBackupName.init)
        let name = ImportBackupName(time: formatter.string(from: date), after: existing)
        let summary = try write(of: store, to: parent.appendingPathComponent(name.folder, isDirectory: true))
        for old in (existing + [name]).sorted().dropLast(keptImportBackups) {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(old.folder))
        }
        return summary
    }

    /// The backups taken before imports and restores that are kept, newest first.
    public static func importBackups(of store: WishlistStore) -> [ImportBackup] {
        let parent = importBackupsFolder(of: store)
        return ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [])
            .compactMap(ImportBackupName.init).sorted().reversed()
            .map { ImportBackup(name: $0.folder, folder: parent.appendingPathComponent($0.folder), takenAt: $0.takenAtText) }
    }

    /// The kept import backup named `name`, nil for any other name (nothing outside the folder).
    public static func importBackup(named name: String, of store: WishlistStore) -> ImportBackup? {
        importBackups(of: store).first { $0.name == name }
    }

    private static func importBackupsFolder(of store: WishlistStore) -> URL {
        URL(fileURLWithPath: store.database.path).deletingLastPathComponent().appendingPathComponent(folderForImportBackups, isDirectory: true)
    }

    /// `import-YYYYMMDD-HHMMSS[-N]`, in the order they were taken: the Nth in that second.
    private struct ImportBackupName: Comparable {
        let folder: String
        let time: String
        let attempt: Int

        init?(_ folder: String) {
            let parts = folder.split(separator: "-")
            guard parts.count == 3 || parts.count == 4, parts[0] == "import" else { return nil }
            self.folder = folder
            time = parts[1] + "-" + parts[2]
            attempt = parts.count == 4 ? Int(parts[3]) ?? 1 : 1
        }

        /// The next name for a backup taken at `time` ("YYYYMMDD-HHMMSS"), after those `existing`.
        init(time: String, after existing: [ImportBackupName]) {
            self.time = time
            attempt = (existing.filter { $0.time == time }.map(\.attempt).max() ?? 0) + 1
            folder = "import-\(time)" + (attempt == 1 ? "" : "-\(attempt)")
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.time, lhs.attempt) < (rhs.time, rhs.attempt)
        }

        /// "5 Dec 2026, 06:37 UTC", from the name.
        var takenAtText: String {
            let digits = time.filter(\.isNumber).map { Int(String($0)) ?? 0 }
            guard digits.count == 14, let day = CalendarDate(year: digits[0..<4].reduce(0) { $0 * 10 + $1 },
                                                                month: digits[4] * 10 + digits[5], day: digits[6] * 10 + digits[7]) else {
                return folder
            }
            return "\(day.dayText), \(digits[8])\(digits[9]):\(digits[10])\(digits[11]) UTC"
        }
    }

    /// What to do when the database file at `databasePath` is damaged or gone: the commands that
    /// put the latest backup of its data folder back (README, Reliability, says the same).
    public static func restoreSteps(forDatabaseAt databasePath: String) -> String {
        let data = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        let backups = data.appendingPathComponent(folderForImportBackups)
        let latest = (try? FileManager.default.contentsOfDirectory(atPath: backups.path))?.filter { $0.hasPrefix("import-") }.max()
        let folder = latest.map { backups.appendingPathComponent($0).path } ?? "FOLDER"
        return "To restore the latest backup: stop wishlist, move the database aside "
            + "(mkdir \(data.path)/damaged && mv \(databasePath)* \(data.path)/damaged/), then run "
            + "wishlist restore \(folder) --data-dir \(data.path)"
            + (latest == nil ? ", where FOLDER is a folder made by wishlist backup." : " (the backup taken before the latest import; a folder made by wishlist backup works too).")
    }

    /// Puts the backup in `folder` back as the wishlist of the database at `databasePath`, whether
    /// or not a server has it open: first the photo files (added to the photo folder, each checked
    /// against its name; none is deleted), then the database content through SQLite's online
    /// backup into the live file, so a running server's connections read the restored wishlist.
    @discardableResult
    public static func restore(from folder: URL, toDatabaseAt databasePath: String) throws -> BackupSummary {
        try restore(from: folder, photosInto: WishlistStore.imagesDirectory(forDatabaseAt: databasePath)) { copy in
            let database = try Database(path: databasePath, migrations: Schema.migrations)
            defer { database.close() }
            try database.restore(from: copy)
        }
    }

    /// `restore(from:toDatabaseAt:)` into the store this process serves, through its own
    /// database: its pages and live updates see the restored wishlist at once.
    @discardableResult
    public static func restore(from folder: URL, into store: WishlistStore) throws -> BackupSummary {
        try restore(from: folder, photosInto: store.photos.directory) { try store.database.restore(from: $0) }
    }

    private static func restore(from folder: URL, photosInto photoFolder: URL, restoreDatabase: (String) throws -> Void) throws -> BackupSummary {
        let copy = folder.appendingPathComponent(databaseFileName)
        guard FileManager.default.fileExists(atPath: copy.path) else {
            throw BackupError(description: "\(folder.path) has no \(databaseFileName); name a folder made by wishlist backup or by an import")
        }
        let (names, missing) = try photoFiles(referencedBy: copy, in: WishlistStore.imagesDirectory(forDatabaseAt: copy.path))
        guard missing.isEmpty else {
            throw BackupError(description: "the backup is incomplete: photos missing from \(folder.path)/images: \(missing.joined(separator: ", "))")
        }
        let photos = try ImageStore(directory: photoFolder)
        let backupPhotos = try ImageStore(directory: WishlistStore.imagesDirectory(forDatabaseAt: copy.path))
        for name in names.sorted() {
            guard let format = ImageFormat(fileExtension: String(name.split(separator: ".")[1])) else { continue }
            let stored = try photos.store(fileAt: try backupPhotos.url(for: name).path, format: format)
            guard stored.name == name else {
                throw BackupError(description: "the backup's photo \(name) does not match its content; nothing in the database was changed")
            }
        }
        try restoreDatabase(copy.path)
        return BackupSummary(folder: folder, photoFiles: names.count)
    }

    /// Links (or, on another disk, copies and syncs) every photo file the backed-up database
    /// refers to; returns how many and the names that had no file. Photo files never change
    /// (content-derived names), so a hard link is a copy that takes no space.
    private static func copyPhotos(referencedBy database: URL, from photos: URL) throws -> (copied: Int, missing: [String]) {
        let (names, missing) = try photoFiles(referencedBy: database, in: photos)
        let destination = WishlistStore.imagesDirectory(forDatabaseAt: database.path)
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in names.sorted() where !missing.contains(name) {
            let (source, copy) = (photos.appendingPathComponent(name), destination.appendingPathComponent(name))
            guard link(source.path, copy.path) != 0 else { continue }
            try FileManager.default.copyItem(at: source, to: copy)
            try synchronize(copy)
        }
        try synchronize(destination)
        return (names.count - missing.count, missing)
    }

    /// The photo files the database file refers to, and those of them not in `folder`. Opening
    /// the copy with the app's schema also proves that it opens.
    private static func photoFiles(referencedBy database: URL, in folder: URL) throws -> (names: Set<String>, missing: [String]) {
        let copy = try Database(path: database.path, migrations: Schema.migrations)
        defer { copy.close() }
        let names = try copy.read(PhotoRows.referencedFiles)
        let missing = names.filter { name in
            !ImageStore.isValidName(name) || !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
        }
        return (names, missing.sorted())
    }

    /// Flushes a file or a folder's entries to the disk, so the backup survives a power cut.
    private static func synchronize(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    }
}
