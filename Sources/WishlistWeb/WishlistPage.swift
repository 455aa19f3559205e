import HTTPServer
import Mustache
import WishlistCore

/// The Wishlist tab (`/`): the recently added carousel and one row per seasonal collection.
struct WishlistPage {
    let app: WishlistApp

    /// Cards shown in a collection row; the rest are one "Show all" away, so the page
    /// costs the same however many trips there are.
    static let cardsPerRow = 10
    static let carouselSize = 5

    func register(on router: inout Router) {
        router.get("/") { request in try app.pages.cached(request) { try render(request) } }
    }

    func render(_ request: Request) throws -> SharedResponse {
        let live = app.live.subscription([LiveTopicName.carousel] + TripCollection.allCases.map(LiveTopicName.collection))
        var context = try Self.carouselContext(recent: app.store.recentTrips(limit: Self.carouselSize))
        context["collections"] = .array(try TripCollection.allCases.map { collection in
            .object(try Self.rowContext(collection, store: app.store))
        })
        context["newTrip"] = .object(NewTripPage.formContext(TripForm.empty, formID: "new-trip", cancelURL: "/", maxPhotoBytes: app.configuration.maxPhotoBytes))
        return try app.pages.render("wishlist", for: request, tab: .wishlist, live: live, context)
    }

    static func carouselContext(recent: [Trip]) -> [String: MustacheValue] {
        ["hasRecent": .bool(!recent.isEmpty), "recent": .array(recent.enumerated().map { index, trip in
            guard case .object(var card) = TripViews.card(trip) else { return .null }
            card["position"] = .int(index + 1)
            card["count"] = .int(recent.count)
            return .object(card)
        })]
    }

    static func rowContext(_ collection: TripCollection, store: WishlistStore) throws -> [String: MustacheValue] {
        rowContext(collection, trips: try store.trips(in: collection, limit: cardsPerRow, offset: 0),
                   tripCount: try store.tripCount(in: collection))
    }

    static func rowContext(_ collection: TripCollection, trips: [Trip], tripCount: Int) -> [String: MustacheValue] {
        var context: [String: MustacheValue] = [
            "key": .string(collection.rawValue),
            "title": .string(collection.title),
            "trips": TripViews.cards(trips),
            "hasTrips": .bool(!trips.isEmpty),
            "tripCount": .int(tripCount),
            "hasMore": .bool(tripCount > trips.count),
        ]
        if let summary = collection.summary { context["summary"] = .string(summary) }
        return context
    }
}
