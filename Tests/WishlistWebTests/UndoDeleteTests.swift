import Foundation
import HTTPServer
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// Deletes offer an undo, without the script: the page a delete leads to says what went with an
/// Undo button, which puts it back; other tabs see it come back over their live topics.
@Suite struct UndoDeleteTests {
    @Test func deletingAnActivityOffersAnUndoThatPutsItBack() throws {
        let fixture = try AppHarness()
        let activity = try fixture.activity(named: "Snowshoe hike")
        let token = try fixture.csrfToken()
        let deleted = try fixture.client.post("/activities/\(activity.id)/delete", form: [], token: token)
        let location = try #require(deleted.header("Location"))
        let deletionID = try #require(location.firstMatch(of: /^\/trips\/\d+\?edit=1&deleted=(\d+)$/)).1
        #expect(try fixture.store.activity(id: activity.id) == nil)

        let page = try fixture.client.get(location)
        #expect(page.text.contains(#"<div class="undo-notice" id="undo-notice" role="status" tabindex="-1" autofocus>"#))
        #expect(page.text.contains("Deleted “Snowshoe hike”."))
        #expect(page.text.contains(#"action="/deletions/\#(deletionID)/undo""#))

        let undone = try fixture.client.post("/deletions/\(deletionID)/undo", form: [], token: token)
        #expect(undone.status == 303 && undone.header("Location") == "/trips/\(activity.tripID)?edit=1")
        #expect(try fixture.store.activity(id: activity.id) == activity)
        #expect(!(try fixture.client.get(location).text.contains(#"id="undo-notice""#)), "done once, the notice goes")
    }

    @Test func deletingATripOffersAnUndoOnTheWishlist() throws {
        let fixture = try AppHarness()
        let trip = try fixture.trip(named: "Mont Blanc Powder")
        let token = try fixture.csrfToken()
        let deleted = try fixture.client.post("/trips/\(trip.id)/delete", form: [], token: token)
        let location = try #require(deleted.header("Location"))
        let deletionID = try #require(location.firstMatch(of: /^\/\?deleted=(\d+)$/)).1
        #expect(try fixture.client.get(location).text.contains("Deleted “Mont Blanc Powder”."))

        let undone = try fixture.client.post("/deletions/\(deletionID)/undo", form: [], token: token)
        #expect(undone.header("Location") == "/trips/\(trip.id)")
        #expect(try fixture.store.trip(id: trip.id) == trip)

        let again = try fixture.client.post("/deletions/\(deletionID)/undo", form: [], token: token)
        #expect(again.status == 404 && again.text.contains("That delete can no longer be undone"))
    }

    @Test func anUndoReachesOtherTabsAsALiveUpdate() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let activity = try server.activity(named: "Snowshoe hike")
        let deletion = try server.store.deleteActivity(id: activity.id)
        let client = try SocketClient.openEvents("/events?topics=trip-header.\(activity.tripID)", port: server.port)
        _ = try client.nextEvent(named: "ready")
        try server.store.undoDeletion(id: deletion.id)
        let fragment = try client.nextEvent(named: "fragment").json()
        #expect(fragment["target"] as? String == "trip-header")
    }
}
