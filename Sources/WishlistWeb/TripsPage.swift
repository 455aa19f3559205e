import HTTPServer
import Mustache
import Persistence
import WishlistCore

/// The Trips tab (`/trips`): every trip by start date, or with `?group=destination` one section
/// per destination. Which view is part of the URL, so it is bookmarkable and Back returns to it.
/// Both are paged, so the page costs the same however many trips there are.
struct TripsPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.page("/trips") { request in
            if request.query["group"] == "destination" {
                return try page(request, TripsByDestinationFragment(after: request.query["after"].flatMap { $0.isEmpty ? nil : $0 }),
                                groupedByDestination: true)
            }
            return try page(request, TripsByDateFragment(pageNumber: Int(request.query["page"] ?? "") ?? 1), groupedByDestination: false)
        }
    }

    private func page(_ request: Request, _ list: some Fragment, groupedByDestination: Bool) throws -> Response {
        try app.pages.cached(request, read: list.read(in:)) { shown in
            var fragments = app.pages.fragmentPlaces()
            let context = ["list": try fragments.place(shown), "groupedByDestination": .bool(groupedByDestination)]
            return try app.pages.render("trips", for: request, tab: .trips, liveTopics: [list.topic], fragments: fragments, context)
        }
    }

    static let elementID = "trips-list"
}

/// One page of every trip by start date.
struct TripsByDateFragment: Fragment {
    static let pageSize = 48
    let pageNumber: Int
    var topic: LiveTopic { .tripsByDate(pageNumber: pageNumber) }
    var query: WishlistQuery<TripListing> { .tripsByStartDate(pageNumber: pageNumber, pageSize: Self.pageSize) }
    func view(_ listing: TripListing) -> TripsByDateView? { TripsByDateView(listing: listing) }
}

struct TripsByDateView: FragmentView {
    static let partial = "partials/trips-by-date"
    let listing: TripListing
    var elementID: String { TripsPage.elementID }

    var mustacheValue: MustacheValue {
        object(TripViews.pagedCards(listing.trips, pageNumber: listing.pageNumber, pageCount: listing.pageCount,
                                    tripCount: listing.tripCount, url: "/trips?page="))
    }
}

/// A page of destinations, each with its first trips and its count.
struct TripsByDestinationFragment: Fragment {
    static let sectionLimit = 20
    static let tripsPerSection = 10
    /// The last destination of the previous page; nil for the first.
    let after: String?

    var topic: LiveTopic { .tripsByDestination(after: after) }
    var query: WishlistQuery<SectionPage<Trip>> {
        .tripsByDestination(after: after, sectionLimit: Self.sectionLimit, tripsPerSection: Self.tripsPerSection)
    }

    func view(_ page: SectionPage<Trip>) -> TripsByDestinationView? { TripsByDestinationView(page: page, isFirstPage: after == nil) }
}

struct TripsByDestinationView: FragmentView {
    static let partial = "partials/trips-by-destination"
    let page: SectionPage<Trip>
    let isFirstPage: Bool
    var elementID: String { TripsPage.elementID }

    var mustacheValue: MustacheValue {
        var fields: [String: MustacheValue] = [
            "sections": .array(page.sections.enumerated().map { index, section in
                let name = if case .text(let name) = section.key { name } else { "No destination" }
                var fields: [String: MustacheValue] = [
                    "headingID": .string("destination-\(index + 1)"),
                    "name": .string(name),
                    "countText": .string(section.count == 1 ? "1 trip" : "\(section.count) trips"),
                    "trips": .array(section.records.map { TripCardView(trip: $0, showsDestination: false).mustacheValue }),
                ]
                // The rest of a big section: its destination's trips in search.
                if section.hasMore, case .text(let name) = section.key {
                    fields["showAllURL"] = .string("/search?q=\(ShownPages.encoded(name))")
                }
                return .object(fields)
            }),
            "hasSections": .bool(!page.sections.isEmpty),
        ]
        if !isFirstPage { fields["firstURL"] = .string("/trips?group=destination") }
        if page.hasMore, case .text(let last) = page.sections.last?.key {
            fields["nextURL"] = .string("/trips?group=destination&after=\(ShownPages.encoded(last))")
        }
        return object(fields)
    }
}
