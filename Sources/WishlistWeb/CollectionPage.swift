import HTTPServer
import Mustache
import WishlistCore

/// "Show all" for one collection (`/collections/:collection`), paged so no page grows with the data.
struct CollectionPage {
    let app: WishlistApp
    static let pageSize = 48

    func register(on router: inout Router) {
        router.get("/collections/:collection") { request in try app.pages.cached(request) { try render(request) } }
    }

    func render(_ request: Request) throws -> SharedResponse {
        guard let collection = request.parameters["collection"].flatMap(TripCollection.init(rawValue:)) else {
            throw HTTPError(.notFound, "There is no such collection. The four are Spring Escapes, Summer Vibes, Fall Getaways and Winter Retreats.")
        }
        let total = try app.store.tripCount(in: collection)
        let pageCount = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        let pageNumber = min(max(1, Int(request.query["page"] ?? "") ?? 1), pageCount)
        let trips = try app.store.trips(in: collection, limit: Self.pageSize, offset: (pageNumber - 1) * Self.pageSize)
        var context: [String: MustacheValue] = [
            "title": .string(collection.title),
            "trips": TripViews.cards(trips),
            "hasTrips": .bool(!trips.isEmpty),
            "pageText": .string("Page \(pageNumber) of \(pageCount) · \(total) trips"),
        ]
        if let summary = collection.summary { context["summary"] = .string(summary) }
        let base = "/collections/\(collection.rawValue)"
        if pageNumber > 1 { context["previousURL"] = .string("\(base)?page=\(pageNumber - 1)") }
        if pageNumber < pageCount { context["nextURL"] = .string("\(base)?page=\(pageNumber + 1)") }
        return try app.pages.render("collection", for: request, tab: .wishlist, context)
    }
}
