import Foundation
import Testing
@testable import WishlistCore

@Suite struct SearchTests {
    /// What search must return, computed the slow way from every name.
    private func expected(_ text: String, in test: TestStore) throws -> (trips: [String], activities: [String]) {
        let needle = text.trimmingCharacters(in: .whitespaces).folded
        let trips = try TripCollection.allCases.flatMap { try test.store.trips(in: $0, limit: 10_000) }
        let byName = { (a: String, b: String) in (a.folded, a) < (b.folded, b) }
        return (trips.map(\.name).filter { $0.folded.contains(needle) }.sorted(by: byName),
                try test.allActivities().map(\.name).filter { $0.folded.contains(needle) }.sorted(by: byName))
    }

    private func found(_ text: String, in test: TestStore) throws -> (trips: [String], activities: [String]) {
        let results = try test.store.search(text)
        #expect(!results.isRecent)
        return (results.trips.map(\.name), results.activities.map(\.activity.name))
    }

    @Test func findsSubstringsIgnoringCaseAndAccents() throws {
        let test = try TestStore()
        let tripID = try test.store.addTrip(TripDraft(name: "Café Crawl in Montréal", collection: .fallGetaways))
        try test.store.addActivity(tripID: tripID, name: "Crème brûlée at the CAFE")

        let cafe = try test.store.search("cafe")
        #expect(cafe.trips.map(\.name) == ["Café Crawl in Montréal"])
        #expect(cafe.activities.map(\.activity.name) == ["Crème brûlée at the CAFE"])
        #expect(try test.store.search("CRÈME BRULEE").activities.first?.tripName == "Café Crawl in Montréal")

        let reyes = try test.store.search("point reyes")
        #expect(reyes.trips.isEmpty)
        #expect(reyes.activities.map(\.activity.name) == ["See the elk herd at Point Reyes"])
        #expect(reyes.activities.first?.tripName == "Cali Coastal Trails")

        for text in ["hike", "THE", "lane", "montreal", "!", "ga", "G", "e ", " trail ", "zzz"] {
            #expect(try found(text, in: test) == expected(text, in: test), "search for \(text)")
        }
    }

    @Test func onlyAFewTrigramsOfTheNeedleAreAskedFor() {
        #expect(SubstringSearch.trigramQuery(for: "ca") == nil)
        #expect(SubstringSearch.trigramQuery(for: "cafe") == #""caf" AND "afe""#)
        #expect(SubstringSearch.trigramQuery(for: "museum of crepes") == #""mus" AND "eum" AND "cre""#)
        #expect(SubstringSearch.trigramQuery(for: "a b") == #""a b""#)
        #expect(SubstringSearch.trigramQuery(for: #"say "hi""#) == #""""hi" AND "hi""" AND "say""#)
    }

    @Test func anEmptySearchShowsTheThreeMostRecentTrips() throws {
        let test = try TestStore()
        let results = try test.store.search("  ")
        #expect(results.isRecent)
        #expect(results.trips.map(\.name) == ["Maui Rainforest", "Desert Off-Road", "Kona Deep Dive"])
        #expect(results.activities.isEmpty)
    }

    @Test func queryCharactersAreTakenLiterally() throws {
        let test = try TestStore()
        let tripID = try test.store.addTrip(TripDraft(name: "The \"Big\" Apple", collection: .fallGetaways))
        try test.store.addActivity(tripID: tripID, name: "100% fun (really) * OR NOT")
        #expect(try test.store.search("\"big\"").trips.map(\.id) == [tripID])
        #expect(try test.store.search("% fun (").activities.count == 1)
        #expect(try test.store.search("or not").activities.count == 1)
        #expect(try test.store.search("\"").trips.map(\.id) == [tripID])
        #expect(try test.store.search("*").activities.count == 1)
    }

    @Test func commonWordsGiveMatchesByNameFromABoundedPool() throws {
        let test = try TestStore()
        let tripID = try test.store.addTrip(TripDraft(name: "Many walks", collection: .springEscapes))
        let count = SubstringSearch.matchPool + 300
        try test.store.database.write(author: "test") { connection in
            for index in 0..<count {
                _ = try Rows.insertActivity(tripID: tripID, name: "Walk number \((index * 7919) % count)", isComplete: false,
                                            dateCreated: test.store.clock.now(), dateEdited: test.store.clock.now(), on: connection)
            }
        }
        // Fewer matches than the pool: exactly the first ones by name.
        for text in ["number 1", "number 12", "r 123", "walk number 2", "number walk", "lk number 2"] {
            let results = try found(text, in: test)
            #expect(results.activities == Array(try expected(text, in: test).activities.prefix(100)), "search for \(text)")
        }
        // More: a hundred of the first matches added, by name.
        let walks = try test.store.search("walk").activities.map(\.activity)
        let pool = try test.allActivities().filter { $0.name.hasPrefix("Walk") }.sorted { $0.id < $1.id }.prefix(SubstringSearch.matchPool)
        #expect(walks.map(\.name) == Array(pool.map(\.name).sorted { ($0.folded, $0) < ($1.folded, $1) }.prefix(100)))
        // Short needles walk the name index: exactly the first matches by name.
        #expect(try found("wa", in: test).activities == Array(try expected("wa", in: test).activities.prefix(100)))
    }
}
