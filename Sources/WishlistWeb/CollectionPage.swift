import HTTPServer
import Mustache
import WishlistCore

/// "Show all" for one collection (`/collections/:collection`), paged so no page grows with the data.
struct CollectionPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.page("/collections/:collection") { request in
            guard let collection = request.parameters["collection"].flatMap(TripCollection.init(rawValue:)) else {
                throw HTTPError(.notFound, "There is no such collection. The four are Spring Escapes, Summer Vibes, Fall Getaways and Winter Retreats.")
            }
            let listing = CollectionListingFragment(collection: collection, pageNumber: Int(request.query["page"] ?? "") ?? 1)
            return try app.pages.cached(request, read: listing.read(in:)) { shown in
                var fragments = app.pages.fragmentPlaces()
                var context: [String: MustacheValue] = ["title": .string(collection.title), "listing": try fragments.place(shown)]
                if let summary = collection.summary { context["summary"] = .string(summary) }
                return try app.pages.render("collection", for: request, tab: .wishlist, liveTopics: [listing.topic], fragments: fragments, context)
            }
        }
    }
}

/// One page of a collection's cards with the pager.
struct CollectionListingFragment: Fragment {
    static let pageSize = 48
    let collection: TripCollection
    let pageNumber: Int

    var topic: LiveTopic { .collectionListing(collection, pageNumber: pageNumber) }
    var query: WishlistQuery<CollectionListing> {
        .collectionListing(collection, pageNumber: pageNumber, pageSize: Self.pageSize)
    }

    func view(_ listing: CollectionListing) -> CollectionListingView? { CollectionListingView(listing: listing) }
}

struct CollectionListingView: FragmentView {
    static let partial = "partials/collection-listing"
    let listing: CollectionListing
    var elementID: String { "collection-listing" }

    var mustacheValue: MustacheValue {
        object(TripViews.pagedCards(listing.trips, pageNumber: listing.pageNumber, pageCount: listing.pageCount,
                                    tripCount: listing.tripCount, url: "/collections/\(listing.collection.rawValue)?page="))
    }
}
