import Foundation
import Imaging
@testable import HTTPServer
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// Restoring an archive through the Data page's forms, over a real socket (the upload is a
/// multipart file, which only the server's own reader turns into a file).
@Suite struct DataImportTests {
    private let site: LiveServer
    private var browser: Browser

    init() throws {
        site = try LiveServer()
        browser = site.browser()
        _ = try browser.get("/data")
    }

    private mutating func upload(_ bytes: [UInt8], named fileName: String) throws -> Reply {
        let token = try #require(browser.cookies[CSRFProtection.cookieName])
        let form = SocketClient.multipart([(CSRFProtection.fieldName, token)],
                                          file: (DataPage.archiveField, fileName, "application/zip", bytes))
        return try browser.send(.post, "/data/import", headers: ["Content-Type": form.contentType], body: form.body)
    }

    private func confirmURL(in preview: Reply) throws -> String {
        let match = try #require(preview.text.firstMatch(of: /action="(\/data\/import\/[0-9a-f]{32}\/confirm)"/))
        return String(match.1)
    }

    private func leftoverStagingFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.directory).filter { $0.hasPrefix(".import-") }
    }

    @Test mutating func anExportedArchiveRestoresThroughThePreviewAndTheBackupKeepsWhatWasReplaced() throws {
        let archive = try site.downloadArchive().body
        let activityCount = try site.store.fetch(.contents).activities
        let deleted = try #require(try site.store.recentTrips(limit: 1).first)
        let deletedActivities = deleted.activityCount
        try site.store.deleteTrip(id: deleted.id)

        let preview = try upload(archive, named: "wishlist-2026-05-28.zip")
        #expect(preview.status == 200)
        #expect(preview.text.contains("wishlist-2026-05-28.zip"))
        let holds = try #require(preview.text.firstRange(of: "The archive holds")).upperBound
        let replaces = try #require(preview.text.firstRange(of: "It will replace")).upperBound
        #expect(preview.text[holds..<replaces].contains("<li>12 trips</li>"))
        #expect(preview.text[holds..<replaces].contains("<li>\(activityCount) activities</li>"))
        #expect(preview.text[holds..<replaces].contains("<li>12 photos</li>"))
        #expect(preview.text[replaces...].contains("<li>11 trips</li>"))
        #expect(preview.text[replaces...].contains("<li>\(activityCount - deletedActivities) activities</li>"))
        #expect(preview.text[replaces...].contains("<li>11 photos</li>"))
        #expect(try site.store.fetch(.contents).trips == 11, "the preview changes nothing")

        let result = try browser.post(try confirmURL(in: preview), form: [])
        #expect(result.status == 200)
        #expect(result.text.contains("Your wishlist now holds 12 trips and \(activityCount) activities."))
        let folder = try #require(result.text.firstMatch(of: /<code class="data-path">([^<]+)<\/code>/)).1
        #expect(folder.hasPrefix(site.directory + "/backups/import-"))
        #expect(result.text.contains("wishlist restore \(folder) --data-dir \(site.directory)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/images").count == 12,
                "the photos of the 11 trips replaced and of the one deleted, which the backup's undo can bring back")
        #expect(FileManager.default.fileExists(atPath: folder + "/wishlist.sqlite"))

        let restored = try #require(try site.store.search(deleted.name).trips.first { $0.name == deleted.name })
        let photo = try #require(restored.photo)
        let thumbnail = try site.get("/trips/\(restored.id)/thumbnail?v=\(photo.version)")
        #expect(thumbnail.status == 200 && thumbnail.header("Content-Type") == "image/webp")
        #expect(try leftoverStagingFolders().isEmpty)
        #expect(try browser.post(try confirmURL(in: preview), form: []).status == 404, "an import is confirmed once")
    }

    /// An outside review: Download Archive made 34.8 MB and Restore refused it over the photo
    /// limit (31 MB). The archive streams to disk, so the free disk bounds it, not that limit.
    @Test func anArchiveLargerThanThePhotoLimitRestoresWhereItWasMade() throws {
        let site = try LiveServer(maxPhotoBytes: 400 * 1024)
        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Photos under the limit, each stored whole in the archive, until they outweigh the body limit.
        var (added, addedBytes) = (0, 0)
        while addedBytes <= site.app.maxBodySize {
            added += 1
            let bytes = try ImageGenerator.gradientJPEG(width: 900, height: 650, colors: [
                RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150)], seed: added, grain: 60)
            let path = folder.appendingPathComponent("\(added).jpg").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let outcome = try #require(try site.store.addPhotos(tripID: trip.id, at: [path]).first)
            guard case .stored = outcome else { Issue.record("photo \(added): \(outcome)"); return }
            addedBytes += bytes.count
        }
        let archive = try site.downloadArchive().body
        #expect(archive.count > site.app.maxBodySize, "\(archive.count) bytes")

        var browser = site.browser()
        let data = try browser.get("/data")
        #expect(!data.text.contains("wishlist import FILE"), "no pointer to a terminal")
        let token = try #require(browser.cookies[CSRFProtection.cookieName])
        let form = SocketClient.multipart([(CSRFProtection.fieldName, token)],
                                          file: (DataPage.archiveField, "big.zip", "application/zip", archive))
        let preview = try browser.send(.post, "/data/import", headers: ["Content-Type": form.contentType], body: form.body)
        #expect(preview.status == 200)
        #expect(preview.text.contains("<li>\(12 + added) photos</li>"))
        let result = try browser.post(try confirmURL(in: preview), form: [])
        #expect(result.status == 200 && result.text.contains("Archive Restored"))
        #expect(try site.store.fetch(.gallery(tripID: trip.id)).count == 1 + added)
    }

    /// A restore started in the browser is undone in the browser: the result page's Undo puts
    /// the wishlist back whole (its trips, their activities and photos), taking a backup of its
    /// own first; the Data page lists the backups, each with its Restore.
    @Test mutating func aRestoreIsUndoneFromItsResultPageAndEveryBackupIsListed() throws {
        let archive = try site.downloadArchive().body
        let deleted = try #require(try site.store.recentTrips(limit: 1).first)
        try site.store.deleteTrip(id: deleted.id)
        try site.store.addTrip(TripDraft(name: "Only Before The Restore", collection: .fallGetaways))
        let before = try site.store.fetch(.contents)

        let result = try browser.post(try confirmURL(in: try upload(archive, named: "wishlist.zip")), form: [])
        #expect(try site.store.search("Only Before").trips.isEmpty)
        let undo = String(try #require(result.text.firstMatch(of: /<form class="form-actions" method="post" action="(\/data\/backups\/import-[0-9-]+\/restore)">/)).1)

        let undone = try browser.post(undo, form: [])
        #expect(undone.status == 200 && undone.text.contains("Backup Restored"))
        #expect(try site.store.fetch(.contents) == before)
        let back = try #require(try site.store.search("Only Before").trips.first)
        #expect(try site.store.search(deleted.name).trips.allSatisfy { $0.name != deleted.name })
        #expect(back.collection == .fallGetaways)
        #expect(undone.text.contains("action=\"/data/backups/"), "the undo can be undone")

        let page = try browser.get("/data")
        let listed = page.text.matches(of: /action="\/data\/backups\/(import-[0-9-]+)\/restore"/).map { String($0.output.1) }
        #expect(listed.count == 2 && listed == listed.sorted(by: >), "newest first: \(listed)")
        #expect(try browser.post("/data/backups/..%2F..%2Fetc/restore", form: []).status == 404)
        #expect(try browser.post("/data/backups/import-19990101-000000/restore", form: []).status == 404)
        #expect(try site.store.fetch(.contents) == before, "a backup not kept restores nothing")
    }

    @Test mutating func aDamagedArchiveGetsTheDataPageNamingTheProblemAndNothingChanges() throws {
        let archive = try site.downloadArchive().body
        let damaged = Array(archive.prefix(archive.count / 2))
        let before = try site.store.database.latestHistoryToken()

        let reply = try upload(damaged, named: "broken.zip")
        #expect(reply.status == 422)
        let copy = URL(fileURLWithPath: site.directory + "/broken.zip")
        try Data(damaged).write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let problem = try #require(#expect(throws: ArchiveError.self) { try WishlistArchive(store: site.store).stage(copy) })
        #expect(reply.text.contains(#"<p class="form-error" id="archive-problem" role="alert">That file can’t be restored: \#(HTML.escape(problem.description.replacingOccurrences(of: copy.path, with: "broken.zip")))</p>"#),
                "\(reply.text)")
        #expect(reply.text.contains(#"action="/data/import""#))
        #expect(try site.store.database.latestHistoryToken() == before)
        #expect(try leftoverStagingFolders().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.directory + "/backups"))
    }

    @Test mutating func aFormWithoutAFileAsksForOne() throws {
        let reply = try upload([], named: "")
        #expect(reply.status == 422)
        #expect(reply.text.contains("Choose an archive file to restore."))
    }

    @Test mutating func aNewUploadReplacesTheOneWaiting() throws {
        let archive = try site.downloadArchive().body
        let first = try confirmURL(in: try upload(archive, named: "a.zip"))
        let second = try confirmURL(in: try upload(archive, named: "b.zip"))
        #expect(try leftoverStagingFolders().count == 1)
        #expect(try browser.post(first, form: []).status == 404)
        #expect(try browser.post(second, form: []).status == 200)
    }
}
