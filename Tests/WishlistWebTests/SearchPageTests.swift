import Foundation
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// The search page's paging through a real server: a page of each list, counts, "Show more"
/// links that carry the query safely, and page numbers from hand-edited URLs.
@Suite struct SearchPageTests {
    /// What a search page shows, read from its HTML.
    struct Screen {
        let status: Int
        let html: String

        var tripCount: Int { html.components(separatedBy: "<li id=\"trip-result-").count - 1 }
        var activityCount: Int { html.components(separatedBy: "<li id=\"activity-result-").count - 1 }
        var counts: [String] { Self.captures(#"<p class="result-count">([^<]*)</p>"#, in: html) }
        /// The "Show more" targets, as a browser reads them out of the attribute.
        var moreLinks: [String] {
            Self.captures(#"class="button secondary show-more" href="([^"]*)""#, in: html).map(Self.unescaped)
        }
        var fieldValue: String? {
            Self.captures(#"id="search-field" type="search" name="q" value="([^"]*)""#, in: html).first.map(Self.unescaped)
        }

        static func captures(_ pattern: String, in text: String) -> [String] {
            let expression = try! NSRegularExpression(pattern: pattern)
            return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                String(text[Range(match.range(at: 1), in: text)!])
            }
        }

        static func unescaped(_ attribute: String) -> String {
            [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]
                .reduce(attribute) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        }
    }

    /// The seeded app plus 45 trips called "Blue Atoll N" and 25 activities "Swim the atoll N".
    static func serverWithAtolls() throws -> AppHarness {
        let server = try AppHarness()
        for number in 1...45 {
            try server.store.addTrip(TripDraft(name: "Blue Atoll \(number)", collection: .summerVibes))
        }
        let tripID = try server.store.addTrip(TripDraft(name: "Reef days", collection: .summerVibes))
        for number in 1...25 { try server.store.addActivity(tripID: tripID, name: "Swim the atoll \(number)") }
        return server
    }

    /// GET `target` the way a browser follows a link: the fragment stays behind.
    static func screen(_ target: String, _ server: AppHarness) throws -> Screen {
        let reply = try server.client.get(String(target.prefix { $0 != "#" }))
        return Screen(status: reply.status, html: reply.text)
    }

    @Test func aNearMissLinksToTheSpellingThatFindsSomething() throws {
        let harness = try AppHarness()
        let page = try harness.client.get("/search?q=kyotto+tempels").text
        #expect(page.contains(#"<p class="did-you-mean">Did you mean <a href="/search?q=kyoto+temples">kyoto temples</a>?</p>"#))
        #expect(!(try harness.client.get("/search?q=qqqzzzx").text.contains("Did you mean")))
    }

    @Test func showsAPageOfEachWithCountsAndLinksForMore() throws {
        let server = try Self.serverWithAtolls()
        defer { server.stop() }
        let first = try Self.screen("/search?q=atoll", server)
        #expect(first.status == 200)
        #expect((first.tripCount, first.activityCount) == (SearchPage.pageSize, SearchPage.pageSize))
        #expect(first.counts == ["20 of 45", "20 of 25"])
        #expect(first.moreLinks == ["/search?q=atoll&trips=2#trip-result-21", "/search?q=atoll&activities=2#activity-result-21"])
        #expect(first.html.contains(">Show more trips</a>") && first.html.contains(">Show more activities</a>"))

        // Each list grows on its own and the other keeps its length.
        let moreTrips = try Self.screen(first.moreLinks[0], server)
        #expect((moreTrips.tripCount, moreTrips.activityCount) == (40, 20))
        #expect(moreTrips.html.contains("<li id=\"trip-result-21\">"))
        #expect(moreTrips.moreLinks == ["/search?q=atoll&trips=3#trip-result-41",
                                        "/search?q=atoll&trips=2&activities=2#activity-result-21"])
        let everything = try Self.screen(moreTrips.moreLinks[1], server)
        #expect((everything.tripCount, everything.activityCount) == (40, 25))
        #expect(everything.counts == ["40 of 45", "25"])
        let allTrips = try Self.screen(everything.moreLinks[0], server)
        #expect((allTrips.tripCount, allTrips.activityCount) == (45, 25))
        #expect(allTrips.counts == ["45", "25"] && allTrips.moreLinks.isEmpty)
    }

    @Test func twoLetterSearchesAreCountedUpToThePoolAndPagingStopsAtTheLastPage() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let count = SearchPage.pageSize * SearchPage.maxPages + 5
        let tripID = try server.store.addTrip(TripDraft(name: "Reef days", collection: .summerVibes))
        try server.store.database.write(author: "test") { connection in
            for number in 1...count {
                _ = try Rows.insertActivity(tripID: tripID, name: "Qi dive \(number)", isComplete: false,
                                            dateCreated: server.store.clock.now(), dateEdited: server.store.clock.now(), on: connection)
            }
        }
        let first = try Self.screen("/search?q=QI", server)
        #expect(first.counts == ["20 of \(SearchResults.matchPool)+"] && first.moreLinks == ["/search?q=QI&activities=2#activity-result-21"])
        let last = try Self.screen("/search?q=qi&activities=\(SearchPage.maxPages)", server)
        #expect(last.activityCount == SearchPage.pageSize * SearchPage.maxPages)
        #expect(last.moreLinks.isEmpty)
        #expect(last.html.contains("These are the first \(SearchPage.pageSize * SearchPage.maxPages) activities by name. Add a word to narrow the search."))
        // Two words count the same way.
        let counted = try Self.screen("/search?q=qi+dive&activities=\(SearchPage.maxPages)", server)
        #expect(counted.counts == ["\(SearchResults.matchPool)+"])
        #expect(counted.moreLinks.isEmpty && counted.html.contains("These are the first"))
    }

    @Test func badPageNumbersAreClampedIntoRange() throws {
        let server = try Self.serverWithAtolls()
        defer { server.stop() }
        for page in ["abc", "-1", "0", "", "1.5", "99999999999999999999999", "1000"] {
            let screen = try Self.screen("/search?q=atoll&trips=\(page)&activities=\(page)", server)
            #expect(screen.status == 200, "trips=\(page)")
            let expected = page == "1000" ? (45, 25) : (20, 20)
            #expect((screen.tripCount, screen.activityCount) == expected, "trips=\(page)")
        }
        let furthest = try Self.screen("/search?q=atoll&trips=\(SearchPage.maxPages + 5)", server)
        #expect(furthest.tripCount == 45)
    }

    @Test func theQueryInTheLinksRoundTripsWithoutBreakingTheAttribute() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let name = #"Tom & Jérôme's "Cove" <#1+1=2%>"#
        for number in 1...21 { try server.store.addTrip(TripDraft(name: "\(name) \(number)", collection: .fallGetaways)) }
        let query = #"jerome's "cove" <#1+1=2%>"#
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let first = try Self.screen("/search?q=\(encoded)", server)
        #expect(first.tripCount == 20 && first.fieldValue == query)
        let link = try #require(first.moreLinks.first)
        #expect(!link.contains(where: { " \"'<>".contains($0) }))
        #expect(link.hasPrefix("/search?q=jerome%27s+%22cove%22+%3C%231%2B1%3D2%25%3E&trips=2#"))
        let second = try Self.screen(link, server)
        #expect(second.fieldValue == query)
        #expect(second.tripCount == 21)
    }

    @Test func theAPIPagesWithOffsetsAndLimitsAndKeepsItsShape() throws {
        let server = try Self.serverWithAtolls()
        defer { server.stop() }
        func json(_ query: String) throws -> [String: Any] { try server.client.get("/api/search?\(query)").json() }
        func total(_ object: Any?) -> [String: Bool?] {
            let total = object as? [String: Any] ?? [:]
            return ["hasMore": total["hasMore"] as? Bool, "isAtLeast": total["isAtLeast"] as? Bool]
        }
        let whole = try json("q=atoll")
        #expect(whole["query"] as? String == "atoll")
        #expect((whole["trips"] as? [Any])?.count == 45 && (whole["activities"] as? [Any])?.count == 25)
        #expect((whole["tripTotal"] as? [String: Any])?["count"] as? Int == 45)
        #expect(total(whole["tripTotal"]) == ["hasMore": false, "isAtLeast": false])

        let page = try json("q=atoll&tripOffset=40&tripLimit=20&activityLimit=10")
        let names = (page["trips"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Blue Atoll 5", "Blue Atoll 6", "Blue Atoll 7", "Blue Atoll 8", "Blue Atoll 9"])
        #expect((page["activities"] as? [Any])?.count == 10)
        #expect(total(page["activityTotal"]) == ["hasMore": true, "isAtLeast": false])

        for bad in ["tripLimit=abc", "tripLimit=501", "activityOffset=-1"] {
            let reply = try server.client.get("/api/search?q=atoll&\(bad)")
            #expect(reply.status == 400 && reply.text.contains("must be a whole number"), "\(bad)")
        }
    }

    @Test func everyWordIsFoundAndMarkedAndSingleLettersAskForMore() throws {
        let server = try AppHarness()
        defer { server.stop() }
        try server.store.addTrip(TripDraft(name: "Café Crawl in Zürich", collection: .winterRetreats))
        let found = try Self.screen("/search?q=zurich+cafe", server)
        #expect(found.tripCount == 1 && found.activityCount == 0)
        #expect(found.html.contains("<mark>Café</mark> Crawl in <mark>Zürich</mark>"))
        let kona = try Self.screen("/search?q=kona+snorkel", server)
        #expect((kona.tripCount, kona.activityCount) == (0, 2))

        let letters = try Self.screen("/search?q=a+b", server)
        #expect(letters.status == 200 && letters.html.contains("Type a word of two letters or more"))
        #expect(!letters.html.contains("No results for"))
        let json: [String: Any] = try server.client.get("/api/search?q=a").json()
        #expect(json["needsLongerWord"] as? Bool == true && (json["trips"] as? [Any])?.isEmpty == true)
        let words: [String: Any] = try server.client.get("/api/search?q=cafe+zurich").json()
        #expect(words["needsLongerWord"] as? Bool == false && (words["trips"] as? [Any])?.count == 1)
    }
}
