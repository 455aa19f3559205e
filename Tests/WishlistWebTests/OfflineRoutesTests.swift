import Foundation
import Testing
import TestSupport
@testable import WishlistWeb
import WishlistCore

/// The service worker is served from the root, so that it may keep every page, and names the
/// static files of this version: a new version of them is a new worker. It asks which trips'
/// pages changed since it kept them.
@Suite struct OfflineRoutesTests {
    @Test func theWorkerIsServedAtTheRootWithThisVersionsStaticFiles() throws {
        let fixture = try AppHarness()
        let reply = try fixture.client.get("/service-worker.js")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(reply.header("Cache-Control") == "no-cache")
        #expect(reply.text.contains(#"const STATIC = "\#(fixture.app.staticFiles.versionedPrefix)";"#))
        #expect(reply.text.contains(#"url.pathname === "/logout""#))
    }

    struct Changes: Decodable, Equatable {
        let token: Int64
        let trips: [Int64]?
    }

    @Test func theWorkerIsToldWhichTripPagesChangedSinceItsToken() throws {
        let fixture = try AppHarness()
        let store = fixture.app.store
        let token = try store.database.latestHistoryToken()
        let changes = { (after: String) in
            try JSONDecoder().decode(Changes.self, from: Data(try fixture.client.get("/offline/changes?after=\(after)").text.utf8))
        }
        #expect(try changes("\(token)") == Changes(token: token, trips: []))
        let trip = try #require(try store.recentTrips(limit: 1).first)
        let activity = try #require(try store.activities(tripID: trip.id, sortedBy: .title).first)
        try store.renameActivity(id: activity.id, name: "Sunrise hike")
        #expect(try changes("\(token)") == Changes(token: token + 1, trips: [trip.id]))
        #expect(try changes("\(token + 10)") == Changes(token: token + 1, trips: nil), "a token of another history")
        #expect(try fixture.client.get("/offline/changes?after=soon").status == 400)
    }
}
