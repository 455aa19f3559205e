import Foundation
import WishlistCore

/// `wishlist import`, `export`, `backup` and `restore`: whole-wishlist copies from the command line.
struct ArchiveCommands {
    let invocation: Invocation

    private var path: URL { URL(fileURLWithPath: invocation.paths[0]) }

    /// Checks the whole archive first; over a wishlist that has trips it needs `--replace` (or a
    /// yes at the terminal) and takes a backup before replacing anything.
    func importArchive() throws {
        // A running server goes on serving (it coordinates through SQLite's locks); a server
        // starting meanwhile would sweep the photos written before their rows, so it waits.
        let lock = try DataFolderLock.ifFree(folder: invocation.dataDirectory, command: "import")
        defer { lock?.release() }
        let hadDatabase = FileManager.default.fileExists(atPath: invocation.databasePath)
        let store = try invocation.openStore()
        defer { store.close() }
        let archive = WishlistArchive(store: store)
        let staged = try archive.stage(path)
        let tripCount = try TripCollection.allCases.reduce(0) { $0 + (try store.tripCount(in: $1)) }
        if hadDatabase, tripCount > 0 {
            try confirmReplacing(tripCount, with: staged.preview)
            let backup = try Backup.beforeImport(of: store)
            print("Backed up the current wishlist to \(backup.folder.path). To undo the import: wishlist restore \(backup.folder.path) --data-dir \(invocation.dataDirectory)")
        }
        let meter = ProgressMeter(verb: "Imported")
        let summary = try archive.import(staged, progress: meter.report)
        meter.finish()
        print("Imported \(summary.trips) trips and \(summary.activities) activities from \(path.path).")
        print("Photos: \(summary.photosFromArchive) from the archive, \(summary.photosKept) kept from the current trips, \(summary.photosRemoved) no longer shown by any trip and deleted\(hadDatabase && tripCount > 0 ? " (they are in the backup)" : "").")
    }

    private func confirmReplacing(_ tripCount: Int, with preview: ArchivePreview) throws {
        let question = "The wishlist in \(invocation.dataDirectory) has \(tripCount) trips; importing replaces them with the \(preview.trips) trips of \(path.lastPathComponent)."
        if invocation.replace { return }
        if isatty(STDIN_FILENO) == 1 {
            print("\(question) A backup is taken first. Replace? [y/N] ", terminator: "")
            if let answer = readLine()?.lowercased(), answer == "y" || answer == "yes" { return }
        }
        throw Invocation.UsageError(description: "\(question) Nothing was changed. To replace them (a backup is taken first), run: wishlist import \(invocation.paths[0]) --data-dir \(invocation.dataDirectory) --replace")
    }

    func exportArchive() throws {
        let store = try invocation.openStore()
        defer { store.close() }
        let meter = ProgressMeter(verb: "Exported")
        try WishlistArchive(store: store).export(to: path, progress: meter.report)
        meter.finish()
        if WishlistArchive.isPlainDocument(path) {
            print("Exported the wishlist without its photos to \(path.path) (a .json file holds the document only; the photos stay in \(store.photos.directory.path), and importing it keeps them). For a copy with the photos, export to a .zip path.")
        } else {
            print("Exported the wishlist and its photos to \(path.path).")
        }
    }

    func backup() throws {
        guard !FileManager.default.fileExists(atPath: path.path) else {
            throw Invocation.UsageError(description: "\(path.path) already exists; name a new folder for the backup.")
        }
        let store = try invocation.openStore()
        defer { store.close() }
        let backup = try Backup.write(of: store, to: path)
        print("Backed up the database and \(backup.photoFiles) photo files to \(path.path). To restore: wishlist restore \(path.path) --data-dir \(invocation.dataDirectory)")
    }

    func restore() throws {
        let lock = try DataFolderLock.ifFree(folder: invocation.dataDirectory, command: "restore")
        defer { lock?.release() }
        let restored = try Backup.restore(from: path, toDatabaseAt: invocation.databasePath)
        print("Restored the wishlist and \(restored.photoFiles) photo files from \(path.path) into \(invocation.dataDirectory); a running server shows it from its next page.")
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
