import HTTPServer
import Mustache
import WishlistCore

/// The Wishlist tab (`/`): the recently added carousel and one row per seasonal collection,
/// each a live fragment.
struct WishlistPage {
    let app: WishlistApp

    static let topics: [LiveTopic] = [.carousel] + TripCollection.allCases.map(LiveTopic.collectionRow)

    /// Everything the page shows, read in one snapshot.
    struct Shown: Sendable {
        let recent: FragmentRead<CarouselFragment>
        let rows: [FragmentRead<CollectionRowFragment>]
        let newTripCollection: TripCollection
        let deletion: Deletion?
    }

    func register(on router: inout Router) {
        router.page("/") { request in try app.pages.cached(request, read: { try read(request, $0) }, draw: { try draw(request, $0) }) }
    }

    func read(_ request: Request, _ snapshot: WishlistSnapshot) throws -> Shown {
        Shown(recent: try CarouselFragment().read(in: snapshot),
              rows: try TripCollection.allCases.map { try CollectionRowFragment(collection: $0).read(in: snapshot) },
              newTripCollection: try TripForm.newTripCollection(asked: nil, in: snapshot),
              deletion: try UndoRoutes.deletion(for: request, store: app.store, in: snapshot))
    }

    func draw(_ request: Request, _ shown: Shown) throws -> SharedResponse {
        var fragments = app.pages.fragmentPlaces()
        let context: [String: MustacheValue] = [
            "carousel": try fragments.place(shown.recent),
            "collections": .array(try shown.rows.map { try fragments.place($0) }),
            "undo": UndoRoutes.notice(shown.deletion),
            "newTrip": .object(NewTripPage.formContext(TripForm(newIn: shown.newTripCollection), formID: "new-trip", cancelURL: "/",
                                                       maxPhotoBytes: app.configuration.maxPhotoBytes)),
        ]
        return try app.pages.render("wishlist", for: request, tab: .wishlist, liveTopics: Self.topics, fragments: fragments, context)
    }
}

/// The five most recently added trips, newest first.
struct CarouselFragment: Fragment {
    static let size = 5
    var topic: LiveTopic { .carousel }
    var query: WishlistQuery<[Trip]> { .recentTrips(limit: Self.size) }
    func view(_ trips: [Trip]) -> CarouselView? { CarouselView(trips: trips) }
}

struct CarouselView: FragmentView {
    static let partial = "partials/carousel"
    let trips: [Trip]
    var elementID: String { "carousel" }

    var mustacheValue: MustacheValue {
        object([
            "hasRecent": .bool(!trips.isEmpty),
            "recent": .array(trips.enumerated().map { index, trip in
                // A slide is wide: the destination and the dates share its one line.
                TripCardView(trip: trip, extra: [
                    "index": .int(index), "position": .int(index + 1), "count": .int(trips.count), "isFirst": .bool(index == 0),
                    "whereAndWhen": TripViews.whereAndWhen(trip).map(MustacheValue.string) ?? .null,
                ]).mustacheValue
            }),
        ])
    }
}

/// A collection's first cards; the rest are one "Show all" away, so the row costs the same
/// however many trips there are.
struct CollectionRowFragment: Fragment {
    static let cardLimit = 10
    let collection: TripCollection
    var topic: LiveTopic { .collectionRow(collection) }
    var query: WishlistQuery<CollectionRow> { .collectionRow(collection, limit: Self.cardLimit) }
    func view(_ row: CollectionRow) -> CollectionRowView? { CollectionRowView(row: row) }
}

struct CollectionRowView: FragmentView {
    static let partial = "partials/collection-row"
    let row: CollectionRow
    var elementID: String { "collection-\(row.collection.rawValue)" }

    var mustacheValue: MustacheValue {
        var fields: [String: MustacheValue] = [
            "key": .string(row.collection.rawValue),
            "title": .string(row.collection.title),
            "trips": .array(row.trips.map { TripCardView(trip: $0).mustacheValue }),
            "hasTrips": .bool(!row.trips.isEmpty),
            "tripCount": .int(row.tripCount),
            "hasMore": .bool(row.hasMore),
            "cardStyle": .string(CardStyle(row.collection).rawValue),
        ]
        if let summary = row.collection.summary { fields["summary"] = .string(summary) }
        return object(fields)
    }
}

/// How a collection's row draws its cards, as in the design this app mirrors: Summer Vibes wide,
/// Fall Getaways in portrait, the others square. A class name in `partials/collection-row`.
enum CardStyle: String {
    case standard, expanded, compact

    init(_ collection: TripCollection) {
        switch collection {
        case .summerVibes: self = .expanded
        case .fallGetaways: self = .compact
        case .springEscapes, .winterRetreats: self = .standard
        }
    }
}
