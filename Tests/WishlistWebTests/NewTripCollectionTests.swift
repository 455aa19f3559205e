import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// New Trip no longer always starts in Winter Retreats: in the collection asked for, else in the
/// one last added to.
@Suite struct NewTripCollectionTests {
    @Test func theNewTripFormStartsInTheCollectionLastAddedTo() throws {
        let fixture = try AppHarness()
        let newest = try #require(try fixture.store.fetch(.recentTrips(limit: 1)).first)
        let other = try #require(TripCollection.allCases.first { $0 != newest.collection })
        _ = try fixture.store.addTrip(TripDraft(name: "Lisbon Trams", collection: other))
        for page in ["/trips/new", "/"] {
            #expect(try fixture.client.get(page).text.contains(#"<option value="\#(other.rawValue)" selected>"#), "\(page)")
        }
    }

    @Test func theCollectionAskedForWins() throws {
        let fixture = try AppHarness()
        let page = try fixture.client.get("/trips/new?collection=fallGetaways")
        #expect(page.text.contains(#"<option value="fallGetaways" selected>"#))
    }
}
