import Foundation
import Synchronization
import Testing
@testable import Persistence

@Suite struct DatabaseTests {
    @Test func aThrowingWriteLeavesNothingBehind() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("rollback.sqlite"), migrations: TestSchema.all)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.write(author: "test") { db throws in
                try db.execute("INSERT INTO list(name) VALUES (?)", ["half"])
                try db.execute("INSERT INTO item(list_id, title) VALUES (?, ?)", [db.lastInsertedRowID, "written"])
                throw Abort()
            }
        }
        try database.read { db throws in
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM list") == 0)
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM item") == 0)
        }
        #expect(try database.fetchHistory(after: 0).isEmpty)
        // The writer is usable again after the rollback.
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", ["whole"]) }
        #expect(try database.read { db in try db.fetchScalar(Int.self, "SELECT count(*) FROM list") } == 1)
    }

    @Test func aReaderRunsDuringALongWriteAndSeesTheCommittedState() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("concurrent.sqlite"), migrations: TestSchema.all)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", ["old"]) }
        let writeStarted = DispatchSemaphore(value: 0)
        let writeFinished = Atomic<Bool>(false)
        let writer = Task.detached {
            try database.write(author: "test") { db throws in
                try db.execute("UPDATE list SET name = ?", ["new"])
                writeStarted.signal()
                Thread.sleep(forTimeInterval: 0.5)
                writeFinished.store(true, ordering: .sequentiallyConsistent)
            }
        }
        writeStarted.wait()
        let seen = try database.read { db in try db.fetchScalar(String.self, "SELECT name FROM list") }
        #expect(seen == "old")
        let finishedBeforeRead = writeFinished.load(ordering: .sequentiallyConsistent)
        #expect(!finishedBeforeRead, "the read must not wait for the write")
        try await writer.value
        #expect(try database.read { db in try db.fetchScalar(String.self, "SELECT name FROM list") } == "new")
    }

    @Test func backupIsAnIdenticalHealthyCopy() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("live.sqlite"), migrations: TestSchema.all)
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO list(name) VALUES (?)", ["A"])
            for index in 0..<500 {
                try db.execute("INSERT INTO item(list_id, title, done) VALUES (?, ?, ?)", [1, "item \(index)", index % 3 == 0])
            }
        }
        let copyPath = directory.path("copy.sqlite")
        try database.backup(to: copyPath)
        let copy = try Database(path: copyPath, migrations: TestSchema.all)
        let dump = "SELECT id, list_id, title, done FROM item ORDER BY id"
        try copy.read { db throws in
            #expect(try db.fetchScalar(String.self, "PRAGMA integrity_check") == "ok")
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM item") == 500)
        }
        let original = try database.read { db in try db.fetchAll(dump).map(\.values) }
        #expect(try copy.read { db in try db.fetchAll(dump).map(\.values) } == original)
        #expect(try copy.fetchHistory(after: 0) == database.fetchHistory(after: 0))
        #expect(!FileManager.default.fileExists(atPath: copyPath + ".partial"))
    }

    @Test func closedDatabaseRefusesWork() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("closed.sqlite"), migrations: [])
        database.close()
        #expect(throws: DatabaseError.self) { try database.read { db in try db.fetchOne("SELECT 1") } }
        database.close()
    }

    @Test func bulkInsertOfManyRowsInOneTransactionRecordsEveryRow() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("bulk.sqlite"), migrations: TestSchema.all)
        let rowCount = 100_000
        try database.write(author: "import") { db throws in
            try db.execute("INSERT INTO list(name) VALUES (?)", ["bulk"])
            let insert = try db.prepare("INSERT INTO item(list_id, title) VALUES (?, ?)")
            for index in 0..<rowCount {
                try insert.execute([1, "item \(index)"])
            }
        }
        let token = try database.latestHistoryToken()
        let recorded = try database.read { db in
            try db.fetchScalar(Int.self, "SELECT count(*) FROM history_change WHERE token = ?", [token])
        }
        #expect(recorded == rowCount + 1)
    }
}
