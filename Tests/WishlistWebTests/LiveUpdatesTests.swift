import Foundation
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// The live-update hub through a real server and real sockets, over the seeded sample data.
@Suite(.serialized) struct LiveUpdatesTests {
    static let goalTopics = "goals-achieved%20goals-upcoming"

    /// A trip whose header serves as a sentinel: renaming it changes nothing the goals show.
    static let sentinelTrip = "Japan Mystique"

    /// Renames the sentinel trip (a commit of its own) and returns the fragment targets `client`
    /// received before the sentinel's header. Commits are observed in order, so every fragment
    /// of an earlier commit arrives before it: no waiting and guessing.
    static func targetsBeforeSentinel(_ server: LiveServer, _ trip: Trip, on client: SocketClient, renamingTo name: String) throws -> [String] {
        try server.store.updateTrip(id: trip.id, draft: TripDraft(name: name, collection: trip.collection))
        var targets: [String] = []
        while true {
            let fragment = try client.nextEvent(named: "fragment").json()
            if fragment["target"] as? String == "trip-header", (fragment["html"] as? String)?.contains(name) == true {
                return targets
            }
            targets.append(fragment["target"] as? String ?? "")
        }
    }

    @Test func crossingAGoalSendsOneFragmentPerGoalTopicAndASortChangeSendsNone() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let tenth = try server.activity(named: AppHarness.tenthActivity)
        let sentinel = try server.trip(named: Self.sentinelTrip)
        let client = try SocketClient.openEvents("/events?topics=\(Self.goalTopics)%20trip-header.\(sentinel.id)", port: server.port)
        let ready = try client.nextEvent()
        #expect(ready.name == "ready")
        #expect(client.streamReceived.contains("retry: \(LiveUpdates.retryMilliseconds)\n"))

        try server.store.setActivitySortOrder(.completed)
        #expect(try Self.targetsBeforeSentinel(server, sentinel, on: client, renamingTo: "Japan One") == [])

        try server.store.setActivityComplete(id: tenth.id, true)
        #expect(try Self.targetsBeforeSentinel(server, sentinel, on: client, renamingTo: "Japan Two").sorted() == ["goals-achieved", "goals-upcoming"])
    }

    @Test func theAchievedFragmentShowsTheNewBadgeWithTheTokenOfItsCommit() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let client = try SocketClient.openEvents("/events?topics=goals-achieved", port: server.port)
        _ = try client.nextEvent(named: "ready")
        try server.store.setActivityComplete(id: try server.activity(named: AppHarness.tenthActivity).id, true)

        let event = try client.nextEvent(named: "fragment")
        let fragment = try event.json()
        #expect(fragment["target"] as? String == "goals-achieved")
        #expect((fragment["html"] as? String)?.contains("10 Activities") == true)
        #expect(event.id == String(try server.store.database.latestHistoryToken()))
    }

    @Test func resumingWithLastEventIDSendsWhatWasMissedAndNothingElse() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let tenth = try server.activity(named: AppHarness.tenthActivity)
        let before = try server.store.database.latestHistoryToken()
        try server.store.setActivityComplete(id: tenth.id, true)

        // Missed: the goal was crossed after `before`.
        let missed = try SocketClient.openEvents("/events?topics=\(Self.goalTopics)", port: server.port,
                                               headers: ["Last-Event-ID": String(before)])
        let resent = [try missed.nextEvent(named: "fragment"), try missed.nextEvent(named: "fragment")]
        #expect(Set(resent.compactMap { try? $0.json()["target"] as? String }) == ["goals-achieved", "goals-upcoming"])
        #expect(resent.allSatisfy { $0.id == String(before + 1) })

        // Up to date: nothing before the next commit's fragment.
        let sentinel = try server.trip(named: Self.sentinelTrip)
        let current = try SocketClient.openEvents("/events?topics=\(Self.goalTopics)%20trip-header.\(sentinel.id)",
                                                port: server.port, headers: ["Last-Event-ID": String(before + 1)])
        _ = try current.nextEvent(named: "ready")
        #expect(try Self.targetsBeforeSentinel(server, sentinel, on: current, renamingTo: "Japan Again") == [])
    }

    @Test func aClosedClientIsNoticedAtTheNextHeartbeatAndUnsubscribed() throws {
        let server = try LiveServer(heartbeatInterval: 0.05)
        defer { server.stop() }
        let client = try SocketClient.openEvents("/events?topics=\(Self.goalTopics)", port: server.port)
        _ = try client.nextEvent(named: "ready")
        #expect(waitUntil { server.app.live.subscriberCount == 2 })
        client.disconnect()
        #expect(waitUntil { server.app.live.subscriberCount == 0 })
    }

    @Test func twoThousandSubscribersAllReceiveTheChange() throws {
        let clientCount = 2_000
        try #require(raiseOpenFileLimit() > 2 * clientCount + 100, "too few file descriptors for \(clientCount) streams")
        let server = try LiveServer(streamsFromOneClient: clientCount)
        defer { server.stop() }
        let clients = try (0..<clientCount).map { _ in
            try SocketClient.openEvents("/events?topics=goals-achieved", port: server.port)
        }
        #expect(waitUntil { server.app.live.subscriberCount == clientCount })
        try server.store.setActivityComplete(id: try server.activity(named: AppHarness.tenthActivity).id, true)
        let received = try clients.filter { client in
            try client.nextEvent(named: "fragment").json()["target"] as? String == "goals-achieved"
        }
        #expect(received.count == clientCount)
    }

    @Test func userTextIsEscapedInsideTheFragmentAndCannotBreakTheStream() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let trip = try server.activity(named: AppHarness.tenthActivity).tripID
        let hostile = #"</script><img src=x onerror=alert(1)>"}, "target": "x"#
        #expect(throws: ValidationError.self) { try server.store.addActivity(tripID: trip, name: "Surf\ndata: x") }
        #expect(throws: ValidationError.self) { try server.store.addActivity(tripID: trip, name: "Surf\revent: x") }

        let client = try SocketClient.openEvents("/events?topics=activity-list.\(trip)", port: server.port)
        _ = try client.nextEvent(named: "ready")
        try server.store.addActivity(tripID: trip, name: hostile)
        let fragment = try client.nextEvent(named: "fragment").json()
        let html = try #require(fragment["html"] as? String)
        #expect(fragment["target"] as? String == "activity-list")
        #expect(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!html.contains("<img src=x"))
        // Every line of the event is a field: the JSON carries no raw line break.
        let eventLines = client.streamReceived.split(separator: "\n").filter { !$0.isEmpty }
        #expect(eventLines.allSatisfy { line in ["id:", "event:", "data:", "retry:"].contains { line.hasPrefix($0) } })
    }

    @Test func aCommitByAnotherStoreOnTheSameFileIsPushed() throws {
        let server = try LiveServer(watchExternalChanges: true)
        defer { server.stop() }
        // The watcher polls; on a loaded machine its wake-up can lag, so wait longer than the default.
        let client = try SocketClient.openEvents("/events?topics=goals-achieved", port: server.port, timeoutSeconds: 15)
        _ = try client.nextEvent(named: "ready")
        // As `wishlist import` or another tool would: a separate connection, no update hooks here.
        let otherProcess = try WishlistStore(path: server.databasePath)
        defer { otherProcess.close() }
        try otherProcess.setActivityComplete(id: try server.activity(named: AppHarness.tenthActivity).id, true)

        let fragment = try client.nextEvent(named: "fragment").json()
        #expect(fragment["target"] as? String == "goals-achieved")
        #expect((fragment["html"] as? String)?.contains("10 Activities") == true)
    }

    @Test func unknownOrTooManyTopicsAreRefused() throws {
        let server = try LiveServer()
        defer { server.stop() }
        #expect(try SocketClient.get("/events?topics=goals-everything", port: server.port).status == 400)
        #expect(try SocketClient.get("/events?topics=", port: server.port).status == 400)
        let seventeen = Array(repeating: "carousel", count: LiveUpdates.maxTopicsPerStream + 1).joined(separator: "%20")
        #expect(try SocketClient.get("/events?topics=\(seventeen)", port: server.port).status == 400)
    }
}
