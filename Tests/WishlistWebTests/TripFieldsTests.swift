import Foundation
import Places
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// Destination and dates through the trip forms, the place search, the cards, the trip page,
/// search and the JSON API.
@Suite struct TripFieldsTests {
    private func kyotoToken(_ fixture: AppHarness) throws -> String {
        let places = try #require(try fixture.client.get("/places?q=kyoto").json()["places"] as? [[String: Any]])
        #expect(places.first?["label"] as? String == "Kyoto, Japan")
        return try #require(places.first?["token"] as? String)
    }

    private func newTrip(_ fields: [(String, String)], _ fixture: AppHarness) throws -> Reply {
        try fixture.client.post("/trips", form: [("name", "Temples"), ("collection", "springEscapes")] + fields, token: try fixture.csrfToken())
    }

    @Test func thePlaceSearchIsBounded() throws {
        let fixture = try AppHarness()
        let santa = try #require(try fixture.client.get("/places?q=santa").json()["places"] as? [[String: Any]])
        #expect(santa.count == PlaceRoutes.maxResults)
        #expect(try fixture.client.get("/places?q=").json()["places"] as? [Any] != nil)
        let long = String(repeating: "a", count: PlaceSearch.maximumQueryLength + 1)
        #expect(try fixture.client.get("/places?q=\(long)").status == 400)
    }

    @Test func aPickedPlaceIsResolvedByTheServerAndShownWithTheDates() throws {
        let fixture = try AppHarness()
        let reply = try newTrip([("destination", "Kyoto, Japan"), ("place", try kyotoToken(fixture)),
                                 ("startDate", "2027-03-28"), ("endDate", "2027-04-06")], fixture)
        #expect(reply.status == 303)
        let trip = try #require(try fixture.store.recentTrips(limit: 1).first)
        let kyoto = try #require(PlaceSearch.search("kyoto", limit: 1).first)
        #expect(trip.destination == TripDestination(kyoto))
        #expect(trip.startDate == CalendarDate("2027-03-28") && trip.endDate == CalendarDate("2027-04-06"))
        let home = try fixture.client.get("/").text
        #expect(home.contains(#"<span class="card-meta card-when">28 Mar – 6 Apr 2027</span>"#))
        #expect(home.contains(#"<span class="card-meta card-where">Kyoto, Japan</span>"#))
        #expect(try fixture.client.get("/trips/\(trip.id)").text.contains(#"<p class="trip-where">Kyoto, Japan · <span class="trip-dates">28 Mar – 6 Apr 2027</span></p>"#))
        let json = try #require(try fixture.client.get("/api/trips/\(trip.id)").json()["trip"] as? [String: Any])
        let destination = try #require(json["destination"] as? [String: Any])
        #expect(destination["name"] as? String == "Kyoto, Japan" && destination["latitude"] as? Double == kyoto.coordinate.latitude)
        #expect(json["startDate"] as? String == "2027-03-28" && json["endDate"] as? String == "2027-04-06")
    }

    @Test func typedTextOrAnUnknownTokenIsFreeTextWithoutAPin() throws {
        let fixture = try AppHarness()
        let unknown = PlaceToken.token(for: PlaceIdentifier(source: "geonames", index: 5, name: "Atlantis", countryCode: "XX"))
        for (typed, token) in [("Grandma's", ""), ("Atlantis", unknown), ("Kyoto, Japan!", try kyotoToken(fixture)), ("Kyoto, Japan", "%%%")] {
            #expect(try newTrip([("destination", typed), ("place", token)], fixture).status == 303)
            let trip = try #require(try fixture.store.recentTrips(limit: 1).first)
            #expect(trip.destination == TripDestination(name: typed), "\(typed)")
        }
    }

    @Test func anEndBeforeTheStartIsRefusedBesideItsFieldKeepingEverythingTyped() throws {
        let fixture = try AppHarness()
        let before = try fixture.store.tripCount(in: .springEscapes)
        let token = try kyotoToken(fixture)
        let reply = try newTrip([("destination", "Kyoto, Japan"), ("place", token),
                                 ("startDate", "2027-04-06"), ("endDate", "2027-03-28")], fixture)
        #expect(reply.status == 422)
        #expect(reply.text.contains(#"<p class="field-error" id="new-trip-endDate-error">The end date is before the start date"#))
        for kept in [#"value="Temples""#, #"value="Kyoto, Japan""#, #"name="place" value="\#(token)""#,
                     #"value="2027-04-06""#, #"value="2027-03-28""#] {
            #expect(reply.text.contains(kept), "\(kept)")
        }
        let badDate = try newTrip([("startDate", "2027-02-30")], fixture)
        #expect(badDate.status == 422 && badDate.text.contains("Enter the start date as a date, such as 2027-04-12."))
        #expect(try fixture.store.tripCount(in: .springEscapes) == before)
    }

    /// Every problem of a form is said at once, each beside its field, dates as the app writes them.
    @Test func everyProblemOfTheFormIsSaidAtOnce() throws {
        let fixture = try AppHarness()
        let reply = try newTrip([("destination", String(repeating: "n", count: 201)), ("subtitle", "\u{7}"),
                                 ("startDate", "2027-05-20"), ("endDate", "2027-05-02")], fixture)
        #expect(reply.status == 422)
        for field in ["destination", "subtitle", "endDate"] {
            #expect(reply.text.contains(#"id="new-trip-\#(field)-error""#), "\(field)")
        }
        #expect(reply.text.contains("choose an end on or after 20 May 2027."))
    }

    @Test func findPlaceWithoutScriptOffersChoicesThenSavesThePickedOne() throws {
        let fixture = try AppHarness()
        let before = try fixture.store.tripCount(in: .springEscapes)
        let found = try newTrip([("destination", "kyoto"), ("startDate", "2027-03-28"), ("findPlace", "1")], fixture)
        #expect(found.status == 200)
        #expect(try fixture.store.tripCount(in: .springEscapes) == before)
        let token = try kyotoToken(fixture)
        #expect(found.text.contains(#"<legend>Places matching “kyoto”</legend>"#))
        #expect(found.text.contains(#"name="placeChoice" value="\#(token)"> Kyoto, Japan</label>"#))
        #expect(found.text.contains(#"value="Temples""#) && found.text.contains(#"value="2027-03-28""#))
        let nothing = try newTrip([("destination", "qqqzzz"), ("findPlace", "1")], fixture)
        #expect(nothing.text.contains("<legend>No place matches “qqqzzz”</legend>"))

        #expect(try newTrip([("destination", "kyoto"), ("placeChoice", token)], fixture).status == 303)
        #expect(try fixture.store.recentTrips(limit: 1).first?.destination?.coordinate != nil)
    }

    @Test func editModeShowsTheTripsPlaceAndKeepsItWhenSavedUntouched() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Japan Mystique")
        let page = try fixture.client.get("/trips/\(trip.id)?edit=1").text
        let token = try kyotoToken(fixture)
        #expect(page.contains(#"name="destination" value="Kyoto, Japan""#) && page.contains(#"name="place" value="\#(token)""#))
        #expect(page.contains(#"type="date" name="startDate" value="2027-03-28""#))
        let saved = try fixture.client.post("/trips/\(trip.id)", form: [
            ("name", trip.name), ("collection", trip.collection.rawValue), ("destination", "Kyoto, Japan"), ("place", token),
            ("startDate", "2027-03-28"), ("endDate", ""),
        ] + fixture.formVersions(ofTrip: trip.id), token: try fixture.csrfToken())
        #expect(saved.status == 303)
        let after = try #require(try fixture.store.trip(id: trip.id))
        #expect(after.destination == trip.destination && after.endDate == nil)
        let activity = try #require(try fixture.store.activities(tripID: trip.id, sortedBy: .dateCreated).first)
        let found = try fixture.client.post("/trips/\(trip.id)", form: [
            ("name", trip.name), ("collection", trip.collection.rawValue), ("destination", "annecy"), ("findPlace", "1"),
            ("activity-name-\(activity.id)", "Renamed while finding a place"),
        ] + fixture.formVersions(ofTrip: trip.id), token: try fixture.csrfToken())
        #expect(found.status == 200 && found.text.contains("Annecy, "))
        #expect(try fixture.store.trip(id: trip.id)?.destination == trip.destination)
        #expect(try fixture.store.activity(id: activity.id)?.name == "Renamed while finding a place",
                "the rename typed beside the destination is not dropped")
    }

    @Test func aNewDateIsOneTripUpdateInTheHistoryFeedAndTheAPIShowsIt() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Japan Mystique")
        let before = try fixture.store.database.latestHistoryToken()
        try fixture.store.updateTrip(id: trip.id, draft: TripDraft(name: trip.name, collection: trip.collection,
                                                                   destination: trip.destination, startDate: "2027-03-30"))
        let page = try fixture.client.get("/api/history?after=\(before)").json()
        let changes = try #require((page["transactions"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])
        #expect(changes.map { "\($0["entity"]!) \($0["id"]!) \($0["kind"]!)" } == ["Trip \(trip.id) update"])
        let json = try #require(try fixture.client.get("/api/trips/\(trip.id)").json()["trip"] as? [String: Any])
        #expect(json["startDate"] as? String == "2027-03-30" && json["endDate"] == nil)
    }

    @Test func searchMarksTheDestinationsMatches() throws {
        let fixture = try AppHarness()
        #expect(try fixture.client.get("/search?q=kyoto").text.contains(#"<span class="result-meta"><mark>Kyoto</mark>, Japan · 28 Mar – 6 Apr 2027</span>"#))
    }

    @Test(arguments: [
        ("2027-03-28", "2027-04-06", "28 Mar – 6 Apr 2027"), ("2027-04-10", "2027-04-17", "10 – 17 Apr 2027"),
        ("2027-12-27", "2028-01-03", "27 Dec 2027 – 3 Jan 2028"), ("2027-04-12", "", "From 12 Apr 2027"),
        ("", "2027-04-06", "Until 6 Apr 2027"), ("2027-05-01", "2027-05-01", "1 May 2027"),
    ])
    func datesAreSaidCompactly(start: String, end: String, text: String) {
        #expect(TripViews.dateRangeText(start: CalendarDate(start), end: CalendarDate(end)) == text)
    }
}
