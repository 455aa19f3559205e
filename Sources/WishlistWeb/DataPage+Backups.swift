import HTTPServer
import Mustache
import WishlistCore

// Going back to a backup from the Data page: every import (and every restore) took one first,
// so each replacement of the wishlist started in the browser can be undone in the browser.
extension DataPage {
    func registerBackupRoutes(on router: inout Router) {
        router.post("/data/backups/:name/restore") { request in try restoreBackup(request) }
    }

    /// The kept backups, newest first, each with its Restore form.
    static func backupsContext(_ backups: [ImportBackup]) -> MustacheValue {
        .array(backups.map { backup in
            ["takenAt": .string(backup.takenAt), "restoreURL": .string(Self.restoreURL(of: backup))]
        })
    }

    static func restoreURL(of backup: ImportBackup) -> String {
        "/data/backups/\(backup.name)/restore"
    }

    /// Backs up the wishlist as it is, then puts the named backup back: a restore is undone by
    /// restoring the backup it took.
    func restoreBackup(_ request: Request) throws -> Response {
        guard let name = request.parameters["name"], let backup = Backup.importBackup(named: name, of: app.store) else {
            throw HTTPError(.notFound, "That backup is no longer kept: the newest \(Backup.keptImportBackups) are. Choose one on Back Up & Restore.")
        }
        let before = try Backup.beforeImport(of: app.store)
        try Backup.restore(from: backup.folder, into: app.store)
        let contents = try app.store.fetch(.contents)
        return try result(for: request, heading: "Backup Restored",
                          summary: "Your wishlist is again as it was on \(backup.takenAt): \(Self.sentence(contents)).",
                          backup: before)
    }

    /// The page after the wishlist was replaced: what it holds now, and the backup of what it
    /// held, with the Undo that restores it.
    func result(for request: Request, heading: String, summary: String, backup: BackupSummary) throws -> Response {
        let restoreCommand = "wishlist restore \(backup.folder.path) --data-dir \(dataDirectory.path)"
        var context: [String: MustacheValue] = [
            "heading": .string(heading),
            "summary": .string(summary),
            "backupFolder": .string(backup.folder.path),
            "restoreCommand": .string(restoreCommand),
        ]
        if let kept = Backup.importBackup(named: backup.folder.lastPathComponent, of: app.store) {
            context["undoURL"] = .string(Self.restoreURL(of: kept))
        }
        return try app.pages.page("data-result", for: request, tab: nil, context)
    }

    private static func sentence(_ contents: WishlistContents) -> String {
        let counted = countsText(trips: contents.trips, activities: contents.activities, photos: contents.photos)
        return "\(counted.trips), \(counted.activities) and \(counted.photos)"
    }
}
