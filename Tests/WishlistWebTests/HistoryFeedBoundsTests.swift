import Foundation
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// The history feed over a transaction far bigger than a page or a stream's buffer (an import),
/// and a client whose token is from another history.
@Suite(.serialized) struct HistoryFeedBoundsTests {
    static let importedCount = 40_000

    /// One transaction by `import` of `importedCount` preferences (about 2 MB of changes in JSON,
    /// twice a stream's buffer); returns the token before it.
    static func importHugeTransaction(_ server: LiveServer) throws -> Int64 {
        let before = try server.store.database.latestHistoryToken()
        try server.store.database.write(author: "import") { db in
            let insert = try db.prepare("INSERT INTO Preference(key, value) VALUES (?, 'x')")
            for index in 0..<importedCount { try insert.execute(["bulk-\(index)"]) }
        }
        return before
    }

    static func changes(_ transaction: [String: Any]) -> [[String: Any]] {
        transaction["changes"] as? [[String: Any]] ?? []
    }

    @Test func aPageOfAHugeTransactionIsAPieceOfItWithACursorInsideIt() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let before = try Self.importHugeTransaction(server)

        let reply = try SocketClient.get("/api/history?after=\(before)&limit=1", port: server.port)
        #expect(reply.status == 200)
        #expect(reply.body.count < 1000)
        let page = try reply.json()
        let piece = try #require(HistoryFeedTests.transactions(page).first)
        #expect(Self.changes(piece).count == 1)
        #expect(piece["continues"] as? Bool == true)
        #expect(page["hasMore"] as? Bool == true)
        // Nothing of the import is whole yet; the cursor stands inside it.
        #expect(HistoryFeedTests.latestToken(page) == before)
        let cursor = try #require(page["cursor"] as? String)
        #expect(cursor.hasPrefix("\(before + 1):"))

        let next = try HistoryFeedTests.page("after=\(cursor)&limit=\(HistoryRoutes.maxPageSize)", server)
        let nextPiece = try #require(HistoryFeedTests.transactions(next).first)
        #expect(Self.changes(nextPiece).count == HistoryRoutes.maxPageSize)
        #expect(Self.changes(nextPiece).first?["id"] as? NSNumber != Self.changes(piece).first?["id"] as? NSNumber)
        #expect(HistoryFeedTests.transactions(try HistoryFeedTests.page("after=\(before)", server)).first
            .map(Self.changes)?.count == HistoryRoutes.defaultPageSize)
    }

    @Test func theStreamSendsAHugeTransactionInPiecesAndResumesInsideIt() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let before = try Self.importHugeTransaction(server)

        let stream = try SocketClient.openEvents("/api/history/stream?after=\(before)", port: server.port)
        var received = 0
        var ids: [String] = []
        while true {
            let event = try stream.nextEvent(named: "transaction")
            let piece = try event.json()
            #expect(HistoryFeedTests.tokens(["transactions": [piece]]) == [before + 1])
            received += Self.changes(piece).count
            ids.append(event.id ?? "")
            if piece["continues"] as? Bool == false { break }
        }
        #expect(received == Self.importedCount)
        #expect(ids.count >= Self.importedCount / HistoryRoutes.maxPageSize)
        #expect(ids.last == String(before + 1))
        stream.disconnect()

        // Back from the middle: the rest of the transaction, from the change after the last seen.
        let middle = ids.count / 2
        let again = try SocketClient.openEvents("/api/history/stream?after=0", port: server.port,
                                              headers: ["Last-Event-ID": ids[middle - 1]])
        var rest = 0
        while true {
            let piece = try again.nextEvent(named: "transaction").json()
            rest += Self.changes(piece).count
            if piece["continues"] as? Bool == false { break }
        }
        #expect(rest == Self.importedCount - middle * HistoryRoutes.maxPageSize)
    }

    @Test func aTokenNewerThanTheHistoryIsAConflictSayingSo() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let future = try server.store.database.latestHistoryToken() + 5
        for (target, headers) in [("/api/history?after=\(future)", [:]), ("/api/history?after=\(future):3", [:]),
                                  ("/api/history/stream", ["Last-Event-ID": String(future)])] {
            let reply = try SocketClient.get(target, port: server.port, headers: headers)
            #expect(reply.status == 409, "\(target)")
            let message = (try reply.json()["error"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("restored") == true, "\(target)")
        }
        #expect(try SocketClient.get("/api/history?after=\(future - 5)", port: server.port).status == 200)
    }

    /// The client saw changes a restore took back; the server has committed more since, so its
    /// token is no longer from the future, and yet going on from it would leave those changes
    /// standing on the client's side.
    @Test func aTokenARestoreTookBackIsAConflictAfterLaterCommitsToo() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let database = server.store.database
        try database.backup(to: server.directory + "/old.sqlite")
        let activity = try server.activity(named: AppHarness.tenthActivity)
        try server.store.setActivityComplete(id: activity.id, true)
        let seen = try database.latestHistoryToken()
        try database.restore(from: server.directory + "/old.sqlite")
        try server.store.setActivityComplete(id: activity.id, true)
        try server.store.setActivityComplete(id: activity.id, false)
        #expect(try database.latestHistoryToken() > seen)

        let reply = try server.client.get("/api/history?after=\(seen)")
        #expect(reply.status == 409)
        #expect(((try reply.json()["error"] as? [String: Any])?["message"] as? String)?.contains("restored") == true)
        #expect(try server.client.get("/api/history?after=\(seen + 1)").status == 200)
    }
}
