import HTTPServer
import Persistence
import WishlistCore

/// What a browser keeps to read offline: the service worker (`Templates/service-worker.mustache`),
/// at the root so that it may keep every page, and `GET /offline/changes?after=TOKEN`, which trips'
/// pages changed since the worker last kept them (the history says which), so that it fetches
/// those again and not every page it keeps.
struct OfflineRoutes {
    let app: WishlistApp

    func register(on router: inout Router) {
        // Made anew with each version of the static files, so a new version installs a new worker.
        router.get("/service-worker.js") { _ in
            var response = Response(headers: ["Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache"])
            response.body = .bytes(try app.pages.templates.renderBytes("service-worker", .object([
                "static": .string(app.staticFiles.versionedPrefix),
                "logoutPath": .string(app.configuration.passwordOptions.logoutPath),
            ])))
            return response
        }
        router.get("/offline/changes") { request in
            let after = try request.query["after"].map { try HistoryFilter.cursor($0, name: "after") } ?? HistoryCursor(token: 0)
            return try .json(TripPageChangesJSON(try app.store.tripPageChanges(after: after)))
        }
    }
}

struct TripPageChangesJSON: Encodable {
    let token: Int64
    /// Null when every trip's page may have changed.
    let trips: [Int64]?

    init(_ changes: TripPageChanges) {
        token = changes.token
        trips = changes.trips?.sorted()
    }
}
