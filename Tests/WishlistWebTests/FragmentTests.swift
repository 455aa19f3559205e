import Foundation
@testable import Persistence
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// Fragments are the unit of the web layer: a page reads all of its own in one transaction,
/// and shows exactly the bytes its live updates send for the same data.
@Suite(.serialized) struct FragmentTests {
    @Test(arguments: ["/", "/goals", "/trips/:sample", "/trips/:sample?edit=1", "/collections/summerVibes", "/search?q=a"])
    func aScreenIsReadInOneTransaction(path: String) throws {
        let server = try AppHarness()
        defer { server.stop() }
        let target = path.replacingOccurrences(of: ":sample", with: String(try server.trip(named: "Japan Mystique").id))
        let before = server.store.database.readTransactionCount.load(ordering: .relaxed)
        let reply = try server.client.get(target)
        #expect(reply.status == 200)
        #expect(server.store.database.readTransactionCount.load(ordering: .relaxed) - before == 1)
    }

    /// Every live fragment of a page, as `/events` sends it for the page's token, stands in the
    /// page byte for byte (but for the viewer's CSRF token, which the page's script fills in).
    @Test(arguments: ["/", "/goals", "/trips/:sample", "/trips/:sample?edit=1"])
    func aPageShowsItsFragmentsAsTheirLiveUpdatesSendThem(path: String) throws {
        let server = try LiveServer()
        defer { server.stop() }
        let target = path.replacingOccurrences(of: ":sample", with: String(try server.trip(named: "Japan Mystique").id))
        let page = try server.get(target)
        let html = page.text
        let token = try #require(page.cookie("csrf_token"))
        let topics = try #require(Self.attribute("data-live-topics", in: html)).split(separator: " ").map(String.init)
        #expect(!topics.isEmpty)

        // Since 0, every topic has changed (the seed): the stream sends each fragment as it is now.
        let client = try SocketClient.openEvents("/events?topics=\(topics.joined(separator: "%20"))&since=0", port: server.port)
        defer { client.disconnect() }
        _ = try client.nextEvent(named: "ready")
        for _ in topics {
            let fragment = try client.nextEvent(named: "fragment").json()
            let live = try #require(fragment["html"] as? String)
            let withToken = live.replacingOccurrences(of: "name=\"_csrf\" value=\"\"", with: "name=\"_csrf\" value=\"\(token)\"")
            #expect(html.contains(withToken), "fragment \(fragment["target"] ?? "?") differs from the page's")
            #expect(html.contains("id=\"\(fragment["target"] as? String ?? "")\""))
        }
    }

    @Test func theAPIsTripIsTheTripPagesChecklist() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let trip = try server.trip(named: "Japan Mystique")
        try server.store.setActivitySortOrder(.completed)
        let json = try JSONSerialization.jsonObject(with: Data(try server.client.get("/api/trips/\(trip.id)").body)) as? [String: Any]
        let apiNames = (json?["activities"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        let checklist = try #require(try server.store.fetch(ActivityListFragment(tripID: trip.id).query))
        #expect(apiNames == checklist.activities.map(\.name))
        let page = try server.client.get("/trips/\(trip.id)").text
        let positions = checklist.activities.map { activity in page.range(of: "id=\"activity-\(activity.id)\"")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\"") else { return nil }
        guard let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(html[start.upperBound..<end])
    }
}
