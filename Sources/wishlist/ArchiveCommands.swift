import Foundation
import WishlistCore

/// `wishlist import`, `export` and `backup`: whole-wishlist copies from the command line.
struct ArchiveCommands {
    let invocation: Invocation

    private var path: URL { URL(fileURLWithPath: invocation.paths[0]) }

    private func openStore() throws -> WishlistStore {
        try FileManager.default.createDirectory(atPath: invocation.dataDirectory, withIntermediateDirectories: true)
        return try WishlistStore(path: invocation.databasePath)
    }

    func importArchive() throws {
        let store = try openStore()
        defer { store.close() }
        let meter = ProgressMeter(verb: "Imported")
        let summary = try Backup(store: store).import(from: path, progress: meter.report)
        meter.finish()
        print("Imported \(summary.trips) trips and \(summary.activities) activities from \(path.path).")
    }

    func exportArchive() throws {
        let store = try openStore()
        defer { store.close() }
        let meter = ProgressMeter(verb: "Exported")
        try Backup(store: store).export(to: path, progress: meter.report)
        meter.finish()
        print("Exported the wishlist to \(path.path).")
    }

    /// A consistent copy of the live wishlist in a new folder: the database through SQLite's
    /// online backup (one moment; the server keeps writing meanwhile) and the photo files that
    /// this copy refers to. Photo files never change (content-derived names), so copying them
    /// after the snapshot is consistent, unless one is deleted in between: then the snapshot is
    /// taken again.
    func backup() throws {
        guard !FileManager.default.fileExists(atPath: path.path) else {
            throw Invocation.UsageError(description: "\(path.path) already exists; name a new folder for the backup.")
        }
        let store = try openStore()
        defer { store.close() }
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let copy = path.appendingPathComponent("wishlist.sqlite")
        var missing: [String] = []
        for _ in 1...3 {
            try store.database.backup(to: copy.path)
            let copied: Int
            (copied, missing) = try copyPhotos(referencedBy: copy, from: store.photos)
            if missing.isEmpty {
                print("Backed up the database and \(copied) photo files to \(path.path). To restore, stop the server and copy the folder's contents into the data directory (docs/RELIABILITY.md).")
                return
            }
        }
        throw Invocation.UsageError(description: "photos the database refers to are missing from \(store.photos.directory.path): \(missing.joined(separator: ", "))")
    }

    /// Copies (and syncs) every photo file the backed-up database refers to; returns how many
    /// were copied and the names that had no file. Opening the copy with the app's own store
    /// also proves that it opens.
    private func copyPhotos(referencedBy database: URL, from photos: PhotoLibrary) throws -> (copied: Int, missing: [String]) {
        let copyStore = try WishlistStore(path: database.path)
        let names = try copyStore.referencedPhotoFiles()
        copyStore.close()
        let destination = WishlistStore.imagesDirectory(forDatabaseAt: database.path)
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        var missing: [String] = []
        for name in names.sorted() {
            do {
                try FileManager.default.copyItem(at: try photos.url(for: name), to: destination.appendingPathComponent(name))
            } catch CocoaError.fileReadNoSuchFile {
                missing.append(name)
                continue
            }
            try synchronize(destination.appendingPathComponent(name))
        }
        try synchronize(destination)
        return (names.count - missing.count, missing)
    }

    /// Flushes a file or a folder's entries to the disk, so the backup survives a power cut.
    private func synchronize(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    }
}

/// Progress on a terminal: items done, rate and time left, redrawn in place on stderr.
/// Quiet when stderr is not a terminal (scripts, CI).
final class ProgressMeter {
    private let verb: String
    private let start = Date()
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw = Date.distantPast

    init(verb: String) {
        self.verb = verb
    }

    func report(_ progress: ArchiveProgress) {
        guard isTerminal, Date().timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = Date()
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        let rate = Double(progress.itemsDone) / elapsed
        let left = rate > 0 ? Double(progress.itemsTotal - progress.itemsDone) / rate : 0
        let line = String(format: "\r%@ %d of %d items · %.0f items/s · %.0f s left   ",
                          verb, progress.itemsDone, progress.itemsTotal, rate, left)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
