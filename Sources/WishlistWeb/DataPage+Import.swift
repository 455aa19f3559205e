import Foundation
import HTTPServer
import Mustache
import WishlistCore

// Restoring an archive from the Data page: the upload is checked in full and previewed (nothing
// changes), then a confirmation takes the automatic backup and imports it.
extension DataPage {
    /// Stages the uploaded archive and answers the preview; a bad archive gets the Data page back
    /// with its first problem (422), and nothing changes.
    func stage(_ request: Request) throws -> Response {
        guard let upload = request.files.first(where: { $0.fieldName == Self.archiveField && $0.size > 0 }) else {
            return try page(for: request, problem: "Choose an archive file to restore.", status: .unprocessableContent)
        }
        let staged: StagedArchive
        do {
            staged = try WishlistArchive(store: app.store).stage(URL(fileURLWithPath: upload.path))
        } catch let error as ArchiveError {
            // Named as the person chose it, not by the server's temporary file.
            let problem = error.description.replacingOccurrences(of: upload.path, with: upload.fileName)
            return try page(for: request, problem: "That file can’t be restored: \(problem)", status: .unprocessableContent)
        }
        let preview = staged.preview
        let id = pendingImports.insert(staged)
        let contents = try app.store.fetch(.contents)
        var context: [String: MustacheValue] = [
            "archive": Self.countsContext(trips: preview.trips, activities: preview.activities, photos: preview.photos),
            "current": Self.countsContext(trips: contents.trips, activities: contents.activities, photos: contents.photos),
            "fileName": .string(upload.fileName),
            "isPlainDocument": .bool(!preview.isPackage),
            "formatVersion": .int(preview.formatVersion),
            "confirmURL": .string("/data/import/\(id)/confirm"),
        ]
        if let exportedAt = preview.exportedAt { context["exportedAt"] = .string(exportedAt.longDateText) }
        return try app.pages.page("data-preview", for: request, tab: nil, context)
    }

    /// Backs up the current wishlist, then imports the staged archive named by the id.
    func confirm(_ request: Request) throws -> Response {
        guard let id = request.parameters["id"], ExpiringItems<StagedArchive>.isWellFormedID(id),
              let staged = pendingImports.take(id) else {
            return try page(for: request, problem: "That upload is no longer waiting: it was replaced by another or expired after an hour. Nothing was changed; upload the archive again.",
                            status: .notFound)
        }
        let backup = try Backup.beforeImport(of: app.store)
        let summary = try WishlistArchive(store: app.store).import(staged)
        let imported = Self.countsText(trips: summary.trips, activities: summary.activities, photos: summary.photosFromArchive)
        return try result(for: request, heading: "Archive Restored", summary: """
            Your wishlist now holds \(imported.trips) and \(imported.activities). Photos: \(imported.photos) from the archive, \
            \(summary.photosKept) kept from the trips you had, \(summary.photosRemoved) no longer shown and removed.
            """, backup: backup)
    }
}
