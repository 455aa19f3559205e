import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// The Search tab (`/search?q=`): trips and activities by name, ignoring case and accents, a
/// page of each with "Show more" links (`&trips=2` shows the first two pages of trips).
struct SearchPage {
    let app: WishlistApp

    /// Results per page of each list. Twenty fill a desktop screen twice and a phone's several
    /// times, more than anyone reads before refining the search, and keep the page small:
    /// rendering and highlighting every match made `/search?q=kyoto` large and slow (Benchmarks/README.md).
    static let pageSize = 20
    /// "Show more" goes as far as the store pages: through its pool of matches.
    static let maxPages = SearchResults.matchPool / pageSize

    func register(on router: inout Router) {
        router.get("/search") { request in try app.pages.cached(request) { try render(request) } }
    }

    func render(_ request: Request) throws -> SharedResponse {
        let query = try SearchQuery(request.query["q"])
        let shown = ShownPages(trips: request.query["trips"], activities: request.query["activities"])
        return try app.pages.render("search", for: request, tab: .search, context(query.text, shown: shown))
    }

    func context(_ query: String, shown: ShownPages) throws -> [String: MustacheValue] {
        let results = try app.store.search(query, trips: 0..<shown.trips * Self.pageSize,
                                           activities: 0..<shown.activities * Self.pageSize)
        return Self.resultsContext(results, query: query, shown: shown)
    }

    static func resultsContext(_ results: SearchResults, query: String, shown: ShownPages) -> [String: MustacheValue] {
        let highlighter = Highlighter(query: query)
        var moreTrips = shown
        moreTrips.trips += 1
        var moreActivities = shown
        moreActivities.activities += 1
        return [
            "query": .string(query),
            "isRecent": .bool(results.isRecent),
            "hasResults": .bool(!results.trips.isEmpty || !results.activities.isEmpty),
            "hasTrips": .bool(!results.trips.isEmpty),
            "hasActivities": .bool(!results.activities.isEmpty),
            "trips": .array(results.trips.enumerated().map { index, trip in
                guard case .object(var card) = TripViews.card(trip) else { return .null }
                card["position"] = .int(index + 1)
                card["highlighted"] = highlighted(trip.name, with: highlighter)
                return .object(card)
            }),
            "activities": .array(results.activities.enumerated().map { index, match in
                [
                    "position": .int(index + 1),
                    "id": .int(Int(match.activity.id)),
                    "tripID": .int(Int(match.tripID)),
                    "tripName": .string(match.tripName),
                    "isComplete": .bool(match.activity.isComplete),
                    "highlighted": highlighted(match.activity.name, with: highlighter),
                ]
            }),
            "tripPaging": paging(shown: results.trips.count, pages: shown.trips, of: results.tripTotal, noun: "trips",
                                 more: moreTrips.url(for: query, anchor: "trip-result-\(results.trips.count + 1)")),
            "activityPaging": paging(shown: results.activities.count, pages: shown.activities,
                                     of: results.activityTotal, noun: "activities",
                                     more: moreActivities.url(for: query, anchor: "activity-result-\(results.activities.count + 1)")),
        ]
    }

    /// The count beside a list's heading ("20 of 143", "20 of 200+", "20+"), its "Show more" link
    /// while more can be shown, or else a hint when matches remain that paging cannot reach.
    static func paging(shown: Int, pages: Int, of total: MatchTotal, noun: String, more url: String) -> MustacheValue {
        let totalText = "\(total.count)\(total.isAtLeast ? "+" : "")"
        var paging: [String: MustacheValue] = [
            "countText": .string(shown == total.count ? totalText : "\(shown) of \(totalText)"),
            "noun": .string(noun),
        ]
        if total.hasMore && pages < maxPages {
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
struct ShownPages: Equatable {
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

/// Splits a name into matched and unmatched runs, matching the way search does:
/// case- and accent-insensitively ("cafe" highlights "Café"). Made once per query, used for
/// every name on the page.
struct Highlighter {
    struct Segment: Equatable {
        let text: String
        let isMatch: Bool
    }

    /// The folded query as UTF-8. Matching bytes finds the same matches as matching scalars:
    /// UTF-8 is self-synchronizing.
    private let needle: [UInt8]

    init(query: String) {
        needle = Array(Self.fold(query).utf8)
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    func segments(of name: String) -> [Segment] {
        guard !needle.isEmpty else { return [Segment(text: name, isMatch: false)] }
        // An ASCII name (most names) folds by lowercasing its bytes in place: no `Character` and no
        // trip through Foundation per letter, which was half the search page's time in a profile.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = Array(name.utf8)
            let matched = Self.matches(of: needle, in: bytes.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 })
            return Self.segments(matched) { String(decoding: bytes[$0], as: UTF8.self) }
        }
        // Fold character by character, remembering which original character each folded byte came from.
        let characters = Array(name)
        var folded: [UInt8] = []
        var origin: [Int] = []
        for (index, character) in characters.enumerated() {
            let bytes = character.isASCII ? character.lowercased().utf8 : Self.fold(String(character)).utf8
            folded.append(contentsOf: bytes)
            origin.append(contentsOf: repeatElement(index, count: bytes.count))
        }
        var matched = [Bool](repeating: false, count: characters.count)
        for (position, isMatch) in Self.matches(of: needle, in: folded).enumerated() where isMatch {
            matched[origin[position]] = true
        }
        return Self.segments(matched) { String(characters[$0]) }
    }

    /// Which bytes of `haystack` fall in a (non-overlapping, leftmost) occurrence of `pattern`.
    private static func matches(of pattern: [UInt8], in haystack: [UInt8]) -> [Bool] {
        var matched = [Bool](repeating: false, count: haystack.count)
        var start = 0
        while start + pattern.count <= haystack.count {
            if haystack[start..<start + pattern.count].elementsEqual(pattern) {
                for position in start..<start + pattern.count { matched[position] = true }
                start += pattern.count
            } else {
                start += 1
            }
        }
        return matched
    }

    /// One segment per run of equally matched elements, its text cut from the name at once.
    private static func segments(_ matched: [Bool], text: (Range<Int>) -> String) -> [Segment] {
        guard !matched.isEmpty else { return [] }
        var segments: [Segment] = []
        var start = 0
        for end in 1...matched.count where end == matched.count || matched[end] != matched[start] {
            segments.append(Segment(text: text(start..<end), isMatch: matched[start]))
            start = end
        }
        return segments
    }
}
