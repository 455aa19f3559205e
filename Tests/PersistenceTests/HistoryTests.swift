import Foundation
import Testing
@testable import Persistence

@Suite struct HistoryTests {
    private func makeDatabase(_ directory: TemporaryDirectory) throws -> Database {
        try Database(path: directory.path("history.sqlite"), migrations: TestSchema.all)
    }

    @Test func recordsAuthorTimestampAndEachChangedRow() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        let before = Date()
        try database.write(author: "alice") { db throws in
            try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')")
            try db.execute("INSERT INTO item(id, list_id, title) VALUES (10, 1, 'x'), (11, 1, 'y')")
        }
        try database.write(author: "bob") { db throws in
            try db.execute("UPDATE item SET done = 1 WHERE id = 10")
            try db.execute("DELETE FROM item WHERE id = 11")
        }
        let history = try database.fetchHistory(after: 0)
        #expect(history.map(\.author) == ["alice", "bob"])
        #expect(history[0].token < history[1].token)
        #expect(history[0].timestamp.timeIntervalSince(before) > -1)
        #expect(history[0].changes == [
            HistoryChange(entity: "list", rowID: 1, kind: .insert),
            HistoryChange(entity: "item", rowID: 10, kind: .insert),
            HistoryChange(entity: "item", rowID: 11, kind: .insert),
        ])
        #expect(history[1].changes == [
            HistoryChange(entity: "item", rowID: 10, kind: .update),
            HistoryChange(entity: "item", rowID: 11, kind: .delete),
        ])
        #expect(try database.latestHistoryToken() == history[1].token)
        #expect(try database.fetchHistory(after: history[0].token).map(\.token) == [history[1].token])
    }

    @Test func keepsTheNetChangeOfEachRowWithinATransaction() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (1, 'A'), (2, 'B')") }
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO list(id, name) VALUES (3, 'C')")
            try db.execute("UPDATE list SET name = 'C2' WHERE id = 3")   // insert + update = insert
            try db.execute("INSERT INTO list(id, name) VALUES (4, 'D')")
            try db.execute("DELETE FROM list WHERE id = 4")               // insert + delete = nothing
            try db.execute("UPDATE list SET name = 'A2' WHERE id = 1")
            try db.execute("UPDATE list SET name = 'A3' WHERE id = 1")   // update + update = update
            try db.execute("UPDATE list SET name = 'B2' WHERE id = 2")
            try db.execute("DELETE FROM list WHERE id = 2")               // update + delete = delete
        }
        let last = try #require(try database.fetchHistory(after: 0).last)
        #expect(last.changes == [
            HistoryChange(entity: "list", rowID: 3, kind: .insert),
            HistoryChange(entity: "list", rowID: 1, kind: .update),
            HistoryChange(entity: "list", rowID: 2, kind: .delete),
        ])
    }

    /// Answer to "does the update hook report rows deleted by a foreign-key cascade?": yes.
    @Test func cascadeDeletesAreRecorded() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')")
            try db.execute("INSERT INTO item(id, list_id, title) VALUES (10, 1, 'x'), (11, 1, 'y')")
        }
        try database.write(author: "cleaner") { db in try db.execute("DELETE FROM list WHERE id = ?", [1]) }
        let last = try #require(try database.fetchHistory(after: 0).last)
        #expect(last.author == "cleaner")
        #expect(Set(last.changes.map { "\($0.entity)/\($0.rowID)/\($0.kind)" }) == ["list/1/delete", "item/10/delete", "item/11/delete"])
    }

    /// `DELETE FROM t` without WHERE on a table without triggers or foreign keys would use
    /// SQLite's truncate optimization, which bypasses the update hook.
    @Test func deletingEveryRowRecordsEachRow() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("truncate.sqlite"), migrations: [
            Migration(version: 1, name: "plain") { db in try db.execute("CREATE TABLE plain(id INTEGER PRIMARY KEY)") },
        ])
        try database.write(author: "test") { db in try db.execute("INSERT INTO plain(id) VALUES (1), (2)") }
        try database.write(author: "test") { db in try db.execute("DELETE FROM plain") }
        let history = try database.fetchHistory(after: 0)
        #expect(history.count == 2)
        #expect(history.last?.changes.map(\.rowID).sorted() == [1, 2])
        #expect(history.last?.changes.allSatisfy { $0.kind == .delete } == true)
    }

    @Test func aWriteThatChangesNothingRecordsNothing() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')") }
        let token = try database.latestHistoryToken()
        try database.write(author: "test") { db throws in
            try db.execute("UPDATE list SET name = 'B' WHERE id = 42")
            _ = try db.fetchAll("SELECT * FROM list")
        }
        #expect(try database.latestHistoryToken() == token)
        #expect(try database.fetchHistory(after: token).isEmpty)
    }

    @Test func filtersByAuthorsAndEntities() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        try database.write(author: "alice") { db in try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')") }
        try database.write(author: "bob") { db throws in
            try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')")
            try db.execute("INSERT INTO item(id, list_id, title) VALUES (20, 2, 'x')")
        }
        try database.write(author: "carol") { db in try db.execute("UPDATE list SET name = 'A2' WHERE id = 1") }

        #expect(try database.fetchHistory(after: 0, authors: ["alice", "carol"]).map(\.author) == ["alice", "carol"])
        let itemHistory = try database.fetchHistory(after: 0, entities: ["item"])
        #expect(itemHistory.map(\.author) == ["bob"])
        #expect(itemHistory.first?.changes == [HistoryChange(entity: "item", rowID: 20, kind: .insert)])
        #expect(try database.fetchHistory(after: 0, authors: ["alice"], entities: ["item"]).isEmpty)
        #expect(try database.fetchHistory(after: 0, limit: 2).map(\.author) == ["alice", "bob"])
        #expect(try database.fetchHistory(after: 0, authors: []).isEmpty)
    }

    /// A sync client writes as its own author and reads everyone else's changes.
    @Test func excludingAuthorsKeepsEveryOtherAuthor() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        for (id, author) in [(1, "app"), (2, "token:sync"), (3, "import"), (4, "token:sync")] {
            try database.write(author: author) { db in try db.execute("INSERT INTO list(id, name) VALUES (?, 'L')", [id]) }
        }
        #expect(try database.fetchHistory(after: 0, authors: .excluding(["token:sync"])).map(\.author) == ["app", "import"])
        #expect(try database.fetchHistory(after: 0, authors: .excluding(["token:sync", "app"])).map(\.author) == ["import"])
        #expect(try database.fetchHistory(after: 0, authors: .excluding([])).count == 4)
        let page = try database.historyPage(after: HistoryCursor(token: 0), authors: .excluding(["app", "import"]), limit: 10)
        #expect(page.pieces.map(\.transaction.author) == ["token:sync", "token:sync"])
        #expect(page.cursor.token == page.newestToken && !page.hasMore)
    }

    @Test func tokensKeepGrowingAcrossReopening() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tokens.sqlite")
        var first = try Database(path: path, migrations: TestSchema.all)
        try first.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES ('A')") }
        let token = try first.latestHistoryToken()
        first.close()
        first = try Database(path: path, migrations: TestSchema.all)
        try first.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES ('B')") }
        #expect(try first.latestHistoryToken() > token)
    }

    @Test func shadowTablesOfFullTextIndexesAreNotHistory() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("fts.sqlite"), migrations: [
            Migration(version: 1, name: "search") { db in
                try db.execute("CREATE VIRTUAL TABLE note_search USING fts5(body, tokenize = 'trigram')")
            },
        ])
        try database.write(author: "test") { db in try db.execute("INSERT INTO note_search(rowid, body) VALUES (?, ?)", [7, "hello"]) }
        #expect(try database.fetchHistory(after: 0).isEmpty)
        #expect(try database.read { db in try db.fetchScalar(Int.self, "SELECT rowid FROM note_search WHERE body MATCH 'ell'") } == 7)
    }
}
