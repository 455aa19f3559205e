import Foundation
import Testing
@testable import WishlistCore

/// Search pages: consecutive pages add up to exactly the matches in name order, and the count
/// and "has more" flag say what is left.
@Suite struct SearchPagingTests {
    /// A trip with `names` as activities, added in a scrambled order with repeated names, so the
    /// order by name alone is not the order of addition and only the id breaks ties.
    private func store(activityNames names: [String]) throws -> TestStore {
        let test = try TestStore()
        try test.deleteAllTrips()
        let tripID = try test.store.addTrip(TripDraft(name: "Paging", collection: .springEscapes))
        try test.store.database.write(author: "test") { connection in
            for index in names.indices {
                _ = try Rows.insertActivity(tripID: tripID, name: names[(index * 37) % names.count], isComplete: false,
                                            dateCreated: test.store.clock.now(), dateEdited: test.store.clock.now(), on: connection)
            }
        }
        return test
    }

    /// Every page of `size` for `text`, in order, until one says nothing follows.
    private func pages(_ text: String, size: Int, in test: TestStore) throws -> [SearchResults] {
        var pages: [SearchResults] = []
        repeat {
            let start = pages.count * size
            pages.append(try test.store.search(text, trips: start..<start + size, activities: start..<start + size))
        } while pages.last!.activityTotal.hasMore && pages.count < 100
        return pages
    }

    /// The matching activities the slow way: every one, by folded name, name, then id.
    private func expected(_ text: String, in test: TestStore) throws -> [Int64] {
        try test.allActivities().filter { $0.name.folded.contains(text.folded) }
            .sorted { ($0.name.folded, $0.name, $0.id) < ($1.name.folded, $1.name, $1.id) }.map(\.id)
    }

    @Test(arguments: ["walk", "wa"]) // a trigram search and a two-letter one (the trigrams starting with it)
    func pagesAddUpToEveryMatchInNameOrder(text: String) throws {
        // 120 matches (with repeated and accented names) and a few that don't match.
        let names = (0..<120).map { "\($0 % 3 == 0 ? "Wälk" : "Walk") to spot \($0 % 45)" } + ["Swim", "Hike", "Row"]
        let test = try store(activityNames: names)
        let all = try expected(text, in: test)
        #expect(all.count == 120)

        let pages = try pages(text, size: 20, in: test)
        #expect(pages.count == 6) // 120 fill six pages exactly: the sixth must not claim a seventh
        #expect(pages.flatMap { $0.activities.map(\.activity.id) } == all)
        #expect(pages.map(\.activityTotal.hasMore) == [true, true, true, true, true, false])
        #expect(pages.allSatisfy { $0.activityTotal.count == 120 && !$0.activityTotal.isAtLeast })

        let past = try test.store.search(text, activities: 120..<140)
        #expect(past.activities.isEmpty)
        #expect(past.activityTotal == MatchTotal(count: 120, isAtLeast: false, hasMore: false))
        let straddling = try test.store.search(text, activities: 110..<130)
        #expect(straddling.activities.map(\.activity.id) == Array(all[110...]))
        #expect(!straddling.activityTotal.hasMore)
    }

    @Test func tripsArePagedTheSameWay() throws {
        let test = try TestStore()
        try test.deleteAllTrips()
        for index in 0..<25 {
            try test.store.addTrip(TripDraft(name: "Lagoon \((index * 7) % 25)", collection: .summerVibes))
        }
        let first = try test.store.search("lagoon", trips: 0..<10)
        let rest = try test.store.search("lagoon", trips: 10..<30)
        #expect(first.tripTotal == MatchTotal(count: 25, isAtLeast: false, hasMore: true))
        #expect(rest.tripTotal == MatchTotal(count: 25, isAtLeast: false, hasMore: false))
        let names = (first.trips + rest.trips).map(\.name)
        #expect(names == (0..<25).map { "Lagoon \($0)" }.sorted())
    }

    @Test(arguments: ["walk", "wa", "number walk"]) // no needle walks a whole index: each stops at the pool
    func countingStopsAtThePoolAndPagingEndsThere(text: String) throws {
        let pool = SearchResults.matchPool
        let test = try store(activityNames: (0..<(pool + 80)).map { "Walk number \($0)" })
        let first = try test.store.search(text, activities: 0..<20)
        #expect(first.activityTotal == MatchTotal(count: pool, isAtLeast: true, hasMore: true))
        let pages = try pages(text, size: 100, in: test)
        let ids = pages.flatMap { $0.activities.map(\.activity.id) }
        #expect(ids.count == pool && Set(ids).count == pool)
        #expect(pages.last?.activityTotal == MatchTotal(count: pool, isAtLeast: true, hasMore: false))
        #expect(try test.store.search(text, activities: pool..<pool + 20).activityTotal
                == MatchTotal(count: pool, isAtLeast: true, hasMore: false))
    }

    @Test func anEmptySearchCountsTheRecentTrips() throws {
        let results = try TestStore().store.search("")
        #expect(results.tripTotal == MatchTotal(count: 3, isAtLeast: false, hasMore: false))
        #expect(results.activityTotal == MatchTotal(count: 0, isAtLeast: false, hasMore: false))
    }
}
