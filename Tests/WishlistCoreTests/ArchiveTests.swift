import Foundation
import Places
import Testing
@testable import WishlistCore

@Suite struct ArchiveTests {
    private func write(_ json: String, in directory: TemporaryDirectory) throws -> URL {
        let url = URL(fileURLWithPath: directory.path + "/archive-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    /// The archive without its export time, which differs between two exports of the same data.
    private func contents(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
            .replacing(/"exportedAt":"[^"]*"/, with: "")
    }

    @Test func exportThenImportGivesTheSameWishlist() throws {
        let source = try TestStore()
        let tripID = try source.store.addTrip(TripDraft(name: "Café Crawl", subtitle: "Lisbon, \"slowly\"", collection: .springEscapes))
        let activityID = try source.store.addActivity(tripID: tripID, name: "Pastéis de nata")
        try source.store.setActivityComplete(id: activityID, true)
        try source.store.setActivitySortOrder(.completed)
        let exported = URL(fileURLWithPath: source.directory.path + "/export.json")
        var reports: [ArchiveProgress] = []
        try WishlistArchive(store: source.store).export(to: exported) { reports.append($0) }
        #expect(reports.last == ArchiveProgress(itemsDone: 13 + 38, itemsTotal: 13 + 38))

        let target = try TestStore()
        try target.store.addTrip(TripDraft(name: "Replaced by the import", collection: .fallGetaways))
        let summary = try WishlistArchive(store: target.store).import(from: exported)
        // The document names each photo by its content, already in the target's photo library.
        #expect(summary == ImportSummary(trips: 13, activities: 38, photosKept: 12))

        let reexported = URL(fileURLWithPath: target.directory.path + "/export.json")
        try WishlistArchive(store: target.store).export(to: reexported)
        #expect(try contents(reexported) == contents(exported))
        #expect(try target.store.achievedGoals() == source.store.achievedGoals())
        #expect(try target.store.upcomingGoals().map(\.completedCount) == source.store.upcomingGoals().map(\.completedCount))
        #expect(try target.store.activitySortOrder() == .completed)
        #expect(try target.store.search("cafe").trips.map(\.subtitle) == ["Lisbon, \"slowly\""])
        #expect(try target.store.search("crawl nata").activities.map(\.activity.name) == ["Pastéis de nata"]) // the index rebuilt after the load

        // The rules keep working after the bulk load.
        let importedTrip = try #require(try target.store.search("cafe").trips.first)
        try target.store.addActivity(tripID: importedTrip.id, name: "Bica at the counter")
        #expect(try target.store.trip(id: importedTrip.id)?.isComplete == false)
        #expect(try target.store.search("bica").activities.map(\.tripName) == ["Café Crawl"])
        #expect(try target.goal("trips-1").completedCount == source.goal("trips-1").completedCount - 1)
    }

    /// A bookmark of `/trips/ID`, a calendar feed's UID or a sync peer's pair outlives moving the
    /// wishlist: an export imported into an empty folder, or over another wishlist, keeps every id.
    @Test func tripsKeepTheirIdsThroughExportAndImport() throws {
        let source = try TestStore()
        _ = try source.store.deleteTrip(id: 2)
        let added = try source.store.addTrip(TripDraft(name: "After a gap", collection: .summerVibes))
        let exported = URL(fileURLWithPath: source.directory.path + "/export.zip")  // with its photos
        try WishlistArchive(store: source.store).export(to: exported)
        let ids = { (store: WishlistStore) in
            try store.database.read { try $0.fetchAll("SELECT id, name FROM Trip ORDER BY id").map { "\($0["id"] as Int64) \($0["name"] as String)" } }
        }

        let empty = try TestStore()
        try empty.deleteAllTrips()
        try WishlistArchive(store: empty.store).import(from: exported)
        #expect(try ids(empty.store) == ids(source.store))

        let other = try TestStore()  // its own twelve trips hold ids 1 to 12
        let summary = try WishlistArchive(store: other.store).import(from: exported)
        #expect(try ids(other.store) == ids(source.store))
        #expect(summary.photosFromArchive == 11)
        #expect(try other.store.trip(id: added)?.name == "After a gap")
        #expect(try other.store.trip(id: 2) == nil)
        #expect(try other.store.search("gap").trips.map(\.id) == [added], "the index rebuilt with the kept ids")
        let next = try other.store.addTrip(TripDraft(name: "Next", collection: .summerVibes))
        #expect(next > added)
    }

    @Test func destinationsAndDatesRoundTripAndOlderOrNewerShapesImport() throws {
        let source = try TestStore()
        let kyoto = try #require(PlaceSearch.search("kyoto", limit: 1).first)
        try source.store.addTrip(TripDraft(name: "Temples", collection: .springEscapes, destination: TripDestination(kyoto),
                                           startDate: "2027-03-28", endDate: "2027-04-06"))
        try source.store.addTrip(TripDraft(name: "Somewhere", collection: .fallGetaways, destination: TripDestination(name: "Grandma's")))
        let exported = URL(fileURLWithPath: source.directory.path + "/export.json")
        try WishlistArchive(store: source.store).export(to: exported)
        let document = try String(contentsOf: exported, encoding: .utf8)
        #expect(document.contains(#""formatVersion":5"#))
        #expect(document.contains(#""destination":{"latitude":\#(kyoto.coordinate.latitude),"longitude":\#(kyoto.coordinate.longitude),"name":"Kyoto, Japan","place":{"#))
        #expect(document.contains(#""endDate":"2027-04-06","id":13,"name":"Temples""#))

        let target = try TestStore()
        try WishlistArchive(store: target.store).import(from: exported)
        let trips = try target.store.recentTrips(limit: 14)
        #expect(trips.first { $0.name == "Temples" }?.destination == TripDestination(kyoto))
        #expect(trips.first { $0.name == "Temples" }?.endDate == CalendarDate("2027-04-06"))
        #expect(trips.first { $0.name == "Somewhere" }?.destination == TripDestination(name: "Grandma's"))
        #expect(try target.store.search("kyoto temples").trips.map(\.name) == ["Temples"])

        // Version 1 has no destinations; a newer app's identifier this one cannot read is left out.
        let older = try write(#"{"formatVersion": 1, "trips": [{"name": "Old", "collection": "summerVibes"}]}"#, in: target.directory)
        try WishlistArchive(store: target.store).import(from: older)
        #expect(try target.store.recentTrips(limit: 2).map(\.destination) == [nil])
        let newer = try write("""
            {"formatVersion": 3, "trips": [{"name": "New", "collection": "summerVibes",
              "destination": {"name": "Kyoto, Japan", "latitude": 35.0, "longitude": 135.7, "place": {"gazetteer": 7}, "colour": "red"}}]}
            """, in: target.directory)
        try WishlistArchive(store: target.store).import(from: newer)
        #expect(try target.store.recentTrips(limit: 1).first?.destination
                == TripDestination(name: "Kyoto, Japan", coordinate: Coordinate(latitude: 35.0, longitude: 135.7)))
    }

    @Test func aMalformedArchiveNamesItsFirstProblemAndChangesNothing() throws {
        let test = try TestStore()
        let url = try write("""
            {"formatVersion": 1, "trips": [
              {"name": "Fine", "collection": "summerVibes", "activities": [{"name": "Swim"}]},
              {"name": "Broken", "collection": "fallGetaways", "activities": [{"name": "Ok"}, {"name": "  "}, {"name": ""}]}
            ]}
            """, in: test.directory)
        #expect(throws: ArchiveError(location: "trips[1].activities[1].name", message: "must not be empty")) {
            try WishlistArchive(store: test.store).import(from: url)
        }
        #expect(try test.count("SELECT count(*) FROM Trip") == 12)
        #expect(try test.count("SELECT count(*) FROM Activity") == 37)
        #expect(try test.store.achievedGoals().count == 4)
    }

    @Test func everyKindOfProblemIsExplained() throws {
        let directory = try TemporaryDirectory()
        func problem(_ json: String) throws -> String? {
            do { _ = try WishlistArchive.read(try write(json, in: directory)); return nil } catch let error as ArchiveError {
                return error.description
            }
        }
        let trip = #"{"name": "Trip", "collection": "summerVibes"}"#
        #expect(try problem(#"{"formatVersion": 1}"#) == "trips: is missing")
        #expect(try problem(#"{"trips": []}"#) == "formatVersion: is missing")
        #expect(try problem(#"{"formatVersion": 6, "trips": []}"#)
                == "formatVersion: is 6, but this app reads versions 1 to 5; use a newer app")
        #expect(try problem(#"{"formatVersion": 4, "trips": [{"id": 0, "name": "T", "collection": "summerVibes"}]}"#)
                == "trips[0].id: must be a whole number from 1")
        #expect(try problem(#"{"formatVersion": 4, "trips": [{"id": 7, "name": "T", "collection": "summerVibes"}, \#(trip), {"id": 7, "name": "U", "collection": "summerVibes"}]}"#)
                == "trips[2].id: is 7, as trips[0]'s is: each trip's id is its own")
        #expect(try problem(#"{"formatVersion": 3, "trips": [{"name": "T", "collection": "summerVibes", "startDate": "2027-04-06", "endDate": "2027-03-28"}]}"#)
                == "trips[0].endDate: is before the trip's startDate (2027-04-06)")
        #expect(try problem(#"{"formatVersion": 3, "trips": [{"name": "T", "collection": "summerVibes", "destination": {"name": "X", "latitude": 5}}]}"#)
                == "trips[0].destination.longitude: latitude (-90 to 90) and longitude (-180 to 180) must be given together")
        #expect(try problem(#"{"formatVersion": 3, "trips": [{"name": "T", "collection": "summerVibes", "destination": {"name": ""}}]}"#)
                == "trips[0].destination.name: must not be empty")
        #expect(try problem(#"{"formatVersion": 2, "trips": [{"name": "T", "collection": "summerVibes", "photo": "../x.jpg"}]}"#)
                == "trips[0].photo: must be null or a photo file name: 64 lowercase hex digits of its SHA-256, a dot and jpg, png, webp, gif or heic")
        #expect(try problem(#"{"format": "photos", "formatVersion": 1, "trips": []}"#)
                == #"format: must be "wishlist-archive" (this is not a wishlist archive)"#)
        #expect(try problem(#"{"formatVersion": 1, "trips": [\#(trip), {"name": 5, "collection": "summerVibes"}]}"#)
                == "trips[1].name: must be text")
        #expect(try problem(#"{"formatVersion": 1, "trips": [{"name": "Trip", "collection": "monsoon"}]}"#)
                == #"trips[0].collection: must be one of "springEscapes", "summerVibes", "fallGetaways", "winterRetreats""#)
        #expect(try problem(#"{"formatVersion": 1, "trips": [{"name": "T", "collection": "summerVibes", "creationDate": "yesterday"}]}"#)
                == #"trips[0].creationDate: must be a UTC date like "2026-11-29T14:03:00.000Z""#)
        #expect(try problem(#"{"formatVersion": 1, "trips": [{"name": "T", "collection": "summerVibes", "activities": {}}]}"#)
                == "trips[0].activities: must be a list")
        #expect(try problem(#"{"formatVersion": 1, "trips": [[]]}"#) == "trips[0]: must be an object")
        #expect(try problem(#"{"formatVersion": 1, "trips": [{"name": null, "collection": "summerVibes"}]}"#)
                == "trips[0].name: must not be null")
        #expect(try problem(#"{"formatVersion": 1, "trips": [{"name": "T\nU", "collection": "summerVibes"}]}"#)
                == "trips[0].name: must not contain line breaks or other control characters")
        #expect(try problem(#"{"formatVersion": 1, "goals": [{"badge": "moon-1"}], "trips": []}"#)
                == #"goals[0].badge: names no known goal: "moon-1""#)
        #expect(try problem(#"{"formatVersion": 1, "trips": [\#(trip)"#) == "the file is not valid JSON: Unexpected end of file during JSON parse.")
        #expect(try problem("{\"formatVersion\": 1,\n  \"trips\": [tru]}") == "the file is not valid JSON: Invalid value at line 2, column 16")
        #expect(try problem(#"{"formatVersion": 1, "trips": [\#(trip)]}"#) == nil)
    }

    @Test func aScriptCanWriteOnlyWhatItKnows() throws {
        let test = try TestStore()
        let url = try write("""
            {"formatVersion": 1, "trips": [
              {"name": " Rome ", "subtitle": "", "collection": "summerVibes", "creationDate": "2025-06-01T10:00:00Z",
               "activities": [{"name": "Colosseum", "isComplete": true}, {"name": "Gelato", "isComplete": true}]},
              {"name": "Oslo", "collection": "winterRetreats"}
            ]}
            """, in: test.directory)
        // No trip has the name and collection of a sample trip, so the 12 sample photos go.
        #expect(try WishlistArchive(store: test.store).import(from: url) == ImportSummary(trips: 2, activities: 2, photosRemoved: 12))
        let rome = try #require(try test.store.trips(in: .summerVibes).first)
        #expect(rome.name == "Rome" && rome.subtitle == nil && rome.isComplete)
        #expect(rome.creationDate == Date(timeIntervalSince1970: 1_748_772_000))
        let colosseum = try #require(try test.store.activities(tripID: rome.id, sortedBy: .title).first)
        #expect(colosseum.dateCreated == rome.creationDate && colosseum.dateEdited == rome.creationDate)
        #expect(Set(try test.store.achievedGoals().map(\.badge)) == ["activities-1", "trips-1", "summer-1"])
        #expect(try test.store.activitySortOrder() == .title)
    }

    @Test func archiveDatesKeepMilliseconds() throws {
        for seconds in [0, 1_795_959_262.916, 1_796_159_261.915, -86_400.001, 951_782_400.5] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = ArchiveDate.string(from: date)
            #expect(ArchiveDate.date(from: text) == date, "\(text)")
        }
        #expect(ArchiveDate.string(from: Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00.500Z")
        #expect(ArchiveDate.date(from: "2026-11-29T14:03:00.123456Z") == Date(timeIntervalSince1970: 1_795_960_980.123))
        #expect(ArchiveDate.date(from: "2026-11-29T14:03:00Z") == Date(timeIntervalSince1970: 1_795_960_980))
        for invalid in ["2026-02-30T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29 14:03:00Z", "2026-11-29T14:03:00",
                        "2026-11-29T14:03:00.Z", "2026-11-29T14:03:00+01:00", "20261129T140300Z"] {
            #expect(ArchiveDate.date(from: invalid) == nil, "\(invalid)")
        }
    }

    @Test func largeArchivesAreDeterministicAndImportWhole() throws {
        let test = try TestStore()
        let first = URL(fileURLWithPath: test.directory.path + "/large-1.json")
        let second = URL(fileURLWithPath: test.directory.path + "/large-2.json")
        try SampleData.largeArchive(trips: 2_000, activitiesPerTrip: 10, seed: 42, to: first)
        try SampleData.largeArchive(trips: 2_000, activitiesPerTrip: 10, seed: 42, to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))

        let summary = try WishlistArchive(store: test.store).import(from: first)
        #expect(summary == ImportSummary(trips: 2_000, activities: 20_000, photosRemoved: 12))
        #expect(try TripCollection.allCases.map { try test.store.tripCount(in: $0) }.reduce(0, +) == 2_000)
        let completedActivities = try test.count("SELECT count(*) FROM Activity WHERE is_complete")
        #expect(try test.goal("activities-10").completedCount == completedActivities)
        #expect(try test.goal("trips-1").completedCount == test.count("SELECT count(*) FROM Trip WHERE is_complete"))
        let krakow = try test.store.search("krakow").trips
        #expect(!krakow.isEmpty && krakow.allSatisfy { $0.name.hasPrefix("Kraków") })
        // Most trips go somewhere, on dates, to a place with a position where the gazetteer has it.
        let travelling = try test.count("SELECT count(*) FROM Trip WHERE destination IS NOT NULL AND start_date <= end_date")
        #expect((1_400...1_800).contains(travelling))
        #expect(try test.count("SELECT count(*) FROM Trip WHERE latitude IS NOT NULL") > 1_000)
        #expect(try test.count("SELECT count(DISTINCT destination) FROM Trip") > 40)
    }
}

@Suite struct ArchiveDocumentationTests {
    /// The example in docs/EXPORT-FORMAT.md must stay an archive the app imports.
    @Test func theDocumentedExampleImports() throws {
        let documentation = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/EXPORT-FORMAT.md")
        let text = try String(contentsOf: documentation, encoding: .utf8)
        let example = try #require(text.firstMatch(of: /```json\n(?<json>(?s).*?)```/)?.output.json)
        let test = try TestStore()
        let url = URL(fileURLWithPath: test.directory.path + "/example.json")
        try Data(example.utf8).write(to: url)
        #expect(try WishlistArchive(store: test.store).import(from: url) == ImportSummary(trips: 2, activities: 2, photosRemoved: 12))
        let cali = try #require(try test.store.trips(in: .springEscapes).first)
        #expect(cali.name == "Cali Coastal Trails" && cali.completedActivityCount == 1)
        #expect(cali.id == 1, "the archive's id, though a seeded trip had it before")
        #expect(try test.goal("activities-1").dateAchieved == ArchiveDate.date(from: "2026-11-29T13:31:12.410Z"))
        #expect(try test.store.trips(in: .summerVibes).first?.subtitle == "Santa Cruz")
    }
}
