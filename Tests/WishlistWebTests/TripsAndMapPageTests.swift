import Foundation
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// The Trips and Map tabs over the seeded trips, in process; their live updates through a real server.
@Suite struct TripsAndMapPageTests {
    static let santaCruz = "Santa Cruz, California, United States of America"

    func viewBox(_ html: String) throws -> String {
        guard let range = html.range(of: #"viewBox="[^"]*""#, options: .regularExpression) else { throw TestFailure("no viewBox") }
        return String(html[range].dropFirst(9).dropLast())
    }

    @Test func theTripsTabListsEveryTripByStartDateAndFollowsItsPage() throws {
        let fixture = try AppHarness()
        let page = try fixture.client.get("/trips")
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-live-topics="trips.1""#))
        #expect(page.text.contains(#"<a href="/trips" class="tab tab-trips" aria-current="page">"#))
        #expect(page.text.contains("Page 1 of 1 · 12 trips"))
        // Annecy (March 6), Kyoto (March 28), Santa Cruz (April 10).
        let order = ["Mont Blanc Powder", "Japan Mystique", "Cali Coastal Trails"].compactMap { page.text.range(of: $0)?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
    }

    @Test func groupedByDestinationEachSectionHasItsNameAndCount() throws {
        let fixture = try AppHarness()
        let page = try fixture.client.get("/trips?group=destination")
        #expect(page.text.contains(#"data-live-topics="trips-by-destination""#))
        #expect(page.text.contains(#"<span class="destination-name">\#(Self.santaCruz)</span> <span class="count">2 trips</span>"#))
        #expect(page.text.components(separatedBy: #"<section class="destination""#).count - 1 == 11)
        #expect(!page.text.contains("No destination"))

        _ = try fixture.store.addTrip(TripDraft(name: "Somewhere", collection: .summerVibes))
        let after = try fixture.client.get("/trips?group=destination")
        #expect(after.text.contains(#"<span class="destination-name">No destination</span> <span class="count">1 trip</span>"#))
    }

    @Test func theMapDrawsAPinPerPlaceAndListsItsTrips() throws {
        let fixture = try AppHarness()
        let page = try fixture.client.get("/map")
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-live-topics="map""#))
        // Two of the twelve trips are in Santa Cruz: one pin with their count, their list beside it.
        #expect(page.text.components(separatedBy: "<circle ").count - 1 == 11)
        #expect(page.text.contains("12 trips on the map"))
        let santaCruz = try [fixture.trip(named: "Cali Coastal Trails"), fixture.trip(named: "Surf Steamer Lane")]
        let anchor = "place-\(santaCruz.map(\.id).min()!)"
        #expect(page.text.contains(##"<a href="#\##(anchor)" tabindex="-1"><title>2 trips · \##(Self.santaCruz)</title>"##))
        #expect(page.text.contains(#"<div class="map-place" id="\#(anchor)" tabindex="-1"><p class="map-place-name">2 trips · \#(Self.santaCruz)</p>"#))
        for trip in santaCruz { #expect(page.text.contains(#"<li><a href="/trips/\#(trip.id)">\#(trip.name)</a></li>"#)) }
        let kyoto = try fixture.trip(named: "Japan Mystique")
        #expect(page.text.contains(#"<li><a href="/trips/\#(kyoto.id)">Japan Mystique · Kyoto, Japan</a></li>"#))
        // The drawing's pins stay out of the tab order: the list is the way in.
        #expect(page.text.contains(#"<a href="/trips/\#(kyoto.id)" tabindex="-1">"#))
        #expect(try viewBox(page.text) != "-180 -90 360 180")
    }

    @Test func withoutPlacedTripsTheMapShowsTheWorldAndSaysSo() throws {
        let fixture = try AppHarness()
        for trip in try fixture.store.fetch(.tripsByStartDate(pageNumber: 1, pageSize: 50)).trips {
            try fixture.store.deleteTrip(id: trip.id)
        }
        let page = try fixture.client.get("/map")
        #expect(try viewBox(page.text) == "-180 -90 360 180")
        #expect(page.text.contains("No trip has a place yet."))
    }

    @Test(arguments: [LiveTopic.tripsByDate(pageNumber: 3), .tripsByDestination(after: nil),
                      .tripsByDestination(after: "Santa Cruz, California. U+S"), .map])
    func theIdNamesTheTopicAgain(topic: LiveTopic) {
        #expect(!topic.id.contains(" "))
        #expect(LiveTopic(id: topic.id) == topic)
    }

    @Test func deletingATripRefitsAnOpenMap() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let client = try SocketClient.openEvents("/events?topics=map", port: server.port)
        _ = try client.nextEvent(named: "ready")
        let before = try viewBox(try server.client.get("/map").text)
        // Annecy is the westmost pin east of the Atlantic, the widest gap: without it the map narrows.
        try server.store.deleteTrip(id: try server.trip(named: "Mont Blanc Powder").id)
        let fragment = try client.nextEvent(named: "fragment").json()
        #expect(fragment["target"] as? String == "trip-map")
        let after = try viewBox(fragment["html"] as? String ?? "")
        #expect(after != before)
        #expect(((fragment["html"] as? String)?.components(separatedBy: "<circle ").count ?? 0) - 1 == 10)
    }
}
