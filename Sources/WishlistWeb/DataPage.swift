import FileArchive
import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// The Data page (`/data`), the browser's side of `wishlist export` and `import`: downloads the
/// whole wishlist as a zip archive, and restores one by upload, after a preview of what it holds
/// and what it replaces, behind an automatic backup (DataPage+Import.swift); makes and revokes
/// API tokens (DataPage+Tokens.swift) and calendar feeds (DataPage+Feeds.swift).
struct DataPage {
    let app: WishlistApp
    /// The one uploaded archive waiting for its confirmation (a new upload replaces it).
    let pendingImports: ExpiringItems<StagedArchive>
    /// One archive is packed at a time, so downloads never multiply the work and the disk an
    /// export takes; its producer gives the turn back when it ends, and a reader that stalls
    /// ends it (`PipedBody`'s stall timeout).
    private let exports = StreamBound(total: 1, perAddress: 1, refusal: HTTPError(
        .tooManyRequests, "An archive is being downloaded already. Wait until it has arrived, then try again.",
        headers: ["Retry-After": "10"]))

    static let pendingImportLifetime: TimeInterval = 60 * 60
    static let archiveField = "archive"

    init(app: WishlistApp) {
        self.app = app
        pendingImports = ExpiringItems(clock: app.store.clock, lifetime: Self.pendingImportLifetime, capacity: 1)
    }

    func register(on router: inout Router) {
        router.page("/data") { request in try page(for: request) }
        router.post("/data/export") { request in try export(request) }
        router.post(Self.importPath) { request in try stage(request) }
        router.post("/data/import/:id/confirm") { request in try confirm(request) }
        registerTokenRoutes(on: &router)
        registerFeedRoutes(on: &router)
        registerBackupRoutes(on: &router)
    }

    /// Where the archive form posts; its upload has its own limit (`WishlistApp.makeServer`).
    static let importPath = "/data/import"

    /// The largest archive the form takes now, by the free disk.
    var archiveUploadLimit: Int {
        WishlistArchive.largestUpload(into: dataDirectory)
    }

    /// A size as a person reads it: megabytes, or gigabytes from ten of them.
    static func sizeText(_ bytes: Int) -> String {
        let megabytes = bytes / (1 << 20)
        return megabytes < 10 * 1024 ? "\(megabytes) MB" : "\(megabytes / 1024) GB"
    }

    /// The folder holding the database, the photos, the backups.
    var dataDirectory: URL { URL(fileURLWithPath: app.store.database.path).deletingLastPathComponent() }

    /// The page with its forms; `problem` (an upload refused) shows above the upload form, `notice`
    /// (a new secret, or why none was made) in its section.
    func page(for request: Request, problem: String? = nil, notice: SecretNotice? = nil, status: HTTPStatus = .ok) throws -> Response {
        pendingImports.removeExpired()
        let contents = try app.store.fetch(.contents)
        let backups = Backup.importBackups(of: app.store)
        var context: [String: MustacheValue] = [
            "current": Self.countsContext(trips: contents.trips, activities: contents.activities, photos: contents.photos),
            "maxUploadBytes": .int(archiveUploadLimit),
            "maxUploadSize": .string(Self.sizeText(archiveUploadLimit)),
            "dataDirectory": .string(dataDirectory.path),
            "backups": Self.backupsContext(backups),
            "hasBackups": .bool(!backups.isEmpty),
        ]
        if let problem { context["problem"] = .string(problem) }
        context.merge(try tokensContext(notice?.section == .tokens ? notice : nil)) { $1 }
        context.merge(try feedsContext(notice?.section == .feeds ? notice : nil, request)) { $1 }
        return try app.pages.page("data", for: request, tab: nil, status: status, context)
    }

    /// Sends the whole wishlist as a zip download named by today's date: the document, as of one
    /// moment, is written first (into the data directory); the archive is packed while it is
    /// sent, nothing of it kept on disk. One at a time: a second waits for the first to finish.
    func export(_ request: Request) throws -> Response {
        let turn = try exports.claim(address: request.remoteAddress)
        let prepared = try WishlistArchive(store: app.store).prepareExport(in: dataDirectory)
        let body = try PipedBody(name: "export", holding: turn, stallTimeout: app.configuration.stallTimeout) { descriptor in
            try prepared.write(to: FileArchiveWriter(descriptor: descriptor))
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/zip")
        headers.add("Content-Disposition", "attachment; filename=\"\(Self.downloadName(on: app.store.clock.now()))\"")
        headers.add("Cache-Control", "no-store")
        return Response(status: .ok, headers: headers, body: .piped(body))
    }

    /// "wishlist-2026-05-28.zip", by this machine's calendar.
    static func downloadName(on date: Date) -> String {
        let day = Date.gregorian.dateComponents([.year, .month, .day], from: date)
        func twoDigits(_ number: Int?) -> String { number.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "01" }
        return "wishlist-\(day.year ?? 1970)-\(twoDigits(day.month))-\(twoDigits(day.day)).zip"
    }

    static func countsContext(trips: Int, activities: Int, photos: Int) -> MustacheValue {
        let counted = countsText(trips: trips, activities: activities, photos: photos)
        return ["trips": .string(counted.trips), "activities": .string(counted.activities), "photos": .string(counted.photos)]
    }

    /// "12 trips", "1 activity", "0 photos".
    static func countsText(trips: Int, activities: Int, photos: Int) -> (trips: String, activities: String, photos: String) {
        func counted(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        return (counted(trips, "trip", "trips"), counted(activities, "activity", "activities"), counted(photos, "photo", "photos"))
    }
}

/// What a form that makes a secret (an API token, a calendar feed's address) shows on its answer:
/// the secret, once, or why none was made, with the name as typed, in the form's section.
struct SecretNotice {
    enum Section { case tokens, feeds }
    enum Outcome {
        case created(name: String, secret: String)
        case problem(String, typedName: String)
    }

    let section: Section
    let outcome: Outcome
}

extension DataPage {
    /// The page after `make` made a secret for `name` (never kept by a cache: the secret is on
    /// this answer only), or with the form's problem.
    func secretAnswer(_ request: Request, section: SecretNotice.Section, name: String,
                      make: () throws -> String) throws -> Response {
        do {
            let secret = try make()
            let created = SecretNotice(section: section, outcome: .created(name: name.trimmingCharacters(in: .whitespaces), secret: secret))
            var response = try page(for: request, notice: created)
            response.headers["Cache-Control"] = "no-store"
            return response
        } catch let error as ValidationError {
            return try page(for: request, notice: SecretNotice(section: section, outcome: .problem(error.message, typedName: name)),
                            status: .unprocessableContent)
        }
    }
}
