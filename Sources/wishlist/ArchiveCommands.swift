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

    /// A consistent copy of the live database (SQLite's online backup) in a new folder.
    func backup() throws {
        guard !FileManager.default.fileExists(atPath: path.path) else {
            throw Invocation.UsageError(description: "\(path.path) already exists; name a new folder for the backup.")
        }
        let store = try openStore()
        defer { store.close() }
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        try store.database.backup(to: path.appendingPathComponent("wishlist.sqlite").path)
        let photoCount = try copyPhotos(of: store, to: path.appendingPathComponent("images", isDirectory: true))
        print("Backed up the database and \(photoCount) photo files to \(path.path). Restore by stopping the server and copying the folder's contents into the data directory.")
    }
}

/// Copies the stored photo files after the database snapshot. Stored files never change (their
/// names are their content hashes), so copying them from a live data directory is safe; files
/// being written (temporary names) and stray files are skipped.
private func copyPhotos(of store: WishlistStore, to destination: URL) throws -> Int {
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    let stored = try FileManager.default.contentsOfDirectory(atPath: store.photos.directory.path)
        .compactMap { try? store.photos.url(for: $0) }
    for file in stored {
        try FileManager.default.copyItem(at: file, to: destination.appendingPathComponent(file.lastPathComponent))
    }
    return stored.count
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
