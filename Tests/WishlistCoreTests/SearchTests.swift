import Foundation
import Testing
@testable import Persistence
@testable import WishlistCore

@Suite struct SearchTests {
    /// What search must return, computed the slow way from every name: trips with every word in
    /// their name, activities with every word in their name or their trip's and one at least in
    /// theirs; those with every word in their own name first, then by name.
    private func expected(_ text: String, in test: TestStore) throws -> (trips: [String], activities: [String]) {
        let words = SearchTerms(text).words
        let trips = try TripCollection.allCases.flatMap { try test.store.trips(in: $0, limit: 10_000) }
        // A trip's words are in its name, destination, subtitle or collection (a word in none is no match).
        let tripTexts = Dictionary(uniqueKeysWithValues: trips.map { trip in
            (trip.id, [trip.name, trip.destination?.name ?? "", trip.subtitle ?? "", trip.collection.title].map(\.folded))
        })
        let inTrip = { (id: Int64, word: String) in tripTexts[id]!.contains { $0.contains(word) } }
        let byName = { (a: String, b: String) in (a.folded, a) < (b.folded, b) }
        let activities = try test.allActivities().compactMap { activity -> (rank: Int, name: String)? in
            let own = activity.name.folded
            guard words.allSatisfy({ own.contains($0) || inTrip(activity.tripID, $0) }), words.contains(where: own.contains) else { return nil }
            return (words.allSatisfy(own.contains) ? 0 : 1, activity.name)
        }
        return (trips.filter { trip in words.allSatisfy { inTrip(trip.id, $0) } }.map(\.name).sorted(by: byName),
                activities.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : byName($0.name, $1.name) }.map(\.name))
    }

    private func found(_ text: String, in test: TestStore) throws -> (trips: [String], activities: [String]) {
        let results = try test.store.search(text)
        #expect(!results.isRecent)
        return (results.trips.map(\.name), results.activities.map(\.activity.name))
    }

    /// Which names match is kept across commits that change no name (a check-off); the rows
    /// shown are read fresh, and a changed name is found again.
    @Test func matchesAreKeptAcrossACheckOffAndSoughtAgainAfterARename() throws {
        let test = try TestStore()
        let store = test.store
        let tripID = try store.addTrip(TripDraft(name: "Glacier Walk", collection: .winterRetreats))
        let activityID = try store.addActivity(tripID: tripID, name: "Glacier lunch")
        #expect(try store.search("glacier").activities.map(\.activity.isComplete) == [false])
        let searched = store.database.keptRows.queriesRun.load(ordering: .relaxed)

        try store.setActivityComplete(id: activityID, true)
        let afterCheckOff = try store.search("glacier")
        #expect(afterCheckOff.activities.map(\.activity.isComplete) == [true])
        #expect(afterCheckOff.trips.map(\.completedActivityCount) == [1])
        #expect(store.database.keptRows.queriesRun.load(ordering: .relaxed) == searched)

        try store.renameActivity(id: activityID, name: "Fjord lunch")
        #expect(try store.search("glacier").activities.isEmpty)
        try store.updateTrip(id: tripID, draft: TripDraft(name: "Fjord Walk", collection: .winterRetreats))
        #expect(try store.search("glacier").trips.isEmpty)
        #expect(try store.search("fjord").trips.map(\.name) == ["Fjord Walk"])
        #expect(try store.search("fjord").activities.map(\.activity.name) == ["Fjord lunch"])
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

        for text in ["hike", "THE", "lane", "montreal", "ga", " trail ", "zzz", "the ga", "a the", "tr ra"] {
            #expect(try found(text, in: test) == expected(text, in: test), "search for \(text)")
        }
    }

    @Test func destinationsAreSearchedLikeNamesWithEveryWordSomewhere() throws {
        let test = try TestStore()
        #expect(try found("kyoto", in: test).trips == ["Japan Mystique"])
        #expect(try found("santa cruz surf", in: test).trips == ["Surf Steamer Lane"])
        #expect(try found("SAN JOSE", in: test).trips == ["Into the Green"])
        #expect(try found("tromso", in: test).trips == ["Hunting Auroras"])
        // The destination counts for its trip's activities too, like the trip's name.
        #expect(try found("kyoto temples", in: test).activities == ["Visit the hillside wooden temples"])
        // No word matches across the name's end and the destination's start.
        #expect(try found("lanesanta", in: test).trips.isEmpty)

        let id = try test.store.addTrip(TripDraft(name: "Weekend", collection: .fallGetaways, destination: TripDestination(name: "Zürich")))
        #expect(try found("zurich", in: test).trips == ["Weekend"])
        try test.store.updateTrip(id: id, draft: TripDraft(name: "Weekend", collection: .fallGetaways))
        #expect(try found("zurich", in: test).trips.isEmpty)
        for text in ["santa cruz", "hawaii", "japan mystique", "ca"] {
            #expect(try found(text, in: test) == expected(text, in: test), "\(text)")
        }
    }

    @Test func strokedLettersFoldLikeAccentsAlsoInNamesStoredBeforeTheMigration() throws {
        #expect("Tromsø, ŁÓDŹ, Đà Nẵng".folded == "tromso, lodz, da nang")
        let directory = try TemporaryDirectory()
        // A wishlist of version 4, whose fold kept stroked letters.
        let old = try Database(path: directory.databasePath, migrations: Array(Schema.migrations.prefix(4)))
        try old.write(author: "test") { connection in
            try connection.execute("""
                INSERT INTO Trip (id, name, name_folded, collection, creation_date) VALUES (1, 'Tromsø Lights', 'tromsø lights', 'winterRetreats', 0);
                INSERT INTO Activity (trip_id, name, name_folded, date_created, date_edited) VALUES (1, 'Łódź trams', 'łodz trams', 0, 0);
                """)
        }
        old.close()
        let store = try WishlistStore(path: directory.databasePath)
        #expect(try store.search("tromso").trips.map(\.name).contains("Tromsø Lights"))
        #expect(try store.search("lodz").activities.map(\.activity.name) == ["Łódź trams"])
        #expect(try store.search("tromsø lodz").activities.map(\.activity.name) == ["Łódź trams"])
    }

    @Test func onlyAFewTrigramsOfTheNeedleAreAskedFor() {
        #expect(NameIndex.trigramQuery(for: ["ca"]) == nil)
        #expect(NameIndex.trigramQuery(for: ["cafe"]) == #""caf" AND "afe""#)
        #expect(NameIndex.trigramQuery(for: ["museum", "of", "crepes"]) == #""mus" AND "eum" AND "cre""#)
        // One trigram per word once three words have them: those of one word come together.
        #expect(NameIndex.trigramQuery(for: ["swim", "the", "glacier", "in", "bled"]) == #""gla" AND "swi" AND "ble""#)
        #expect(NameIndex.trigramQuery(for: ["a b"]) == #""a b""#)
        #expect(NameIndex.trigramQuery(for: ["say", #""hi""#]) == #""""hi" AND "hi""" AND "say""#)
    }

    /// A word of a trip's subtitle or of its collection's name finds it, also in a wishlist
    /// written before search read them (migration 10).
    @Test func subtitlesAndCollectionsAreSearchedAlsoForTripsStoredBefore() throws {
        let directory = try TemporaryDirectory()
        let old = try Database(path: directory.databasePath, migrations: Array(Schema.migrations.prefix(9)))
        try old.write(author: "test") { connection in
            try connection.execute("""
                INSERT INTO Trip (name, name_folded, subtitle, collection, creation_date)
                VALUES ('Lofoten', 'lofoten', 'Sea kayaking under the midnight sun', 'summerVibes', 0);
                """)
        }
        old.close()
        let store = try WishlistStore(path: directory.databasePath)
        #expect(try store.search("kayak").trips.map(\.name) == ["Lofoten"])
        #expect(try store.search("midnight lofoten").trips.map(\.name) == ["Lofoten"])
        let summer = try store.search("summer vibes").trips.map(\.name)
        let summerCount = try store.tripCount(in: .summerVibes)
        #expect(summer.contains("Lofoten") && summer.count == summerCount)

        let id = try store.addTrip(TripDraft(name: "Tromsø", subtitle: "Aurora nights", collection: .winterRetreats))
        #expect(try store.search("aurora").trips.map(\.id) == [id])
        try store.updateTrip(id: id, draft: TripDraft(name: "Tromsø", subtitle: "Aurora nights", collection: .fallGetaways))
        #expect(try store.search("winter").trips.allSatisfy { $0.collection == .winterRetreats })
        #expect(try store.search("getaways tromso").trips.map(\.id) == [id])
    }

    /// A near miss that finds nothing is offered the spelling that does.
    @Test func aNearMissSuggestsWhatFindsSomething() throws {
        let test = try TestStore()
        for (typed, suggested) in [("kyotto", "kyoto"), ("japn", "japan"), ("kyotto tempels", "kyoto temples"), ("TROMSØ auroas", "tromso auroras")] {
            let results = try test.store.search(typed)
            #expect(results.trips.isEmpty && results.activities.isEmpty, "\(typed)")
            #expect(results.didYouMean == suggested, "\(typed)")
            let corrected = try test.store.search(suggested)
            #expect(!corrected.trips.isEmpty || !corrected.activities.isEmpty, "\(suggested)")
        }
        #expect(try test.store.search("qqqzzzx").didYouMean == nil, "nothing near")
        #expect(try test.store.search("kyoto").didYouMean == nil, "found: nothing to suggest")
        #expect(SearchSuggestion.editDistance("kyotto", "kyoto", atMost: 2) == 1)
        #expect(SearchSuggestion.editDistance("abc", "xyzxyz", atMost: 2) == 3)
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
        #expect(try test.store.search("big\"").trips.map(\.id) == [tripID]) // a quote that opens no phrase
        #expect(try test.store.search("* or").activities.count == 1)
        #expect(try test.store.search("\"").needsLongerWord)
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
        for text in ["number 1", "number 12", "r 123", "walk number 2", "12 number", "lk number 2"] {
            let results = try found(text, in: test)
            #expect(results.activities == Array(try expected(text, in: test).activities.prefix(100)), "search for \(text)")
        }
        // More: a hundred of the first matches added, by name. A two-letter needle gathers its
        // pool the same way, from the trigrams starting with it.
        for text in ["walk", "wa"] {
            let pool = try test.allActivities().filter { $0.name.folded.contains(text) }.sorted { $0.id < $1.id }
                .prefix(SubstringSearch.matchPool)
            #expect(try test.store.search(text).activities.map(\.activity.name)
                    == Array(pool.map(\.name).sorted { ($0.folded, $0) < ($1.folded, $1) }.prefix(100)), "search for \(text)")
        }
    }
}
