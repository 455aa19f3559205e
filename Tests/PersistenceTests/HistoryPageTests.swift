import Foundation
import Testing
@testable import Persistence

/// Pages of history bounded by changes, over one transaction far bigger than a page.
@Suite struct HistoryPageTests {
    static let hugeCount = 200_000

    /// A list (one transaction), then `hugeCount` items and a rename of the list (one transaction),
    /// then one item update (one transaction).
    private static func databaseWithAHugeTransaction(_ directory: TemporaryDirectory) throws -> Database {
        let database = try makeDatabaseWithOneList(directory)
        try database.write(author: "import") { db in
            let insert = try db.prepare("INSERT INTO item(list_id, title) VALUES (1, 'x')")
            for _ in 0..<hugeCount { try insert.execute() }
            try db.execute("UPDATE list SET name = 'Imported'")
        }
        try database.write(author: "app") { db in try db.execute("UPDATE item SET done = 1 WHERE id = 7") }
        return database
    }

    @Test func aHugeTransactionComesInPiecesThatResumeWhereTheyStopped() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.databaseWithAHugeTransaction(directory)
        let whole = try database.fetchHistory(after: 0)
        var pieces: [HistoryPiece] = []
        var cursor = HistoryCursor(token: 0)
        var pageCount = 0
        while true {
            let page = try database.historyPage(after: cursor, limit: 1000)
            #expect(page.pieces.reduce(0) { $0 + $1.transaction.changes.count } <= 1000)
            pieces += page.pieces
            pageCount += 1
            // The cursor goes through its text form, as a client passes it back.
            cursor = try #require(HistoryCursor(page.cursor.description))
            if !page.hasMore { break }
        }
        #expect(pageCount >= Self.hugeCount / 1000)
        #expect(cursor == HistoryCursor(token: try database.latestHistoryToken()))
        // Put back together, the pieces are the transactions, every change once and in order.
        let tokens = pieces.map(\.transaction.token).reduce(into: [Int64]()) { if $0.last != $1 { $0.append($1) } }
        #expect(tokens == whole.map(\.token))
        for transaction in whole {
            let parts = pieces.filter { $0.transaction.token == transaction.token }
            #expect(parts.flatMap(\.transaction.changes) == transaction.changes)
            #expect(parts.map(\.continues) == Array(repeating: true, count: parts.count - 1) + [false])
            #expect(parts.allSatisfy { $0.transaction.author == transaction.author })
        }
        let middle = try #require(pieces.first { $0.continues })
        #expect(middle.cursor.change != nil && middle.cursor.token == whole[1].token)
    }

    /// Only the rename of the list matches, after 200,000 items: each page looks at a bounded
    /// number of rows, so it takes several pages, each as cheap as the next.
    @Test func anEntityFilterOverAHugeTransactionLooksAtBoundedRowsPerPage() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.databaseWithAHugeTransaction(directory)
        let first = try database.fetchHistory(after: 0, limit: 1)[0].token
        var cursor = HistoryCursor(token: first)
        var found: [HistoryChange] = []
        var pageCount = 0
        while pageCount < 100 {
            let (page, steps) = try countingSteps(database) { db in
                try HistoryStore.page(after: cursor, authors: .any, entities: ["list"], limit: 100, on: db)
            }
            #expect(steps < 40 * HistoryStore.changeRowsPerPage, "page \(pageCount)")
            found += page.pieces.flatMap(\.transaction.changes)
            cursor = page.cursor
            pageCount += 1
            if !page.hasMore { break }
        }
        #expect(found == [HistoryChange(entity: "list", rowID: 1, kind: .update)])
        #expect(pageCount > Self.hugeCount / HistoryStore.changeRowsPerPage)
    }

    /// The first and last change of a transaction are found by index probes, not by walking it; and
    /// "did anything I read change?" stays an index probe per transaction with a huge one after the token.
    @Test func findingAHugeTransactionsChangesAndAskingForChangesAreBounded() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.databaseWithAHugeTransaction(directory)
        let first = try database.fetchHistory(after: 0, limit: 1)[0].token
        let (answers, steps) = try countingSteps(database) { db in
            (try HistoryStore.changeRows(of: first + 1, on: db),
             try [["list"], ["nothing"], nil].map { try HistoryStore.hasChanges(to: $0, after: first, on: db) })
        }
        #expect(answers.0?.count == Self.hugeCount + 1)
        #expect(answers.1 == [true, false, true])
        #expect(steps < 1000)
    }

    /// A client that changes its filter keeps its cursor: what the new filter leaves out of the
    /// transaction the cursor stands in is skipped, not sent.
    @Test func aCursorInsideATransactionTheFilterNoLongerKeepsMovesOn() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        try database.write(author: "import") { db in
            try db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) INSERT INTO item(list_id, title) SELECT 1, 'x' FROM n")
        }
        try database.write(author: "app") { db in try db.execute("UPDATE list SET name = 'B'") }
        let start = try database.fetchHistory(after: 0, limit: 1)[0].token
        let inside = try database.historyPage(after: HistoryCursor(token: start), limit: 1000).cursor
        #expect(inside.token == start + 1 && inside.change != nil)
        let page = try database.historyPage(after: inside, authors: ["app"], limit: 1000)
        #expect(page.pieces.map(\.transaction.author) == ["app"])
        #expect(page.pieces.flatMap(\.transaction.changes).prefix(2) == [HistoryChange(entity: "list", rowID: 1, kind: .update)])
    }

    @Test func cursorsReadBackTheirTextAndRefuseAnythingElse() {
        #expect(HistoryCursor("14") == HistoryCursor(token: 14))
        #expect(HistoryCursor("14:1200") == HistoryCursor(token: 14, change: 1200))
        #expect(HistoryCursor(token: 14, change: 1200).description == "14:1200")
        for bad in ["", "-1", "14:", ":3", "14:-2", "14:3:4", "soon", "1.5"] {
            #expect(HistoryCursor(bad) == nil, "\(bad)")
        }
    }
}
