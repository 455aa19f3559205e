import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// The Data page (`/data`), the browser's side of `wishlist export` and `import`: downloads the
/// whole wishlist as a zip archive, and restores one by upload, after a preview of what it holds
/// and what it replaces, behind an automatic backup (DataPage+Import.swift); and makes and revokes
/// API tokens (DataPage+Tokens.swift).
struct DataPage {
    let app: WishlistApp
    /// The one uploaded archive waiting for its confirmation (a new upload replaces it).
    let pendingImports: ExpiringItems<StagedArchive>
    /// Archives written for download: the server opens the file after the handler returns, so
    /// each stays a while (an open file survives its removal) instead of going at once.
    let downloads: ExpiringItems<TemporaryFile>

    static let pendingImportLifetime: TimeInterval = 60 * 60
    static let downloadLifetime: TimeInterval = 60
    static let archiveField = "archive"

    init(app: WishlistApp) {
        self.app = app
        pendingImports = ExpiringItems(clock: app.store.clock, lifetime: Self.pendingImportLifetime, capacity: 1)
        downloads = ExpiringItems(clock: app.store.clock, lifetime: Self.downloadLifetime, capacity: .max)
        // Left by an earlier run: no download of this process is under way yet.
        try? FileManager.default.removeItem(at: downloadFolder)
    }

    func register(on router: inout Router) {
        router.page("/data") { request in try page(for: request) }
        router.get("/data/export") { request in try export(request) }
        router.post("/data/import") { request in try stage(request) }
        router.post("/data/import/:id/confirm") { request in try confirm(request) }
        registerTokenRoutes(on: &router)
    }

    /// The folder holding the database, the photos, the backups.
    var dataDirectory: URL { URL(fileURLWithPath: app.store.database.path).deletingLastPathComponent() }
    private var downloadFolder: URL { dataDirectory.appendingPathComponent(".downloads", isDirectory: true) }

    /// The page with its forms; `problem` (an upload refused) shows above the upload form, `tokens`
    /// (a new token's secret, or why none was made) in the API tokens section.
    func page(for request: Request, problem: String? = nil, tokens: TokenNotice? = nil, status: HTTPStatus = .ok) throws -> Response {
        pendingImports.removeExpired()
        downloads.removeExpired()
        let contents = try app.store.fetch(.contents)
        var context: [String: MustacheValue] = [
            "current": Self.countsContext(trips: contents.trips, activities: contents.activities, photos: contents.photos),
            "maxUploadBytes": .int(app.maxBodySize),
            "maxUploadMegabytes": .int(app.maxBodySize / (1024 * 1024)),
            "dataDirectory": .string(dataDirectory.path),
        ]
        if let problem { context["problem"] = .string(problem) }
        context.merge(try tokensContext(tokens)) { $1 }
        return try app.pages.page("data", for: request, tab: nil, status: status, context)
    }

    /// Writes the archive into the data directory (beside the photos it copies, on the same disk)
    /// and sends it as a download named by today's date.
    func export(_ request: Request) throws -> Response {
        downloads.removeExpired()
        try FileManager.default.createDirectory(at: downloadFolder, withIntermediateDirectories: true)
        let file = TemporaryFile(downloadFolder.appendingPathComponent(ExpiringItems<TemporaryFile>.newID() + ".zip"))
        try WishlistArchive(store: app.store).export(to: file.url)
        let size = try FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as? Int ?? 0
        _ = downloads.insert(file)
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/zip")
        headers.add("Content-Disposition", "attachment; filename=\"\(Self.downloadName(on: app.store.clock.now()))\"")
        headers.add("Cache-Control", "no-store")
        return Response(status: .ok, headers: headers, body: .file(path: file.url.path, size: size))
    }

    /// "wishlist-2026-05-28.zip", by this machine's calendar.
    static func downloadName(on date: Date) -> String {
        let day = Date.gregorian.dateComponents([.year, .month, .day], from: date)
        func twoDigits(_ number: Int?) -> String { number.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "01" }
        return "wishlist-\(day.year ?? 1970)-\(twoDigits(day.month))-\(twoDigits(day.day)).zip"
    }

    static func countsContext(trips: Int, activities: Int, photos: Int) -> MustacheValue {
        func counted(_ count: Int, _ one: String, _ many: String) -> MustacheValue { .string("\(count) \(count == 1 ? one : many)") }
        return ["trips": counted(trips, "trip", "trips"), "activities": counted(activities, "activity", "activities"),
                "photos": counted(photos, "photo", "photos")]
    }
}
