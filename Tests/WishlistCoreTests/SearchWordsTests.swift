import Foundation
import Testing
@testable import WishlistCore

/// A query's words are each found somewhere, in any order; a quoted phrase stays together.
@Suite struct SearchWordsTests {
    /// The seed plus "Café Crawl in Zürich" and a trip whose name ends in a two-letter word.
    private func store() throws -> (test: TestStore, zurich: Int64) {
        let test = try TestStore()
        let zurich = try test.store.addTrip(TripDraft(name: "Café Crawl in Zürich", collection: .winterRetreats))
        try test.store.addActivity(tripID: zurich, name: "Fondue at the old town")
        try test.store.addActivity(tripID: zurich, name: "Crawl the cafés on the lake")
        let qi = try test.store.addTrip(TripDraft(name: "Tai Qi", collection: .springEscapes))
        try test.store.addActivity(tripID: qi, name: "Qi")
        return (test, zurich)
    }

    @Test func everyWordInAnyOrderFindsTheTripAndNothingElse() throws {
        let (test, zurich) = try store()
        for text in ["cafe zurich", "zurich cafe", "CAFÉ ZÜRICH", "zur caf", "\"crawl in\"", "crawl  in   zurich"] {
            let results = try test.store.search(text)
            #expect(results.trips.map(\.id) == [zurich], "search for \(text)")
        }
        #expect(try test.store.search("cafe zurich").activities.map(\.activity.name) == ["Crawl the cafés on the lake"])
        #expect(try test.store.search("cafe lisbon").trips.isEmpty)
    }

    @Test func aQuotedPhraseDoesNotMatchItsWordsApart() throws {
        let (test, zurich) = try store()
        #expect(try test.store.search("crawl zurich").trips.map(\.id) == [zurich])
        #expect(try test.store.search("\"crawl zurich\"").trips.isEmpty)
        #expect(try test.store.search("“in crawl”").trips.isEmpty) // curly quotes, as phones type them
        #expect(try test.store.search("\"crawl   IN\" zürich").trips.map(\.id) == [zurich])
    }

    @Test func activitiesMatchWithWordsSplitBetweenThemAndTheirTrip() throws {
        let (test, zurich) = try store()
        let kona = try test.store.search("kona snorkel")
        #expect(kona.trips.isEmpty)
        #expect(kona.activities.map(\.activity.name) == ["Night snorkel with manta rays", "Snorkel through the lava tubes"])
        #expect(kona.activities.allSatisfy { $0.tripName == "Kona Deep Dive" })
        #expect(kona.activityTotal == MatchTotal(count: 2, isAtLeast: false, hasMore: false))
        // Words only in the trip's name find the trip, not each of its activities.
        #expect(try test.store.search("kona deep").activities.isEmpty)
        // Every word in the activity's own name ranks before words split with the trip's.
        let crawl = try test.store.search("crawl cafe")
        #expect(crawl.trips.map(\.id) == [zurich])
        #expect(crawl.activities.map(\.activity.name) == ["Crawl the cafés on the lake"])
        let lake = try test.store.search("the zurich")
        #expect(lake.activities.map(\.activity.name) == ["Crawl the cafés on the lake", "Fondue at the old town"])
        let ranked = try test.store.search("crawl the")
        #expect(ranked.activities.first?.activity.name == "Crawl the cafés on the lake")
        #expect(ranked.activities.map(\.activity.name).contains("Fondue at the old town"))
    }

    /// The index of activities beside their trips' names follows every write, and deleting a
    /// trip removes each of its activities' entries exactly once: the index ends up term for term
    /// what a rebuild makes.
    @Test func wordsSplitWithTheTripFollowRenamesAndDeletions() throws {
        let (test, zurich) = try store()
        let names = { (text: String) in try test.store.search(text).activities.map(\.activity.name) }
        try test.store.updateTrip(id: zurich, draft: TripDraft(name: "Café Crawl in Basel", collection: .winterRetreats))
        #expect(try names("basel fondue") == ["Fondue at the old town"])
        #expect(try names("zurich fondue").isEmpty)
        let fondue = try #require(try test.store.search("basel fondue").activities.first).activity.id
        try test.store.renameActivity(id: fondue, name: "Raclette at the old town")
        #expect(try names("basel raclette") == ["Raclette at the old town"] && names("basel fondue").isEmpty)
        try test.store.deleteActivity(id: fondue)
        #expect(try names("basel raclette").isEmpty)
        try test.store.deleteTrip(id: zurich)
        #expect(try names("basel lake").isEmpty)

        let terms = { () throws -> [String] in
            try test.store.database.write(author: "test") { connection in
                try connection.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.Terms USING fts5vocab(main, ActivityAndTripSearch, row)")
                return try connection.fetchAll("SELECT term, doc FROM temp.Terms ORDER BY term").map { "\($0["term"] as String) \($0["doc"] as Int)" }
            }
        }
        let kept = try terms()
        try test.store.database.write(author: "test") { connection in
            try connection.execute("INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch) VALUES ('delete-all')")
            try connection.execute(Schema.activityAndTripIndexing)
        }
        #expect(try terms() == kept)
        #expect(try names("kona snorkel").count == 2)
    }

    @Test func twoLetterWordsAreFoundWhereverTheyStand() throws {
        let (test, _) = try store()
        // "qi" ends one name and is all of another: no trigram of either starts with it.
        let qi = try test.store.search("QI")
        #expect(qi.trips.map(\.name) == ["Tai Qi"])
        #expect(qi.activities.map(\.activity.name) == ["Qi"])
        #expect(try test.store.search("ta qi").trips.map(\.name) == ["Tai Qi"])
        // Also in destinations: Dubai, Hawaii.
        #expect(try test.store.search("ai").trips.map(\.name)
                == ["Cali Coastal Trails", "Desert Off-Road", "Kona Deep Dive", "Maui Rainforest", "Tai Qi"])
        #expect(try test.store.search("zq").trips.isEmpty)
    }

    @Test func onlySingleLettersAskForALongerWord() throws {
        let (test, zurich) = try store()
        for text in ["a", "a b", "Z", "!"] {
            let results = try test.store.search(text)
            #expect(results.needsLongerWord && results.trips.isEmpty && results.activities.isEmpty, "search for \(text)")
            #expect(!results.isRecent)
        }
        // Beside a longer word, a letter narrows like any word.
        #expect(try test.store.search("zurich z").trips.map(\.id) == [zurich])
        #expect(try test.store.search("zurich k").trips.isEmpty)
        #expect(try !test.store.search("cafe").needsLongerWord)
    }

    @Test func termsSplitAtWhitespaceAndKeepQuotedPhrases() {
        #expect(SearchTerms("  Café   ZÜRICH ").words == ["cafe", "zurich"])
        #expect(SearchTerms(#"night "Night  Market" night"#).words == ["night", "night market"])
        #expect(SearchTerms(#"say "hi"#).words == ["say", #""hi"#])
        #expect(SearchTerms(#""" x"#).words == ["x"])
        #expect(SearchTerms("").words.isEmpty)
    }
}
