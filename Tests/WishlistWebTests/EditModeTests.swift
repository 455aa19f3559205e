import Foundation
import HTTPServer
import Persistence
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// Edit mode without the script: Done submits the trip form, rename fields included, so nothing
/// typed is dropped; a failed save shows the form again with what was typed; error pages lead
/// back to the page the person was on.
@Suite struct EditModeTests {
    @Test func doneSavesTheTripsFieldsAndTypedRenamesThenLeavesEditMode() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Mont Blanc Powder")
        let activity = try fixture.activity(named: "Snowshoe hike")
        let reply = try fixture.client.post("/trips/\(trip.id)", form: [
            ("name", "Mont Blanc at Dawn"), ("collection", "winterRetreats"), ("subtitle", "First light"),
            ("activity-name-\(activity.id)", "Snowshoe hike at dawn"), ("return", "/trips/\(trip.id)"),
        ] + fixture.formVersions(ofTrip: trip.id), token: try fixture.csrfToken())
        #expect(reply.status == 303 && reply.header("Location") == "/trips/\(trip.id)")
        #expect(try fixture.store.trip(id: trip.id)?.name == "Mont Blanc at Dawn")
        #expect(try fixture.store.trip(id: trip.id)?.subtitle == "First light")
        #expect(try fixture.store.activity(id: activity.id)?.name == "Snowshoe hike at dawn")
    }

    @Test func aRefusedRenameKeepsEverythingTypedAndSavesNothing() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Mont Blanc Powder")
        let activity = try fixture.activity(named: "Snowshoe hike")
        let reply = try fixture.client.post("/trips/\(trip.id)", form: [
            ("name", "Mont Blanc at Dawn"), ("collection", trip.collection.rawValue), ("subtitle", ""),
            ("activity-name-\(activity.id)", "   "), ("return", "/trips/\(trip.id)"),
        ] + fixture.formVersions(ofTrip: trip.id), token: try fixture.csrfToken())
        #expect(reply.status == 422)
        #expect(reply.text.contains(#"value="Mont Blanc at Dawn""#))
        #expect(reply.text.contains("Enter an activity name."))
        #expect(try fixture.store.trip(id: trip.id)?.name == "Mont Blanc Powder")
    }

    @Test func aFullDiskShowsTheFormAgainWithWhatWasTyped() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Mont Blanc Powder")
        try fillTheDisk(fixture.store.database)
        let reply = try fixture.client.post("/trips/\(trip.id)", form: [
            ("name", "Mont Blanc at Dawn " + String(repeating: "x", count: 150)), ("collection", trip.collection.rawValue),
            ("subtitle", String(repeating: "Fresh powder all week. ", count: 8)),
        ] + fixture.formVersions(ofTrip: trip.id), token: try fixture.csrfToken())
        #expect(reply.status == 507)
        #expect(reply.text.contains(StorageFull.message))
        #expect(reply.text.contains(#"value="Mont Blanc at Dawn xxxx"#))
        #expect(reply.text.contains(#"<form class="trip-form" id="edit-trip""#))
    }

    @Test func anErrorPageLinksBackToThePageThePersonWasOn() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Mont Blanc Powder")
        let reply = try fixture.client.post("/activities/999999/complete", form: [("complete", "true")], token: try fixture.csrfToken(),
                                            headers: ["Referer": "http://127.0.0.1/trips/\(trip.id)?edit=1"])
        #expect(reply.status == 404)
        #expect(reply.text.contains(#"<a class="button" href="/trips/\#(trip.id)?edit=1">Go Back</a>"#))
        let fromElsewhere = try fixture.client.get("/trips/999999", headers: ["Referer": "http://example.com/trips/1"])
        #expect(fromElsewhere.text.contains(#"<a class="button" href="/">Back to Wishlist</a>"#))
    }

    @Test func theFaviconIsServed() throws {
        let fixture = try AppHarness()
        let reply = try fixture.client.get("/favicon.ico")
        let location = try #require(reply.header("Location"))
        #expect(reply.status == 303 && location == fixture.app.staticFiles.versionedPrefix + "images/favicon.svg")
        let icon = try fixture.client.get(location)
        #expect(icon.status == 200 && icon.header("Cache-Control") == "public, max-age=31536000, immutable")
    }

    /// A real SQLITE_FULL on the next change of a trip: the database may not grow past its size,
    /// and a trigger makes that change need room (as a large write on a full disk would).
    private func fillTheDisk(_ database: Database) throws {
        try database.write(author: "test") { db in
            try db.execute("CREATE TABLE filler (bytes BLOB)")
            try db.execute("CREATE TRIGGER grow_on_trip_update AFTER UPDATE ON Trip BEGIN INSERT INTO filler VALUES (randomblob(1000000)); END")
            try db.execute("PRAGMA max_page_count = 1")  // clamped to the current size
        }
    }
}
