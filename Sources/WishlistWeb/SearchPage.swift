import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// The Search tab (`/search?q=`): trips and activities containing every word typed, ignoring
/// case and accents (`SearchTerms`), a page of each with "Show more" links (`&trips=2` shows
/// the first two pages of trips).
struct SearchPage {
    let app: WishlistApp

    /// Results per page of each list. Twenty fill a desktop screen twice and a phone's several
    /// times, more than anyone reads before refining the search, and keep the page small:
    /// rendering and highlighting every match made `/search?q=kyoto` large and slow (Benchmarks/README.md).
    static let pageSize = 20
    /// "Show more" goes as far as the store pages: through its pool of matches.
    static let maxPages = SearchResults.matchPool / pageSize

    func register(on router: inout Router) {
        router.page("/search") { request in
            let query = try SearchQuery(request.query["q"])
            let results = SearchResultsFragment(text: query.text,
                                                shown: ShownPages(trips: request.query["trips"], activities: request.query["activities"]))
            return try app.pages.cached(request, read: results.read(in:)) { found in
                var fragments = app.pages.fragmentPlaces()
                let context = ["query": MustacheValue.string(query.text), "results": try fragments.place(found)]
                return try app.pages.render("search", for: request, tab: .search, liveTopics: [results.topic], fragments: fragments, context)
            }
        }
    }
}

/// The search results: a page of trips and one of activities, each with "Show more".
struct SearchResultsFragment: Fragment {
    let text: String
    let shown: ShownPages

    var topic: LiveTopic { .searchResults(text: text, shown: shown) }
    var query: WishlistQuery<SearchResults> {
        .search(text, trips: 0..<shown.trips * SearchPage.pageSize, activities: 0..<shown.activities * SearchPage.pageSize)
    }

    func view(_ results: SearchResults) -> SearchResultsView? { SearchResultsView(results: results, text: text, shown: shown) }
}

struct SearchResultsView: FragmentView {
    static let partial = "partials/search-results"
    let results: SearchResults
    let text: String
    let shown: ShownPages
    var elementID: String { "search-results" }

    var mustacheValue: MustacheValue {
        let highlighter = Highlighter(query: text)
        var moreTrips = shown
        moreTrips.trips += 1
        var moreActivities = shown
        moreActivities.activities += 1
        return object([
            "query": .string(text),
            "isRecent": .bool(results.isRecent),
            "needsLongerWord": .bool(results.needsLongerWord),
            "didYouMean": results.didYouMean.map { suggestion in
                ["text": .string(suggestion), "url": .string("/search?q=\(ShownPages.encoded(suggestion))")]
            } ?? .null,
            "hasResults": .bool(!results.trips.isEmpty || !results.activities.isEmpty),
            "hasTrips": .bool(!results.trips.isEmpty),
            "hasActivities": .bool(!results.activities.isEmpty),
            "trips": .array(results.trips.enumerated().map { index, trip in
                var extra: [String: MustacheValue] = ["position": .int(index + 1), "highlighted": Self.highlighted(trip.name, with: highlighter)]
                // The destination is searched like the name, so its matches are marked too.
                if let destination = trip.destination { extra["highlightedDestination"] = Self.highlighted(destination.name, with: highlighter) }
                if let dates = TripViews.dateRangeText(start: trip.startDate, end: trip.endDate) { extra["dates"] = .string(dates) }
                return TripCardView(trip: trip, extra: extra).mustacheValue
            }),
            "activities": .array(results.activities.enumerated().map { index, match in
                [
                    "position": .int(index + 1),
                    "id": .int(Int(match.activity.id)),
                    "tripID": .int(Int(match.tripID)),
                    "tripName": .string(match.tripName),
                    "isComplete": .bool(match.activity.isComplete),
                    "highlighted": Self.highlighted(match.activity.name, with: highlighter),
                ]
            }),
            "tripPaging": Self.paging(shown: results.trips.count, pages: shown.trips, of: results.tripTotal, noun: "trips",
                                      more: moreTrips.url(for: text, anchor: "trip-result-\(results.trips.count + 1)")),
            "activityPaging": Self.paging(shown: results.activities.count, pages: shown.activities,
                                          of: results.activityTotal, noun: "activities",
                                          more: moreActivities.url(for: text, anchor: "activity-result-\(results.activities.count + 1)")),
        ])
    }

    /// The count beside a list's heading ("20 of 143", "20 of 200+", "20+"), its "Show more" link
    /// while more can be shown, or else a hint when matches remain that paging cannot reach.
    static func paging(shown: Int, pages: Int, of total: MatchTotal, noun: String, more url: String) -> MustacheValue {
        let totalText = "\(total.count)\(total.isAtLeast ? "+" : "")"
        var paging: [String: MustacheValue] = [
            "countText": .string(shown == total.count ? totalText : "\(shown) of \(totalText)"),
            "noun": .string(noun),
        ]
        if total.hasMore && pages < SearchPage.maxPages {
            paging["moreURL"] = .string(url)
        } else if total.hasMore || total.isAtLeast {
            paging["endNote"] = .string("These are the first \(shown) \(noun) by name. Add a word to narrow the search.")
        }
        return .object(paging)
    }

    static func highlighted(_ name: String, with highlighter: Highlighter) -> MustacheValue {
        ["segments": .array(highlighter.segments(of: name).map { segment in
            ["text": .string(segment.text), "isMatch": .bool(segment.isMatch)]
        })]
    }
}

/// How many pages of trips and of activities the search page shows, from `trips=` and
/// `activities=`. Pages add up ("trips=2" shows the first 40 trips), so a plain "Show more" link
/// keeps what was on screen and works without JavaScript. Anything that is not a page number
/// in range is clamped into it: a hand-edited URL still gets a page.
struct ShownPages: Hashable, Sendable {
    var trips: Int
    var activities: Int

    init(trips: String?, activities: String?) {
        self.trips = Self.clamped(trips)
        self.activities = Self.clamped(activities)
    }

    private static func clamped(_ text: String?) -> Int {
        min(max(1, text.flatMap { Int($0) } ?? 1), SearchPage.maxPages)
    }

    /// `/search?q=…` with the page counts other than 1, and a fragment naming the first new
    /// result so the browser scrolls to it.
    func url(for query: String, anchor: String) -> String {
        var url = "/search?q=" + Self.encoded(query)
        if trips > 1 { url += "&trips=\(trips)" }
        if activities > 1 { url += "&activities=\(activities)" }
        return url + "#" + anchor
    }

    /// Percent-encodes a query value, all but ASCII letters, digits and "-._~", with spaces as
    /// "+" so links read like what was typed.
    static func encoded(_ value: String) -> String {
        (value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "").replacingOccurrences(of: "%20", with: "+")
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz")
        .union(CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))
}

/// The search text as typed, bounded so a huge query string cannot cost anything.
struct SearchQuery {
    static let maxLength = 200
    let text: String

    init(_ raw: String?) throws {
        let text = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= Self.maxLength else {
            throw HTTPError(.badRequest, "Search for at most \(Self.maxLength) characters.")
        }
        self.text = text
    }
}

