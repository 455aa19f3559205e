import Foundation
@testable import Persistence
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// A topic costs the notification queue work only while a stream follows it: the observer of a
/// topic whose last stream left runs no query (and renders nothing) after a commit.
@Suite(.serialized) struct LiveTopicLifetimeTests {
    /// Read transactions from crossing the tenth-activity goal (and back) to the sentinel trip's
    /// renamed header arriving on `sentinel`: commits are observed in order, so by then every
    /// observer has re-run for both commits.
    static func readsForAGoalChange(_ server: LiveServer, sentinel: SocketClient, trip: Trip, complete: Bool, renamingTo name: String) throws -> Int {
        let before = server.store.database.readTransactionCount.load(ordering: .relaxed)
        try server.store.setActivityComplete(id: try server.activity(named: AppHarness.tenthActivity).id, complete)
        _ = try LiveUpdatesTests.targetsBeforeSentinel(server, trip, on: sentinel, renamingTo: name)
        return server.store.database.readTransactionCount.load(ordering: .relaxed) - before
    }

    @Test func aTopicWhoseLastStreamLeftRunsNoQueryAfterACommit() throws {
        let server = try LiveServer(heartbeatInterval: 0.05)
        defer { server.stop() }
        let trip = try server.trip(named: LiveUpdatesTests.sentinelTrip)
        let sentinel = try SocketClient.openEvents("/events?topics=trip-header.\(trip.id)", port: server.port)
        _ = try sentinel.nextEvent(named: "ready")
        let goals = try SocketClient.openEvents("/events?topics=goals-achieved", port: server.port)
        _ = try goals.nextEvent(named: "ready")
        #expect(waitUntil { server.app.live.subscriberCount == 2 })

        let followed = try Self.readsForAGoalChange(server, sentinel: sentinel, trip: trip, complete: true, renamingTo: "Japan One")
        goals.disconnect()
        // The departed client is noticed at the next heartbeat.
        #expect(waitUntil { server.app.live.subscriberCount == 1 })
        let unfollowed = try Self.readsForAGoalChange(server, sentinel: sentinel, trip: trip, complete: false, renamingTo: "Japan Two")

        // The goals-achieved query ran for its commit while followed, and not once it was not.
        #expect(followed == unfollowed + 1)
    }
}
