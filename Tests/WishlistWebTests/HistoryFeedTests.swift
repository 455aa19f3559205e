import Foundation
import HTTPServer
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// `/api/history` in process and `/api/history/stream` through a real server, over the seeded data.
@Suite(.serialized) struct HistoryFeedTests {
    static func page(_ query: String, _ server: AppHarness) throws -> [String: Any] {
        let reply = try server.client.get("/api/history?\(query)")
        guard reply.status == 200 else { throw TestFailure("\(reply.status): \(reply.text)") }
        return try reply.json()
    }

    static func transactions(_ page: [String: Any]) -> [[String: Any]] {
        page["transactions"] as? [[String: Any]] ?? []
    }

    static func tokens(_ page: [String: Any]) -> [Int64] {
        transactions(page).compactMap { ($0["token"] as? NSNumber)?.int64Value }
    }

    static func latestToken(_ page: [String: Any]) -> Int64? {
        (page["latestToken"] as? NSNumber)?.int64Value
    }

    @Test func aCheckOffIsOneTransactionByTheAppWithItsChanges() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let before = try server.store.database.latestHistoryToken()
        let activity = try server.activity(named: AppHarness.tenthActivity)
        try server.store.setActivityComplete(id: activity.id, true)

        let page = try Self.page("after=\(before)", server)
        let transaction = try #require(Self.transactions(page).first)
        #expect(Self.tokens(page) == [before + 1])
        #expect(Self.latestToken(page) == before + 1)
        #expect(page["hasMore"] as? Bool == false)
        #expect(transaction["author"] as? String == WishlistStore.appAuthor)
        let timestamp = try #require(transaction["timestamp"] as? String)
        let date = try #require(try? Date(timestamp, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        #expect(abs(date.timeIntervalSinceNow) < 60)
        let changes = try #require(transaction["changes"] as? [[String: Any]])
        #expect(changes.contains { $0["entity"] as? String == "Activity" && ($0["id"] as? NSNumber)?.int64Value == activity.id
            && $0["kind"] as? String == "update" })
        #expect(changes.contains { $0["entity"] as? String == "Goal" })
    }

    @Test func filtersKeepMatchingTransactionsAndOnlyTheirMatchingChanges() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let before = try server.store.database.latestHistoryToken()
        try server.store.setActivitySortOrder(.completed)
        try server.store.setActivityComplete(id: try server.activity(named: AppHarness.tenthActivity).id, true)

        let goals = try Self.page("after=\(before)&entities=Goal", server)
        #expect(Self.tokens(goals) == [before + 2])
        let entities = Self.transactions(goals).flatMap { $0["changes"] as? [[String: Any]] ?? [] }.map { $0["entity"] as? String }
        #expect(!entities.isEmpty && entities.allSatisfy { $0 == "Goal" })
        // Nothing matching is left up to the newest token, so a client may skip to it.
        #expect(Self.latestToken(goals) == before + 2)

        #expect(Self.tokens(try Self.page("after=\(before)&entities=Preference,TripImage", server)) == [before + 1])
        #expect(Self.tokens(try Self.page("after=0&authors=import", server)) == [])
        let seed = try Self.page("after=0&authors=seed,import", server)
        #expect(Self.tokens(seed) == [1])
        #expect(Self.latestToken(seed) == before + 2)
    }

    @Test func pagesFollowedByLatestTokenCoverEverythingOnce() throws {
        let server = try AppHarness()
        defer { server.stop() }
        for name in ["Wake early", "Find coffee", "Walk the pier"] {
            try server.store.addActivity(tripID: try server.trip(named: "Japan Mystique").id, name: name)
        }
        let whole = Self.tokens(try Self.page("after=0&limit=1000", server))
        var paged: [Int64] = []
        var after = "0"
        while true {
            let page = try Self.page("after=\(after)&limit=2", server)
            // A transaction of more than two changes comes in pieces, one page after another.
            paged += Self.tokens(page).filter { $0 != paged.last }
            after = try #require(page["cursor"] as? String)
            if page["hasMore"] as? Bool != true { break }
        }
        #expect(whole.count == 4)
        #expect(paged == whole)
    }

    @Test func everyRecordedEntityIsOneTheFilterAccepts() throws {
        let server = try AppHarness()
        defer { server.stop() }
        try server.store.setActivitySortOrder(.completed)
        try server.store.deleteTrip(id: try server.trip(named: "Japan Mystique").id)
        let recorded = Set(Self.transactions(try Self.page("after=0&limit=1000", server))
            .flatMap { $0["changes"] as? [[String: Any]] ?? [] }.compactMap { $0["entity"] as? String })
        #expect(recorded.isSuperset(of: ["Trip", "Activity", "Goal", "Preference"]))
        #expect(recorded.isSubset(of: server.store.database.historyEntities))
        // The entities docs/HISTORY-FEED.md names; derived data (TripCollectionCount, the search indexes) is not history.
        #expect(server.store.database.historyEntities == ["Trip", "Activity", "Photo", "TripImage", "Goal", "Preference"])
    }

    static func expectBadRequest(_ target: String, _ server: AppHarness, headers: [String: String] = [:]) throws {
        let reply = try server.client.get(target, headers: headers)
        #expect(reply.status == 400, "\(target)")
        #expect(reply.header("content-type") == "application/json")
        let error = try reply.json()["error"] as? [String: Any]
        #expect((error?["message"] as? String)?.isEmpty == false)
    }

    static let tooManyAuthors = (0...HistoryRoutes.maxAuthors).map { "author\($0)" }.joined(separator: ",")

    @Test(arguments: ["after=-1", "after=soon", "entities=Trips", "entities=Trip,,Goal", "authors=", "authors=app%20seed",
                      "authors=" + tooManyAuthors])
    func badFiltersAreA400WithAMessage(query: String) throws {
        let server = try AppHarness()
        defer { server.stop() }
        try Self.expectBadRequest("/api/history?\(query)", server)
        try Self.expectBadRequest("/api/history/stream?\(query)", server)
    }

    @Test func aPageSizeOutOfBoundsIsA400() throws {
        let server = try AppHarness()
        defer { server.stop() }
        try Self.expectBadRequest("/api/history?limit=0", server)
        try Self.expectBadRequest("/api/history?limit=\(HistoryRoutes.maxPageSize + 1)", server)
    }

    @Test func aStreamResumingFromAMalformedLastEventIDIsA400() throws {
        let server = try AppHarness()
        defer { server.stop() }
        try Self.expectBadRequest("/api/history/stream", server, headers: ["Last-Event-ID": "yesterday"])
    }

    @Test func theStreamSendsWhatFollowsItsTokenThenEachNewMatchingTransaction() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let before = try server.store.database.latestHistoryToken()
        let tenth = try server.activity(named: AppHarness.tenthActivity)
        try server.store.setActivityComplete(id: tenth.id, true)

        let stream = try SocketClient.openEvents("/api/history/stream?after=\(before)&entities=Activity", port: server.port)
        let missed = try stream.nextEvent(named: "transaction")
        #expect(missed.id == String(before + 1))
        #expect((try missed.json()["changes"] as? [[String: Any]])?.map { $0["entity"] as? String } == ["Activity"])

        try server.store.setActivitySortOrder(.completed)  // not an Activity change: not sent
        try server.store.setActivityComplete(id: tenth.id, false)
        let next = try stream.nextEvent(named: "transaction")
        #expect(next.id == String(before + 3))
        #expect(try next.json()["author"] as? String == WishlistStore.appAuthor)
    }

    /// A token revoked while a script follows the history with it: the stream ends at once.
    @Test func revokingATokenEndsItsStreams() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let secret = try BearerToken.make()
        _ = try server.store.addAPIToken(name: "mirror", secretHash: BearerToken.hash(secret))
        let stream = try SocketClient.openEvents("/api/history/stream?after=0", port: server.port,
                                                 headers: ["Authorization": "Bearer \(secret)"], timeoutSeconds: 5)
        _ = try stream.nextEvent(named: "transaction")
        try server.store.revokeAPIToken(name: "mirror")
        try server.store.setActivityComplete(id: try server.activity(named: AppHarness.tenthActivity).id, true)
        let checkOff = try server.store.database.latestHistoryToken()
        // What is left, then the end; a stream still open would time out after 5 s instead.
        let end = #expect(throws: (any Error).self) { while true { _ = try stream.nextEvent() } }
        #expect("\(end.map { "\($0)" } ?? "")".contains("stream ended"))
        #expect(!stream.streamReceived.contains("id: \(checkOff)\n"), "no change after the revoke")
    }

    @Test func aReconnectingStreamResumesFromLastEventID() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let tenth = try server.activity(named: AppHarness.tenthActivity)
        let first = try SocketClient.openEvents("/api/history/stream?after=0", port: server.port)
        let seen = try first.nextEvent(named: "transaction")
        #expect(seen.id == "1")
        first.disconnect()
        try server.store.setActivityComplete(id: tenth.id, true)

        let again = try SocketClient.openEvents("/api/history/stream?after=0&authors=app", port: server.port,
                                              headers: ["Last-Event-ID": seen.id ?? ""])
        let resumed = try again.nextEvent(named: "transaction")
        #expect(resumed.id == String(try server.store.database.latestHistoryToken()))
    }
}
