import Foundation
import Testing
@testable import Persistence

@Suite struct ConnectionTests {
    @Test func writesAndReadsBackEveryValueType() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("values.sqlite"), migrations: [
            Migration(version: 1, name: "values") { db in
                try db.execute("CREATE TABLE value(i INTEGER, r REAL, t TEXT, b BLOB, d REAL, flag INTEGER, n TEXT)")
            },
        ])
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO value VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [Int64.max, 2.5, "Zürich 🏔", [UInt8]([0, 1, 255]), date, true, String?.none])
            try db.execute("INSERT INTO value VALUES (?, ?, ?, ?, ?, ?, ?)", [0, 0.0, "", Data(), date, false, "x"])
        }
        let rows = try database.read { db in try db.fetchAll("SELECT * FROM value ORDER BY rowid") }
        #expect(rows.count == 2)
        #expect(rows[0]["i"] as Int64 == Int64.max)
        #expect(rows[0]["r"] as Double == 2.5)
        #expect(rows[0]["t"] as String == "Zürich 🏔")
        #expect(rows[0]["b"] as [UInt8] == [0, 1, 255])
        #expect(rows[0]["d"] as Date == date)
        #expect(rows[0]["flag"] as Bool == true)
        #expect(rows[0]["n"] as String? == nil)
        #expect(rows[1]["t"] as String == "")
        #expect(rows[1]["b"] as Data == Data())
        #expect(rows[1]["flag"] as Bool == false)
        #expect(rows[1]["n"] as String? == "x")
        #expect(rows[1][0] as Int == 0)
        #expect(rows[0].columnNames == ["i", "r", "t", "b", "d", "flag", "n"])
    }

    @Test func decodeThrowsANamedErrorOnMismatch() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("decode.sqlite"), migrations: [])
        let row = try #require(try database.read { db in try db.fetchOne("SELECT 'abc' AS name, NULL AS missing") })
        #expect(throws: RowDecodingError.self) { try row.decode("name", as: Int.self) }
        #expect(throws: RowDecodingError.self) { try row.decode("nope", as: String.self) }
        #expect(try row.decode("missing", as: Int?.self) == nil)
        do {
            _ = try row.decode("name", as: Int.self)
        } catch {
            #expect("\(error)".contains("name") && "\(error)".contains("Int"))
        }
    }

    @Test func fetchesScalarsAndRecords() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("records.sqlite"), migrations: TestSchema.all)
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO list(name) VALUES (?)", ["Groceries"])
            let listID = db.lastInsertedRowID
            for title in ["milk", "bread", "eggs"] {
                try db.execute("INSERT INTO item(list_id, title) VALUES (?, ?)", [listID, title])
            }
            try db.execute("UPDATE item SET done = 1 WHERE title != ?", ["milk"])
            #expect(db.changes == 2)
        }
        try database.read { db throws in
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM item") == 3)
            #expect(try db.fetchScalar(Int.self, "SELECT id FROM item WHERE title = ?", ["tea"]) == nil)
            let items = try db.fetchAll(Item.self, "SELECT * FROM item WHERE done = ? ORDER BY title", [true])
            #expect(items.map(\.title) == ["bread", "eggs"])
            let milk = try db.fetchOne(Item.self, "SELECT * FROM item WHERE title = ?", ["milk"])
            #expect(milk?.done == false)
        }
    }

    @Test func wrongArgumentCountAndBadSQLThrowClearErrors() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("errors.sqlite"), migrations: TestSchema.all)
        let error = try #require(throws: DatabaseError.self) {
            try database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", []) }
        }
        #expect(error.description.contains("parameter"))
        let constraint = try #require(throws: DatabaseError.self) {
            try database.write(author: "test") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (?, ?)", [42, "orphan"]) }
        }
        #expect(constraint.isConstraintViolation)
        #expect(constraint.description.contains("FOREIGN KEY constraint failed"))
        #expect(constraint.sql?.contains("INSERT INTO item") == true)
    }

    private enum Size: String, DatabaseValueConvertible { case small, large }

    @Test func runsScriptsPreparedStatementsAndManyDistinctQueries() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("script.sqlite"), migrations: [
            Migration(version: 1, name: "two tables in one script") { db in
                try db.execute("CREATE TABLE a(id INTEGER PRIMARY KEY, size TEXT); CREATE TABLE b(id INTEGER PRIMARY KEY);")
            },
        ])
        try database.write(author: "test") { db throws in
            let insert = try db.prepare("INSERT INTO a(size) VALUES (?)")
            for size in [Size.small, .large, .large] { try insert.execute([size]) }
            #expect(throws: DatabaseError.self) { try db.prepare("SELECT 1; SELECT 2") }
        }
        try database.read { db throws in
            #expect(try db.fetchAll("SELECT size FROM a ORDER BY id").map { $0["size"] as Size } == [.small, .large, .large])
            // More distinct statements than the cache holds, each still answered correctly.
            for value in 0..<300 {
                #expect(try db.fetchScalar(Int.self, "SELECT \(value) + ?", [1]) == value + 1)
            }
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM b") == 0)
        }
    }
}
